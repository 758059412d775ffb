//! Files made in code, for the crate's tests and the API's (`tests/api` includes this
//! file by path).

/// A CSV of nine rows, most of them broken: a missing and an extra field, a formula as
/// the amount, a note over the cell limit, a formula note, a bad date, bad quoting and an unclosed
/// quote at the end. Rows 2, 3, 4, 5 and 7 are errors whatever else is.
pub fn malformed_csv() -> String {
    let huge = "x".repeat(bankfile::MAX_CELL_BYTES + 1);
    format!(
        "date,amount,category,note\n\
         2026-11-01,-1.00,Groceries,good\n\
         2026-11-02,-2.00,Groceries\n\
         2026-11-03,-3.00,Groceries,extra,field\n\
         2026-11-04,=1+2,Groceries,formula amount\n\
         2026-11-05,-5.00,Groceries,{huge}\n\
         2026-11-06,-6.00,Groceries,=HYPERLINK(\"http://x\")\n\
         2026-13-01,-7.00,Groceries,bad date\n\
         2026-11-08,-8.00,Groceries,\"bad \"quoting\n\
         2026-11-09,-9.00,Groceries,\"unclosed\n"
    )
}
