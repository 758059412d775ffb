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

/// A CAMT.053 file of one statement per `(IBAN, currency, booking date)`, each with one
/// booked debit of 100.00 in its currency (entry reference `R1`).
pub fn camt_statements(statements: &[(&str, &str, &str)]) -> String {
    let stmts: String = statements
        .iter()
        .map(|(iban, ccy, date)| {
            format!(
                "<Stmt><Acct><Id><IBAN>{iban}</IBAN></Id><Ccy>{ccy}</Ccy></Acct><Ntry>\
                 <Amt Ccy=\"{ccy}\">100.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts>\
                 <BookgDt><Dt>{date}</Dt></BookgDt><AcctSvcrRef>R1</AcctSvcrRef></Ntry></Stmt>"
            )
        })
        .collect();
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\
         <Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.02\">\
         <BkToCstmrStmt>{stmts}</BkToCstmrStmt></Document>"
    )
}

/// A Swiss bank's download of all accounts: a CHF and a EUR statement in one file.
pub fn two_currency_camt() -> String {
    camt_statements(&[
        ("CH9300762011623852957", "CHF", "2024-01-05"),
        ("CH5604835012345678009", "EUR", "2024-01-05"),
    ])
}
