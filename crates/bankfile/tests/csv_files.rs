//! CSV dialects from real banks' layouts (tests/fixtures, see the README).

mod common;

use std::collections::BTreeMap;

use bankfile::{Field, FileError, Options};
use common::{check, read, read_expected, read_with, refuse};

#[test]
fn german_ing_diba_latin1_with_preamble() {
    let s = read_expected("de_ing_diba_latin1.csv");
    let d = &s.detected;
    assert_eq!((d.delimiter, d.decimal), (Some(';'), Some(',')));
    assert_eq!(d.date_format.as_deref(), Some("DD.MM.YYYY"));
    assert_eq!(d.account.as_deref(), Some("DE89370400440532013000"));
    assert_eq!(d.columns[&Field::Date], "Buchung");
    assert_eq!(d.columns[&Field::ValueDate], "Valuta");
    assert_eq!(d.columns[&Field::Amount], "Betrag");
    assert_eq!(
        s.rows[0].note.as_deref(),
        Some("Miete Januar Wohnung 3. OG")
    );
}

#[test]
fn german_dkb_windows_1252_quoted_with_trailing_delimiters() {
    let s = read_expected("de_dkb_cp1252.csv");
    assert!(s.rows[0].note.as_deref().unwrap_or("").contains('€'));
    assert_eq!(
        s.detected.account.as_deref(),
        Some("DE12120300001020304050")
    );
}

#[test]
fn german_sparkasse_two_digit_years() {
    let s = read_expected("de_sparkasse_camt_v2.csv");
    assert_eq!(s.detected.date_format.as_deref(), Some("DD.MM.YY"));
}

#[test]
fn swiss_debit_credit_columns_and_apostrophes() {
    let s = read_expected("ch_ubs_fr_debit_credit.csv");
    assert_eq!(s.rows[0].amount.to_string(), "11373.94");
    assert_eq!(s.rows[2].amount.to_string(), "-2150.00");
    assert_eq!(s.detected.decimal, Some('.'));
    assert_eq!(s.detected.account.as_deref(), Some("CH9300762011623852957"));
}

#[test]
fn us_chase_signed_amounts_month_first() {
    let s = read_expected("us_chase_checking.csv");
    assert_eq!(s.detected.date_format.as_deref(), Some("MM/DD/YYYY"));
    assert_eq!(s.detected.delimiter, Some(','));
}

#[test]
fn us_withdrawal_deposit_dollars_and_trailing_summary() {
    let s = read_expected("us_withdrawal_deposit_summary.csv");
    assert_eq!(s.rows[0].amount.to_string(), "-1036.47");
    assert_eq!(s.detected.account.as_deref(), Some("****1234"));
    assert_eq!(s.detected.columns[&Field::Debit], "Withdrawal");
    assert_eq!(s.detected.columns[&Field::Credit], "Deposit");
}

#[test]
fn spanish_headers_and_lower_case_english_day_first() {
    read_expected("es_caixabank.csv");
    let s = read_expected("es_lowercase_english.csv");
    assert_eq!(s.detected.date_format.as_deref(), Some("DD/MM/YYYY"));
}

#[test]
fn french_debit_credit_euros_multiline_labels() {
    let s = read_expected("fr_credit_agricole.csv");
    assert!(s.rows[1]
        .note
        .as_deref()
        .unwrap_or("")
        .contains("CARREFOUR"));
}

#[test]
fn budgeting_app_cr_line_ends_and_type_column() {
    let s = read_expected("budget_app_mint_cr.csv");
    assert_eq!(s.rows[0].category.as_deref(), Some("Groceries"));
    assert_eq!(s.rows[2].tags, ["subscriptions"]);
    assert_eq!(s.rows[2].note.as_deref(), Some("Netflix | family plan"));
}

#[test]
fn utf16_with_and_without_bom() {
    read_expected("utf16le_bom_n26.csv");
    let s = read_expected("utf16le_nobom_ing_nl.csv");
    assert_eq!(s.detected.date_format.as_deref(), Some("YYYYMMDD"));
}

#[test]
fn parentheses_and_trailing_minus() {
    let s = read_expected("negatives_parens_trailing_minus.csv");
    assert_eq!(s.rows[1].amount.to_string(), "-12.50");
    assert_eq!(s.rows[3].amount.to_string(), "-45.00");
}

#[test]
fn ambiguous_dates_are_refused_and_settled_by_an_override() {
    match refuse("ambiguous_dates.csv") {
        FileError::AmbiguousDate { candidates } => {
            assert_eq!(candidates, ["DD.MM.YYYY", "MM.DD.YYYY"]);
        }
        e => panic!("{e:?}"),
    }
    let options = Options {
        date_format: Some("DD.MM.YYYY".into()),
        ..Options::default()
    };
    let s = read_with("ambiguous_dates.csv", &options);
    check(
        &s,
        3,
        "1304.90",
        &[],
        &["2024-02-01", "2024-04-03", "2024-06-05"],
    );
}

#[test]
fn bad_rows_are_per_row_errors_even_the_last() {
    let s = read("bad_rows.csv");
    let errors: Vec<(usize, &str)> = s.errors.iter().map(|e| (e.row, e.field.as_str())).collect();
    assert_eq!(
        errors,
        [
            (2, "row"),
            (3, "row"),
            (4, "amount"),
            (5, "date"),
            (7, "row")
        ]
    );
    assert_eq!(s.total_rows, 7);
    assert_eq!(s.rows.len(), 2);
    assert_eq!(s.rows[1].note.as_deref(), Some("=HYPERLINK(\"http://x\")"));
}

#[test]
fn the_apps_export_reads_back() {
    let s = read_expected("export_roundtrip.csv");
    assert!(s.errors.is_empty(), "{:?}", s.errors);
    assert_eq!(s.rows[1].note.as_deref(), Some("=SUM(A1:A2)"));
    assert_eq!(s.rows[1].payee.as_deref(), Some("@Market"));
    assert_eq!(s.rows[1].tags, ["food", "weekly"]);
    assert_eq!(s.rows[2].tags, ["home;garden", "weekly"]);
    assert_eq!(s.rows[2].import_id.as_deref(), Some("bank-2026-11-03-0001"));
    assert_eq!(s.rows[3].note.as_deref(), Some("  +1 lunch"));
    assert_eq!(s.rows[3].tags, ["-x"]);
}

#[test]
fn overrides_map_columns_invert_and_skip() {
    let file = b"Kontostand;12\nWhen;How much;Who\n2024-01-05;12.50;Shop\n";
    let mut columns = BTreeMap::new();
    columns.insert(Field::Date, "When".to_owned());
    columns.insert(Field::Amount, "how much".to_owned());
    columns.insert(Field::Payee, "Who".to_owned());
    let options = Options {
        columns,
        invert: true,
        skip_rows: Some(1),
        delimiter: Some(b';'),
        decimal: Some('.'),
        ..Options::default()
    };
    let s = bankfile::parse(file, &options).unwrap();
    assert_eq!(s.rows[0].amount.to_string(), "-12.50");
    assert_eq!(s.rows[0].payee.as_deref(), Some("Shop"));
    let missing = bankfile::parse(b"When;How much\n2024-01-05;1\n", &Options::default());
    match missing {
        Err(FileError::MissingColumns { missing, headers }) => {
            assert_eq!(missing, [Field::Date, Field::Amount]);
            assert_eq!(headers, ["When", "How much"]);
        }
        other => panic!("{other:?}"),
    }
    let bad = Options {
        date_format: Some("YY".into()),
        ..Options::default()
    };
    assert!(matches!(
        bankfile::parse(file, &bad),
        Err(FileError::BadOption { .. })
    ));
    let mut columns = BTreeMap::new();
    columns.insert(Field::Date, "Nope".to_owned());
    let bad = Options {
        columns,
        ..Options::default()
    };
    let e = bankfile::parse(b"date,amount\n2024-01-01,1\n", &bad).unwrap_err();
    assert!(
        matches!(e, FileError::BadOption { ref name, .. } if name == "col.date"),
        "{e:?}"
    );
}

#[test]
fn type_column_never_flips_a_signed_amount() {
    let file = "Date,Amount,Type\n2024-01-01,-5.00,credit\n2024-01-02,5.00,debit\n\
                2024-01-03,+5.00,debit\n2024-01-04,7.00,Credit Transfer\n2024-01-05,8.00,S\n";
    let s = bankfile::parse(file.as_bytes(), &Options::default()).unwrap();
    let amounts: Vec<String> = s.rows.iter().map(|r| r.amount.to_string()).collect();
    assert_eq!(amounts, ["-5.00", "-5.00", "5.00", "7.00", "-8.00"]);
    let file = "Date,Amount,Debit,Credit\n2024-01-01,99,10,\n2024-01-02,99,0.00,4\n";
    let s = bankfile::parse(file.as_bytes(), &Options::default()).unwrap();
    let amounts: Vec<String> = s.rows.iter().map(|r| r.amount.to_string()).collect();
    assert_eq!(amounts, ["-10", "4"]);
}

#[test]
fn too_many_rows_and_empty_files() {
    let mut file = String::from("date,amount\n");
    for i in 0..30 {
        file.push_str(&format!("2024-01-{:02},1\n", i % 28 + 1));
    }
    let options = Options {
        max_rows: 20,
        ..Options::default()
    };
    let e = bankfile::parse(file.as_bytes(), &options).unwrap_err();
    assert_eq!(e, FileError::TooManyRows { max: 20 });
    assert_eq!(refuse("empty.csv"), FileError::Empty);
    assert_eq!(
        bankfile::parse(b" \r\n", &Options::default()).unwrap_err(),
        FileError::Empty
    );
}
