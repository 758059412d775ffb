//! CSV dialects from real banks' layouts (tests/fixtures, see the README).

mod common;

use std::collections::BTreeMap;

use bankfile::{Field, FileError, Options};
use common::{check, note, read, read_expected, read_text, read_with, refuse};

/// What each file's dialect is detected as: `tests/expected.csv`'s last columns (two-digit
/// years, month first, UTF-16 with and without a BOM, months in words, no header, ...).
#[test]
fn each_dialects_delimiter_decimal_mark_and_date_format() {
    for e in common::expected::all() {
        let d = read(e.file()).detected;
        let detected = (d.delimiter, d.decimal, d.date_format.as_deref());
        assert_eq!(detected, e.dialect(), "{}", e.file());
    }
}

/// The account a statement names, where it names one.
#[test]
fn the_statements_account() {
    for (name, account) in [
        ("de_ing_diba_latin1.csv", "DE89370400440532013000"),
        ("de_dkb_cp1252.csv", "DE12120300001020304050"),
        ("ch_ubs_fr_debit_credit.csv", "CH9300762011623852957"),
        ("us_withdrawal_deposit_summary.csv", "****1234"),
    ] {
        let d = read_expected(name).detected;
        assert_eq!(d.account.as_deref(), Some(account), "{name}");
    }
}

/// The columns found under the bank's own headers.
#[test]
fn the_columns_under_the_banks_headers() {
    for (name, field, header) in [
        ("de_ing_diba_latin1.csv", Field::Date, "Buchung"),
        ("de_ing_diba_latin1.csv", Field::ValueDate, "Valuta"),
        ("de_ing_diba_latin1.csv", Field::Amount, "Betrag"),
        (
            "us_withdrawal_deposit_summary.csv",
            Field::Debit,
            "Withdrawal",
        ),
        (
            "us_withdrawal_deposit_summary.csv",
            Field::Credit,
            "Deposit",
        ),
    ] {
        let d = read_expected(name).detected;
        assert_eq!(d.columns[&field], header, "{name}");
    }
}

/// Amounts signed whatever the file's notation: debit and credit columns with
/// apostrophes, withdrawal and deposit columns in dollars, parentheses and a trailing minus.
#[test]
fn amounts_are_signed_whatever_the_columns_or_the_notation() {
    for (name, row, amount) in [
        ("ch_ubs_fr_debit_credit.csv", 0, "11373.94"),
        ("ch_ubs_fr_debit_credit.csv", 2, "-2150.00"),
        ("us_withdrawal_deposit_summary.csv", 0, "-1036.47"),
        ("negatives_parens_trailing_minus.csv", 1, "-12.50"),
        ("negatives_parens_trailing_minus.csv", 3, "-45.00"),
    ] {
        let s = read_expected(name);
        assert_eq!(s.rows[row].amount.to_string(), amount, "{name}");
    }
}

/// Notes read whole: quoted Windows-1252 with its euro sign, labels over several lines.
#[test]
fn notes_keep_the_euro_sign_and_labels_over_several_lines() {
    for (name, row, part) in [
        ("de_dkb_cp1252.csv", 0, "€"),
        ("fr_credit_agricole.csv", 1, "CARREFOUR"),
    ] {
        let s = read_expected(name);
        assert!(note(&s, row).is_some_and(|n| n.contains(part)), "{name}");
    }
}

#[test]
fn german_ing_diba_latin1_with_preamble() {
    let s = read_expected("de_ing_diba_latin1.csv");
    assert_eq!(note(&s, 0), Some("Miete Januar Wohnung 3. OG"));
}

#[test]
fn budgeting_app_cr_line_ends_and_type_column() {
    let s = read_expected("budget_app_mint_cr.csv");
    assert_eq!(s.rows[0].category.as_deref(), Some("Groceries"));
    assert_eq!(s.rows[2].tags, ["subscriptions"]);
    assert_eq!(note(&s, 2), Some("Netflix | family plan"));
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
    assert_eq!(note(&s, 1), Some("=HYPERLINK(\"http://x\")"));
}

#[test]
fn the_apps_export_reads_back() {
    let s = read_expected("export_roundtrip.csv");
    assert!(s.errors.is_empty(), "{:?}", s.errors);
    assert_eq!(note(&s, 1), Some("=SUM(A1:A2)"));
    assert_eq!(s.rows[1].payee.as_deref(), Some("@Market"));
    assert_eq!(s.rows[1].tags, ["food", "weekly"]);
    assert_eq!(s.rows[2].tags, ["home;garden", "weekly"]);
    assert_eq!(s.rows[2].import_id.as_deref(), Some("bank-2026-11-03-0001"));
    assert_eq!(note(&s, 3), Some("  +1 lunch"));
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
        invert: Some(true),
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
    // Unsigned amounts and a type column (ING's Af/Bij, Sparkasse's S/H): the type signs
    // each amount; a stray signed correction keeps its own sign.
    let mut file =
        String::from("Date,Amount,Type\n2024-01-01,-5.00,credit\n2024-01-02,+5.00,debit\n");
    for day in 3..=20 {
        file.push_str(&format!("2024-01-{day:02},5.00,debit\n"));
    }
    file.push_str("2024-01-21,7.00,Credit Transfer\n2024-01-22,8.00,S\n");
    let s = bankfile::parse(file.as_bytes(), &Options::default()).unwrap();
    let amounts: Vec<String> = s.rows.iter().map(|r| r.amount.to_string()).collect();
    let mut want = vec!["-5.00", "5.00"];
    want.extend(["-5.00"; 18]);
    want.extend(["7.00", "-8.00"]);
    assert_eq!(amounts, want);
    // A card statement (Chase) signs its amounts, purchases negative: its `Payment` type
    // is money in, and stays so.
    let card = "Transaction Date,Post Date,Description,Category,Type,Amount,Memo\n\
        01/15/2024,01/16/2024,AMAZON MKTPLACE PMTS,Shopping,Sale,-23.45,\n\
        01/20/2024,01/20/2024,Payment Thank You-Mobile,,Payment,500.00,\n\
        01/21/2024,01/22/2024,AMAZON RETURN,Shopping,Return,12.00,\n";
    let s = bankfile::parse(card.as_bytes(), &Options::default()).unwrap();
    let amounts: Vec<String> = s.rows.iter().map(|r| r.amount.to_string()).collect();
    assert_eq!(amounts, ["-23.45", "500.00", "12.00"]);
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

/// Months in words, as UK, Irish, Indian and US exports and spreadsheets write them; each
/// detected format is what a client sends back as `dateFormat`.
#[test]
fn months_in_words() {
    for (text, format, dates) in [
        (
            "Txn Date,Value Date,Description,Debit,Credit,Balance\n\
             5 Jan 2024,5 Jan 2024,UPI/SWIGGY,450.00,,10550.00\n\
             17 Jan 2024,18 Jan 2024,NEFT SALARY,,85000.00,95550.00\n",
            "DD MMM YYYY",
            ["2024-01-05", "2024-01-17"],
        ),
        (
            "POSTED_DATE,DESCRIPTION,AMOUNT\n05-JAN-24,CARD 1234 TESCO,-12.45\n29-FEB-24,REFUND,3.00\n",
            "DD-MMM-YY",
            ["2024-01-05", "2024-02-29"],
        ),
        (
            "Date,Description,Amount\n\"Jan 5, 2024\",Coffee,-4.50\n\"Dec 31, 2024\",Interest,0.12\n",
            "MMM DD, YYYY",
            ["2024-01-05", "2024-12-31"],
        ),
        (
            "Buchungstag;Verwendungszweck;Betrag\n05. Mär. 2024;Miete;-800,00\n01. Dez. 2024;Gehalt;2500,00\n",
            "DD.MMM.YYYY",
            ["2024-03-05", "2024-12-01"],
        ),
    ] {
        let s = read_text(text);
        assert_eq!(s.detected.date_format.as_deref(), Some(format), "{text}");
        let read: Vec<String> = s.rows.iter().map(|r| r.date.to_string()).collect();
        assert_eq!(read, dates, "{text}");
        let options = Options {
            date_format: Some(format.to_owned()),
            ..Options::default()
        };
        let again = bankfile::parse(text.as_bytes(), &options).unwrap();
        assert_eq!(again.rows, s.rows, "{format} sent back reads the same");
    }
}

/// Files without a header: the columns by their content, reported as `#N`, which
/// `col.<field>` takes back.
#[test]
fn files_without_a_header() {
    let s = read("au_commbank_headerless.csv");
    let columns: Vec<(Field, &str)> = s
        .detected
        .columns
        .iter()
        .map(|(f, c)| (*f, c.as_str()))
        .collect();
    assert_eq!(
        columns,
        [
            (Field::Date, "#1"),
            (Field::Amount, "#2"),
            (Field::Note, "#3")
        ]
    );
    assert_eq!(
        s.rows[0].note.as_deref(),
        Some("EFTPOS WOOLWORTHS 1234 SYDNEY NS AUS Card xx1234 Value Date: 10/01/2024")
    );
    // Wells Fargo's `*` and check-number columns are no note.
    let s = read("us_wells_fargo_headerless.csv");
    assert_eq!(s.rows[1].note.as_deref(), Some("CHECK # 1043"));
    assert_eq!(
        s.detected.columns.get(&Field::Note).map(String::as_str),
        Some("#5")
    );

    // NAB: months in words, two text columns joined, a balance, a summary line.
    let nab = "05 Jan 24,-45.50,,,EFTPOS PURCHASE,WOOLWORTHS 1234 SYDNEY,1234.56,\n\
               17 Jan 24,900.00,,,TRANSFER CREDIT,ANN LEE,2134.56,\n\
               Closing balance,,,,,,2134.56,\n";
    let s = read_text(nab);
    assert_eq!(s.detected.date_format.as_deref(), Some("DD MMM YY"));
    let read: Vec<(String, String, Option<&str>)> = s
        .rows
        .iter()
        .map(|r| (r.date.to_string(), r.amount.to_string(), r.note.as_deref()))
        .collect();
    assert_eq!(
        read,
        [
            (
                "2024-01-05".into(),
                "-45.50".into(),
                Some("EFTPOS PURCHASE | WOOLWORTHS 1234 SYDNEY")
            ),
            (
                "2024-01-17".into(),
                "900.00".into(),
                Some("TRANSFER CREDIT | ANN LEE")
            ),
        ]
    );

    // Numbered overrides: the balance as the amount is what the client asked for.
    let numbered = |pairs: &[(Field, &str)]| Options {
        columns: pairs.iter().map(|(f, n)| (*f, n.to_string())).collect(),
        ..Options::default()
    };
    let s = read_with(
        "au_commbank_headerless.csv",
        &numbered(&[(Field::Amount, "#4"), (Field::Payee, "#3")]),
    );
    assert_eq!(s.rows[0].amount.to_string(), "3154.50");
    assert!(s.rows[0]
        .payee
        .as_deref()
        .is_some_and(|p| p.starts_with("EFTPOS")));
    assert_eq!(s.rows[0].note, None);
    // A header name where the file has none, a number past the columns.
    for bad in ["Amount", "#9"] {
        let fixture = common::fixture("au_commbank_headerless.csv");
        let e = bankfile::parse(&fixture, &numbered(&[(Field::Amount, bad)]));
        assert!(
            matches!(e, Err(FileError::BadOption { ref name, .. }) if name == "col.amount"),
            "{bad}: {e:?}"
        );
    }
    // On a file with a header, `#N` names a column too.
    let s = read_with("us_chase_checking.csv", &numbered(&[(Field::Note, "#1")]));
    assert_eq!(
        s.detected.columns.get(&Field::Note).map(String::as_str),
        Some("Details")
    );
    assert!(
        s.rows.iter().all(|r| matches!(
            r.note.as_deref(),
            Some("DEBIT" | "CREDIT" | "CHECK" | "DSLIP")
        )),
        "{:?}",
        s.rows
    );

    // A line above the data: skipRows, or it is a header no alias matched (422).
    let text = "Statement 2024\n05/01/2024,-4.50,Coffee\n17/01/2024,-3.00,Tea\n";
    let options = Options {
        skip_rows: Some(1),
        ..Options::default()
    };
    let s = bankfile::parse(text.as_bytes(), &options).unwrap();
    assert_eq!((s.rows.len(), s.rows[0].row), (2, 1));
    assert!(matches!(
        bankfile::parse(text.as_bytes(), &Options::default()),
        Err(FileError::MissingColumns { .. })
    ));
}

/// A status column: rows the bank has not booked (Revolut's `PENDING`, `DECLINED`,
/// `REVERTED`; DKB's `Vorgemerkt`) are skipped and counted; a fee column is a cost on
/// top of the amount (Revolut's exchange fee: -100.00 and 0.50 is -100.50).
#[test]
fn unbooked_rows_and_fees() {
    let s = read("revolut_gbp_states_fees.csv");
    assert_eq!((s.total_rows, s.pending_skipped), (3, 3));
    let amounts: Vec<String> = s.rows.iter().map(|r| r.amount.to_string()).collect();
    assert_eq!(amounts, ["-12.45", "500.00", "-100.50"]);
    // A fee alone (nothing exchanged, a fee charged) is money, not a balance line.
    let fee_only = "Type,Product,Started Date,Completed Date,Description,Amount,Fee,Currency,State,Balance\n\
                    FEE,Current,2024-01-05 10:00:00,2024-01-05 10:00:01,Plan fee,0.00,1.00,GBP,COMPLETED,99.00\n";
    let s = bankfile::parse(fee_only.as_bytes(), &Options::default()).unwrap();
    let amounts: Vec<String> = s.rows.iter().map(|r| r.amount.to_string()).collect();
    assert_eq!((amounts, s.errors.len()), (vec!["-1.00".to_owned()], 0));
    let s = read("de_dkb_2023_status.csv");
    assert_eq!((s.total_rows, s.pending_skipped), (2, 1));
    assert_eq!(
        s.detected.columns.get(&Field::Status).map(String::as_str),
        Some("Status")
    );

    // PayPal: `Gross` less a negative `Fee` is `Net`; `Denied` is not booked; a fee on
    // money in is a cost too; a fee that is no amount is the row's error.
    let paypal = "Date,Name,Type,Status,Currency,Gross,Fee,Net\n\
                  01/05/2024,Ann Lee,Payment Received,Completed,USD,100.00,-3.20,96.80\n\
                  01/17/2024,Shop,Payment Sent,Completed,USD,-50.00,0.00,-50.00\n\
                  01/18/2024,Fraud,Payment Sent,Denied,USD,-999.00,0.00,-999.00\n\
                  01/19/2024,Bob,Payment Received,Completed,USD,10.00,n/a,10.00\n";
    let s = bankfile::parse(paypal.as_bytes(), &Options::default()).unwrap();
    let amounts: Vec<String> = s.rows.iter().map(|r| r.amount.to_string()).collect();
    assert_eq!(amounts, ["96.80", "-50.00"]);
    assert_eq!((s.pending_skipped, s.total_rows), (1, 3));
    assert_eq!(
        (s.errors.len(), s.errors[0].field.as_str(), s.errors[0].row),
        (1, "fee", 4)
    );
}

/// A file of one very long line (5 MB of cells) is refused quickly, and its message lists
/// the first 50 headers and a count, never megabytes of them.
#[test]
fn a_very_wide_line_is_refused_with_a_short_message() {
    let line = "a,".repeat(2_500_000);
    let e = bankfile::parse(line.as_bytes(), &Options::default()).unwrap_err();
    assert!(matches!(e, FileError::MissingColumns { .. }), "{e:?}");
    let message = e.to_string();
    assert!(
        message.ends_with(", ... (950 more)"),
        "{}",
        &message[message.len() - 40..]
    );
    assert!(message.len() < 400, "{} bytes", message.len());
    let options = Options {
        columns: BTreeMap::from([(Field::Date, "Datum".to_owned())]),
        ..Options::default()
    };
    let e = bankfile::parse(line.as_bytes(), &options)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("no column is named \"Datum\"") && e.len() < 400,
        "{e}"
    );
}

/// `#N` on a file with a header: the named field moves to that column, the header is
/// still found by the other names; under a first line no alias matches, numbered date
/// and amount make that line the header.
#[test]
fn numbered_columns_on_a_file_with_a_header() {
    let text = "Date,Description,Amount,Balance\n01/15/2024,Coffee,-4.50,100.00\n";
    let with = |pairs: &[(Field, &str)]| {
        let options = Options {
            columns: pairs.iter().map(|(f, n)| (*f, n.to_string())).collect(),
            ..Options::default()
        };
        bankfile::parse(text.as_bytes(), &options).unwrap()
    };
    let s = with(&[(Field::Amount, "#4")]);
    assert_eq!(s.rows[0].amount.to_string(), "100.00");
    assert_eq!(
        s.detected.columns.get(&Field::Amount).map(String::as_str),
        Some("Balance")
    );
    assert_eq!(with(&[(Field::Date, "#1")]).rows.len(), 1);
    let s = with(&[(Field::Amount, "#4"), (Field::Note, "Description")]);
    assert_eq!(
        (s.rows[0].amount.to_string(), s.rows[0].note.as_deref()),
        ("100.00".into(), Some("Coffee"))
    );

    let text = "When,What,How much\n01/15/2024,Coffee,-4.50\n01/17/2024,Tea,-3.00\n";
    let options = Options {
        columns: BTreeMap::from([
            (Field::Date, "#1".to_owned()),
            (Field::Amount, "#3".to_owned()),
            (Field::Note, "#2".to_owned()),
        ]),
        ..Options::default()
    };
    let s = bankfile::parse(text.as_bytes(), &options).unwrap();
    assert!(s.errors.is_empty(), "{:?}", s.errors);
    let rows: Vec<(usize, Option<&str>)> =
        s.rows.iter().map(|r| (r.row, r.note.as_deref())).collect();
    assert_eq!(rows, [(1, Some("Coffee")), (2, Some("Tea"))]);
    assert_eq!(
        s.detected.columns.get(&Field::Date).map(String::as_str),
        Some("When")
    );
}

/// Without a header, money is told from numbers that are not money: a value date
/// written `YYYYMMDD`, a numeric reference, a balance after separate debit and credit.
#[test]
fn headerless_money_among_other_numbers() {
    for (text, amounts) in [
        (
            "20240115,20240116,-45.50,Shop\n20240117,20240117,12.00,Refund\n",
            ["-45.50", "12.00"],
        ),
        (
            "15/01/2024,123456,-45.50,Shop\n17/01/2024,123457,12.00,Refund\n",
            ["-45.50", "12.00"],
        ),
        (
            "15/01/2024,45.50,,Shop,100.00\n17/01/2024,,20.00,Refund,120.00\n",
            ["-45.50", "20.00"],
        ),
        // Whole amounts (no cents, no sign): the first column of amounts.
        (
            "15/01/2024,4550,Shop\n17/01/2024,1200,Refund\n",
            ["4550", "1200"],
        ),
    ] {
        let s = read_text(text);
        let read: Vec<String> = s.rows.iter().map(|r| r.amount.to_string()).collect();
        assert_eq!(read, amounts, "{text}");
    }
}

/// A fee that would take the amount out of range is the row's error, never a panic;
/// PayPal's refund gives its fee back (`Net` = `Gross` + `Fee`).
#[test]
fn fees_at_the_edges() {
    let text =
        "Date,Amount,Fee\n2024-01-05,-1.00,79228162514264337593543950335\n2024-01-06,-2.00,0.10\n";
    let s = bankfile::parse(text.as_bytes(), &Options::default()).unwrap();
    assert_eq!((s.rows.len(), s.errors[0].field.as_str()), (1, "fee"));
    assert_eq!(s.rows[0].amount.to_string(), "-2.10");
    let paypal = "Date,Name,Type,Status,Currency,Gross,Fee,Net\n\
                  01/05/2024,Ann Lee,Payment Received,Completed,USD,100.00,-3.20,96.80\n\
                  01/20/2024,Ann Lee,Payment Refund,Completed,USD,-10.00,0.59,-9.41\n";
    let amounts: Vec<String> = read_text(paypal)
        .rows
        .iter()
        .map(|r| r.amount.to_string())
        .collect();
    assert_eq!(amounts, ["96.80", "-9.41"]);
}

/// Lines real exports hold that a tidy file does not (each from a bank's own layout):
/// what becomes a row, what is skipped, what is the row's error.
#[test]
fn real_world_lines() {
    let amounts = |text: &str| -> Vec<String> {
        let s = bankfile::parse(text.as_bytes(), &Options::default());
        let s = s.unwrap_or_else(|e| panic!("{text}: {e:?}"));
        s.rows
            .iter()
            .map(|r| format!("{} {}", r.date, r.amount))
            .collect()
    };
    // Citi: a payment is a negative credit.
    let citi = "Status,Date,Description,Debit,Credit\n\
                Cleared,01/28/2024,WHOLEFDS MKT,87.43,\n\
                Cleared,01/25/2024,\"ONLINE PAYMENT, THANK YOU\",,-1500.00\n";
    assert_eq!(amounts(citi), ["2024-01-28 -87.43", "2024-01-25 1500.00"]);
    // Balance lines with a date and no money: Postbank's closing `Kontostand`, Bank of
    // America's `Beginning balance`, Starling's opening balance of 0.00.
    let postbank = "Buchungstag;Wert;Umsatzart;Verwendungszweck;Soll;Haben;Währung\n\
                    22.01.2024;22.01.2024;SEPA-Lastschrift von;REWE SAGT DANKE;-23,45;;EUR\n\
                    Kontostand;31.01.2024;;;;;EUR\n";
    assert_eq!(amounts(postbank), ["2024-01-22 -23.45"]);
    let bofa = "Date,Description,Amount,Running Bal.\n\
                01/01/2024,Beginning balance as of 01/01/2024,,\"1,234.56\"\n\
                01/13/2024,TRADER JOE S #123,-64.12,\"1,170.44\"\n";
    assert_eq!(amounts(bofa), ["2024-01-13 -64.12"]);
    let starling = "Date,Counter Party,Reference,Type,Amount (GBP),Balance (GBP)\n\
                    01/01/2024,Opening Balance,,,0.00,1200.00\n\
                    15/01/2024,TESCO,TESCO STORES,CONTACTLESS,-12.45,1187.55\n";
    assert_eq!(amounts(starling), ["2024-01-15 -12.45"]);
    // A short line is still the row's error, never skipped as a balance.
    let short = "Date,Description,Amount\n2024-01-05,Coffee\n2024-01-06,Tea,-3.00\n";
    let s = bankfile::parse(short.as_bytes(), &Options::default()).unwrap();
    assert_eq!((s.rows.len(), s.errors[0].row), (1, 1));

    // Pending as Sparkasse (`Info`), PayPal DE (`Ausstehend`) and Comdirect (`offen`
    // where the date goes) write it.
    for (text, booked) in [
        (
            "Buchungstag;Betrag;Beguenstigter/Zahlungspflichtiger;Info\n\
             05.02.24;-23,45;REWE Markt GmbH;Umsatz vorgemerkt\n\
             31.01.24;2.500,00;ACME GmbH;Umsatz gebucht\n",
            "2024-01-31 2500.00",
        ),
        (
            "\"Datum\",\"Uhrzeit\",\"Name\",\"Typ\",\"Status\",\"Währung\",\"Brutto\",\"Gebühr\",\"Netto\"\n\
             \"14.01.2024\",\"10:00:00\",\"Anna Müller\",\"Zahlung\",\"Abgeschlossen\",\"EUR\",\"100,00\",\"-2,84\",\"97,16\"\n\
             \"20.01.2024\",\"10:00:00\",\"eBay\",\"Autorisierung\",\"Ausstehend\",\"EUR\",\"-45,00\",\"0,00\",\"-45,00\"\n",
            "2024-01-14 97.16",
        ),
        (
            "\"Buchungstag\";\"Wertstellung (Valuta)\";\"Vorgang\";\"Buchungstext\";\"Umsatz in EUR\";\n\
             \"offen\";\"--\";\"Lastschrift / Belastung\";\"Auftraggeber: Spotify\";\"-10,99\";\n\
             \"02.02.2024\";\"02.02.2024\";\"Lastschrift / Belastung\";\"Auftraggeber: REWE Markt GmbH\";\"-23,45\";\n",
            "2024-02-02 -23.45",
        ),
    ] {
        let s = bankfile::parse(text.as_bytes(), &Options::default()).unwrap();
        assert_eq!((amounts(text), s.pending_skipped), (vec![booked.to_owned()], 1), "{text}");
    }

    // Commerzbank and Comdirect: `Buchungstext` is the text when no other column is.
    let commerzbank = "Buchungstag;Umsatzart;Buchungstext;Betrag\n\
                       05.02.2024;Lastschrift;REWE Markt GmbH//Berlin Kartenzahlung;-23,45\n\
                       31.01.2024;Gutschrift;ACME GmbH Gehalt Januar;2.500,00\n";
    let s = read_text(commerzbank);
    assert_eq!(
        s.rows[0].note.as_deref(),
        Some("REWE Markt GmbH//Berlin Kartenzahlung")
    );
    // ... while ING's beside `Verwendungszweck` stays the kind of booking.
    assert_eq!(
        read("de_ing_diba_latin1.csv").detected.columns[&Field::Type],
        "Buchungstext"
    );

    // bunq: the counterparty's IBAN is no payee while a name is there; `Beneficiary BIC`
    // is no payee column.
    let bunq = "\"Date\";\"Interest Date\";\"Amount\";\"Account\";\"Counterparty\";\"Name\";\"Description\"\n\
                \"2024-01-05\";\"2024-01-05\";\"2.500,00\";\"NL12BUNQ2040123456\";\"NL20INGB0001234567\";\"ACME B.V.\";\"Salaris januari\"\n";
    assert_eq!(read_text(bunq).rows[0].payee.as_deref(), Some("ACME B.V."));
    let bic = "Date,Amount,Beneficiary BIC,Description\n2024-01-05,-5.00,COBADEFFXXX,Fee\n";
    assert_eq!(read_text(bic).rows[0].payee, None);

    // PayPal: a row in another currency than the statement's is the row's error (its
    // conversion row in the statement's currency is the money that moved).
    let paypal = "Date,Name,Type,Status,Currency,Gross,Fee,Net\n\
                  22/01/2024,Etsy,Express Checkout Payment,Completed,USD,-25.00,0.00,-25.00\n\
                  22/01/2024,,General Currency Conversion,Completed,USD,25.00,0.00,25.00\n\
                  22/01/2024,,General Currency Conversion,Completed,GBP,-20.11,0.00,-20.11\n\
                  14/01/2024,Jane Smith,General Payment,Completed,GBP,100.00,-3.20,96.80\n\
                  13/01/2024,Steam,Express Checkout Payment,Completed,GBP,-19.99,0.00,-19.99\n";
    let s = bankfile::parse(paypal.as_bytes(), &Options::default()).unwrap();
    assert_eq!(s.detected.currency.as_deref(), Some("GBP"));
    assert_eq!(
        amounts(paypal),
        ["2024-01-22 -20.11", "2024-01-14 96.80", "2024-01-13 -19.99"]
    );
    let errors: Vec<(usize, &str)> = s.errors.iter().map(|e| (e.row, e.field.as_str())).collect();
    assert_eq!(errors, [(1, "currency"), (2, "currency")]);

    // Headers of Revolut Business, Société Générale and Nordea (SE).
    for text in [
        "Date started (UTC),Date completed (UTC),ID,Type,State,Description,Amount,Fee\n\
         2024-01-23,2024-01-23,65a5b1c2-e555,CARD_PAYMENT,COMPLETED,Amazon Web Services,-49.80,0.00\n",
        "Date de l'opération;Libellé;Détail de l'écriture;Montant de l'opération;Devise\n\
         23/01/2024;CARTE X1234 AMAZON;CARTE X1234 02/01 AMAZON;-49,80;EUR\n",
        "Bokföringsdag;Belopp;Avsändare;Mottagare;Namn;Rubrik;Saldo;Valuta\n\
         2024/01/23;-49,80;1234 56 78901;;;AMAZON;-15.000,00;SEK\n",
    ] {
        assert_eq!(amounts(text), ["2024-01-23 -49.80"], "{text}");
    }
}

/// Card exports that print charges as positive and payments as negative are negated
/// unless `invert` says otherwise; `detected.invert` tells, and sent back reads the same.
#[test]
fn card_exports_that_print_charges_as_positive() {
    for text in [
        // American Express (US).
        "Date,Description,Card Member,Account #,Amount\n\
         01/28/2024,WHOLEFDS MKT 10234 NEW YORK NY,JANE DOE,-12345,87.43\n\
         01/25/2024,AUTOPAY PAYMENT - THANK YOU,JANE DOE,-12345,-1500.00\n",
        // American Express (UK), extended.
        "Date,Description,Amount,Extended Details,Appears On Your Statement As,Address,Town/City,Postcode,Country,Reference,Category\n\
         28/01/2024,TESCO STORES,87.43,,TESCO STORES 1234,,,,,'AT240280012345',Groceries\n\
         25/01/2024,PAYMENT RECEIVED - THANK YOU,-1500.00,,,,,,,'AT240250054321',\n",
        // Discover.
        "Trans. Date,Post Date,Description,Amount,Category\n\
         01/28/2024,01/29/2024,WHOLEFDS MKT,87.43,Supermarkets\n\
         01/25/2024,01/25/2024,INTERNET PAYMENT - THANK YOU,-1500.00,Payments and Credits\n",
        // Apple Card.
        "Transaction Date,Clearing Date,Description,Merchant,Category,Type,Amount (USD),Purchased By\n\
         01/28/2024,01/29/2024,WHOLE FOODS,Whole Foods,Grocery,Purchase,87.43,Jane Doe\n\
         01/25/2024,01/25/2024,ACH DEPOSIT INTERNET TRANSFER,Payment,Payment,Payment,-1500.00,Jane Doe\n",
    ] {
        let s = read_text(text);
        let amounts: Vec<String> = s.rows.iter().map(|r| r.amount.to_string()).collect();
        assert_eq!((amounts, s.detected.invert), (vec!["-87.43".to_owned(), "1500.00".to_owned()], true), "{text}");
        for (invert, first) in [(Some(true), "-87.43"), (Some(false), "87.43")] {
            let options = Options { invert, ..Options::default() };
            let s = bankfile::parse(text.as_bytes(), &options).unwrap();
            assert_eq!((s.rows[0].amount.to_string().as_str(), s.detected.invert), (first, invert == Some(true)));
        }
    }
    // Chase's card export signs its charges itself: nothing is negated.
    assert!(!read("us_chase_checking.csv").detected.invert);
}

/// A column whose every amount has three digits after its one separator cannot tell a
/// decimal from a thousands mark: the wallet's currency decides. A tab-separated yen
/// statement's `1,500` is fifteen hundred yen (no decimals), a semicolon-separated
/// dinar statement's `12.500` twelve and a half (three decimals).
#[test]
fn three_digits_after_the_mark_are_read_by_the_currency_decimals() {
    let amounts = |text: &str, currency: &str| -> Vec<String> {
        let options = Options {
            currency: Some(currency.to_owned()),
            ..Options::default()
        };
        let s = bankfile::parse(text.as_bytes(), &options).unwrap();
        s.rows.iter().map(|r| r.amount.to_string()).collect()
    };
    let yen = "Date\tDescription\tAmount\n2024/01/05\tセブンイレブン\t-1,500\n\
               2024/01/25\tSalary\t250,000\n";
    assert_eq!(amounts(yen, "JPY"), ["-1500", "250000"]);
    let dinar = "Date;Description;Amount\n05/01/2024;Sultan Center;-12.500\n\
                 25/01/2024;Salary;1.250\n";
    assert_eq!(amounts(dinar, "KWD"), ["-12.500", "1.250"]);
    // The same dinar file for a euro wallet: the separator's default (`,` after `;`).
    assert_eq!(amounts(dinar, "EUR"), ["-12500", "1250"]);
}

/// A Volksbank/Raiffeisenbank "classic" export: a preamble, the direction in a last
/// column whose header is a single space (`S` money out, `H` money in), and the opening
/// and closing balances as dated lines after the rows. The `S` row is money out, and the
/// balance lines are no transactions.
#[test]
fn a_volksbank_type_column_without_a_header_and_its_balance_lines() {
    let text = "\"Volksbank Musterstadt eG\"\n\
        \"Umsatzanzeige\"\n\
        \"BLZ:\";\"12345678\";;\"Datum:\";\"25.06.2020\"\n\
        \"Konto:\";\"1234567\";;\"Uhrzeit:\";\"09:41:12\"\n\
        \n\
        \"Buchungstag\";\"Valuta\";\"Auftraggeber/Zahlungsempfänger\";\"Empfänger/Zahlungspflichtiger\";\"Konto-Nr.\";\"IBAN\";\"BLZ\";\"BIC\";\"Vorgang/Verwendungszweck\";\"Kundenreferenz\";\"Währung\";\"Umsatz\";\" \"\n\
        \"24.06.2020\";\"24.06.2020\";\"Max Muster\";\"ROSSMANN 2212\";;\"DE89370400440532013000\";;\"GENODEF1HB1\";\"Basislastschrift\";;\"EUR\";\"10,90\";\"S\"\n\
        \"15.06.2020\";\"15.06.2020\";\"Arbeitgeber GmbH\";\"Max Muster\";;\"DE02120300000000202051\";;\"BYLADEM1001\";\"Lohn/Gehalt 06/2020\";;\"EUR\";\"1.500,00\";\"H\"\n\
        \"27.05.2020\";;;;;;;;;\"Anfangssaldo\";\"EUR\";\"1.176,91\";\"H\"\n\
        \"24.06.2020\";;;;;;;;;\"Endsaldo\";\"EUR\";\"2.666,01\";\"H\"\n";
    let s = read_text(text);
    let amounts: Vec<String> = s.rows.iter().map(|r| r.amount.to_string()).collect();
    assert_eq!(amounts, ["-10.90", "1500.00"], "{:?}", s.errors);
    assert!(s.errors.is_empty(), "{:?}", s.errors);
    let type_column = s.detected.columns.get(&Field::Type).map(String::as_str);
    assert_eq!(type_column, Some(" "));
}

/// A quoted note is read as written, its leading and trailing spaces too (the service's
/// own export quotes such a note); an unquoted one loses the spaces a bank pads it with.
#[test]
fn a_quoted_note_keeps_its_spaces_and_an_unquoted_one_is_trimmed() {
    let text = "Date,Amount,Note,Payee\n\
        2026-03-01,-4.20,\"  oat latte  \",Cafe\n\
        2026-03-02,-5.00,padded   ,Shop\n\
        2026-03-03,-6.00,\"two \"\"quoted\"\" words \t\",\"Shop, Ltd\"\n\
        2026-03-04,-7.00,\"line one  \nline two  \",Shop\n";
    let s = read_text(text);
    assert_eq!(note(&s, 0), Some("  oat latte  "));
    assert_eq!(note(&s, 1), Some("padded"));
    assert_eq!(note(&s, 2), Some("two \"quoted\" words \t"));
    assert_eq!(note(&s, 3), Some("line one  \nline two  "));
    assert_eq!(s.rows[2].payee.as_deref(), Some("Shop, Ltd"));
}
