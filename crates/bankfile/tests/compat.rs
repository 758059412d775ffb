//! What the CSV reader this crate replaces did still holds (functions/imports/src/parse).

mod common;

use bankfile::{parse, Options, Statement};

fn read(text: &str, options: &Options) -> Statement {
    parse(text.as_bytes(), options).expect("read")
}

fn errors(s: &Statement) -> Vec<(usize, &str)> {
    s.errors.iter().map(|e| (e.row, e.field.as_str())).collect()
}

#[test]
fn columns_by_alias_in_any_case_and_order() {
    let s = read(
        "\u{feff}Memo;Payee;AMOUNT;Date\n\"Lunch; with Ann\";Cafe;-12.50;2026-01-02\n",
        &Options::default(),
    );
    let r = &s.rows[0];
    assert_eq!(r.note.as_deref(), Some("Lunch; with Ann"));
    assert_eq!(r.payee.as_deref(), Some("Cafe"));
    assert_eq!(r.amount.to_string(), "-12.50");
}

#[test]
fn the_dry_run_file_with_a_decimal_comma() {
    let file = "Date;Amount;Category;Memo;Payee;Tags\n\
                2026-11-01;-12,50;groceries;Market;ACME;\"weekly; food\"\n\
                2026-11-02;2500;Salary;Pay;;\n";
    let options = Options {
        decimal: Some(','),
        ..Options::default()
    };
    for s in [read(file, &options), read(file, &Options::default())] {
        assert_eq!(s.rows[0].amount.to_string(), "-12.50");
        assert_eq!(s.rows[0].tags, ["weekly", "food"]);
        assert_eq!(s.rows[0].payee.as_deref(), Some("ACME"));
        assert_eq!(s.rows[1].payee, None);
        assert_eq!(s.rows[0].category.as_deref(), Some("groceries"));
    }
}

#[test]
fn too_precise_amounts_reach_the_caller() {
    let s = read(
        "date,amount\n2026-11-01,-12.50\n2026-11-03,-1.234\n",
        &Options::default(),
    );
    assert_eq!(s.rows[1].amount.to_string(), "-1.234");
}

#[test]
fn blank_lines_and_repeated_headers_are_not_rows() {
    let s = read(
        "date,amount\n2026-01-01,1\n\nDate,Amount\n2026-01-02,2\n",
        &Options::default(),
    );
    assert_eq!((s.total_rows, s.rows.len()), (2, 2), "{:?}", s.errors);
}

#[test]
fn debit_credit_columns_with_day_first_dates() {
    let options = Options {
        date_format: Some("DD/MM/YYYY".into()),
        decimal: Some(','),
        delimiter: Some(b';'),
        ..Options::default()
    };
    let s = read(
        "date;debit;credit\n03/11/2026;12,5;\n04/11/2026;;100\n31/02/2026;1;\n",
        &options,
    );
    assert_eq!(s.rows[0].amount.to_string(), "-12.5");
    assert_eq!(s.rows[0].date, time::macros::date!(2026 - 11 - 03));
    assert_eq!(s.rows[1].amount.to_string(), "100");
    assert_eq!(errors(&s), [(3, "date")]);
}

#[test]
fn bad_rows_keep_their_numbers() {
    let s = read(
        "date,amount\n2026-01-01\n2026-01-01,1e5\n2026-01-01,=1+2\n2026-01-01,1.000,00\n",
        &Options::default(),
    );
    assert_eq!(
        errors(&s),
        [(1, "row"), (2, "amount"), (3, "amount"), (4, "row")]
    );
}

#[test]
fn the_api_tests_malformed_file() {
    let file = common::samples::malformed_csv();
    let s = read(&file, &Options::default());
    assert_eq!(s.total_rows, 9);
    let bad: Vec<usize> = s.errors.iter().map(|e| e.row).collect();
    for row in [2, 3, 4, 5, 7] {
        assert!(bad.contains(&row), "{row}: {:?}", s.errors);
    }
    assert!(s
        .rows
        .iter()
        .any(|r| r.note.as_deref() == Some("=HYPERLINK(\"http://x\")")));
}

#[test]
fn the_readme_example_file() {
    let file = "date,amount,category,note,provider,tags,importId\n\
        2026-11-01,2500.00,Salary,November pay,ACME Corp,,\n\
        2026-11-02,-42.17,Groceries,Weekly shop,Market,food;weekly,\n\
        2026-11-03,-850.00,Rent,\"Rent, November\",Landlord,home,bank-2026-11-03-0001\n\
        2026-11-05,-12.50,Restaurants,'=lunch with Ann (a formula-looking note),Cafe,food,\n\
        2026-11-05,-12.50,Restaurants,Another lunch of the same amount and date,Cafe,food,\n";
    let s = read(file, &Options::default());
    assert_eq!((s.total_rows, s.rows.len()), (5, 5));
    assert_eq!(
        s.rows[3].note.as_deref(),
        Some("=lunch with Ann (a formula-looking note)")
    );
    assert_eq!(s.rows[2].import_id.as_deref(), Some("bank-2026-11-03-0001"));
    assert_eq!(s.rows[0].import_id, None);
}

#[test]
fn escaped_cells_and_tags_round_trip_through_an_export() {
    let notes = [
        "=SUM(A1)", "  -fee", "'quoted", "plain", "@home", "\tx", " 'x",
    ];
    let tags = [
        vec!["a;b".to_owned(), "=cmd".to_owned()],
        vec!["c\\d".to_owned()],
        vec![],
    ];
    let mut file = String::from("date,amount,note,tags\n");
    let mut writer = csv::Writer::from_writer(Vec::new());
    for (i, note) in notes.iter().enumerate() {
        let t = bankfile::escape_cell(&bankfile::join_tags(&tags[i % tags.len()]));
        let cells = [
            "2026-01-01".to_owned(),
            "1".into(),
            bankfile::escape_cell(note),
            t,
        ];
        writer.write_record(&cells).expect("write");
    }
    file.push_str(&String::from_utf8(writer.into_inner().expect("csv")).expect("utf8"));
    let s = read(&file, &Options::default());
    assert!(s.errors.is_empty(), "{:?}", s.errors);
    for (i, r) in s.rows.iter().enumerate() {
        assert_eq!(r.note.as_deref(), Some(notes[i]));
        assert_eq!(r.tags, tags[i % tags.len()]);
    }
}
