//! OFX/QFX, QIF and CAMT files, and files refused as a whole.

mod common;

use bankfile::{FileError, Format, Options};
use common::{check, fixture, note, read_expected, read_text, read_with, refuse, samples};

/// A row's import id: the statement's account and the bank's id of the transaction.
#[test]
fn import_ids_join_the_account_and_the_banks_id() {
    for (name, row, import_id) in [
        ("ofx1_bank_cp1252.ofx", 0, "1234567890:2024010501"),
        (
            "ofx1_creditcard.qfx",
            0,
            "4510000011112222:90000010020240203001",
        ),
        // The transfer's BANKACCTTO does not change the statement's account.
        ("ofx2_bank.ofx", 2, "DE89370400440532013000:N-0228-1"),
        // An entry reference or end-to-end id alone need not be unique: with its date.
        (
            "camt053_v08.xml",
            1,
            "CH9300762011623852957:2024-03-12/NR-0002",
        ),
    ] {
        let s = read_expected(name);
        assert_eq!(s.rows[row].import_id.as_deref(), Some(import_id), "{name}");
    }
}

/// Entries numbered per statement (`NtryRef` 1, 2, ...) without the bank's own reference,
/// or known only by a creditor's end-to-end id reused every month, are other entries on
/// another day: each keeps its own import id, the same every time the file is read.
#[test]
fn camt_entry_numbers_and_end_to_end_ids_repeat_across_statements() {
    let statement = |date: &str, refs: &str| {
        samples::camt_statements(&[("DE89370400440532013000", "EUR", date)])
            .replace("<AcctSvcrRef>R1</AcctSvcrRef>", refs)
    };
    let numbered = "<NtryRef>1</NtryRef>";
    let debit = "<NtryDtls><TxDtls><Refs><EndToEndId>MANDATE-7</EndToEndId></Refs>\
                 </TxDtls></NtryDtls>";
    for refs in [numbered, debit] {
        let ids: Vec<String> = ["2024-01-05", "2024-02-05", "2024-01-05"]
            .iter()
            .map(|date| {
                read_text(&statement(date, refs)).rows[0]
                    .import_id
                    .clone()
                    .unwrap()
            })
            .collect();
        assert_ne!(ids[0], ids[1], "{refs}");
        assert_eq!(ids[0], ids[2], "{refs}");
        assert!(
            ids[0].starts_with("DE89370400440532013000:2024-01-05/"),
            "{ids:?}"
        );
    }
}

#[test]
fn ofx1_sgml_bank_statement_in_windows_1252() {
    let s = read_expected("ofx1_bank_cp1252.ofx");
    assert_eq!(s.detected.account.as_deref(), Some("1234567890"));
    assert_eq!(note(&s, 0), Some("POS PURCHASE"));
    assert_eq!(note(&s, 2), Some("Check 1042"));
}

#[test]
fn qfx_credit_card_statement() {
    read_expected("ofx1_creditcard.qfx");
    let inverted = read_with(
        "ofx1_creditcard.qfx",
        &Options {
            invert: Some(true),
            ..Options::default()
        },
    );
    assert_eq!(inverted.rows[0].amount.to_string(), "45.99");
}

#[test]
fn ofx2_xml_and_ofx2_with_unclosed_tags() {
    read_expected("ofx2_bank.ofx");
    let s = read_expected("ofx2_unclosed_tags.ofx");
    assert_eq!(note(&s, 2), Some("Rent share"));
}

/// What SGML exporters really write: empty leaves (`<BANKID>`, `<NAME>`, `<CHECKNUM>` with
/// no text), comments between elements, a transaction whose `</STMTTRN>` is missing.
#[test]
fn ofx1_empty_leaves_comments_and_an_unclosed_transaction() {
    let text = "OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS>\n\
        <CURDEF>EUR\n<BANKACCTFROM>\n<BANKID>\n<BRANCHID>\n<ACCTID>123\n</BANKACCTFROM>\n\
        <BANKTRANLIST>\n<!-- exported by Café Bank -->\n\
        <STMTTRN>\n<DTPOSTED>20240105\n<TRNAMT>-1.00\n<FITID>F1\n<CHECKNUM>\n<NAME>ACME\n</STMTTRN>\n\
        <STMTTRN>\n<DTPOSTED>20240106\n<TRNAMT>-2.00\n<FITID>F2\n<NAME>\n<MEMO>Fee\n\
        <STMTTRN>\n<DTPOSTED>20240107\n<TRNAMT>3.00\n<FITID>F3\n<NAME>Bäckerei\n<!---->é\n</STMTTRN>\n\
        </BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n";
    let s = read_text(text);
    assert_eq!(s.detected.account.as_deref(), Some("123"));
    let dates = ["2024-01-05", "2024-01-06", "2024-01-07"];
    check(&s, 3, "0.00", &["ACME", "", "Bäckerei"], &dates);
    assert_eq!(note(&s, 1), Some("Fee"));
    let ids: Vec<_> = s.rows.iter().map(|r| r.import_id.as_deref()).collect();
    assert_eq!(ids, [Some("123:F1"), Some("123:F2"), Some("123:F3")]);
}

#[test]
fn qif_bank_with_quicken_dates() {
    let s = read_expected("qif_bank.qif");
    let categories: Vec<_> = s.rows.iter().map(|r| r.category.as_deref()).collect();
    assert_eq!(
        categories,
        [
            Some("Groceries"),
            Some("Salary"),
            Some("Rent"),
            Some("Savings")
        ]
    );
    assert_eq!(note(&s, 0), Some("Weekly groceries"));
    assert_eq!(note(&s, 2), Some("No. 1042"));
    assert!(s.rows.iter().all(|r| r.import_id.is_none()));
    assert_eq!(s.detected.date_format.as_deref(), Some("MM/DD/YYYY"));
}

#[test]
fn qif_credit_card_with_account_block() {
    let s = read_expected("qif_ccard.qif");
    assert_eq!(s.detected.account.as_deref(), Some("Visa Platinum"));
    assert_eq!(s.rows[0].category.as_deref(), Some("Entertainment:Books"));
}

#[test]
fn qif_lists_of_tags_payees_and_categories_are_no_transactions() {
    let qif = "!Type:Tag\nNHoliday\nDTrips abroad\n^\n!Type:Cat\nNFood\nDGroceries\nE\n^\n\
               !Type:Bank\nD01/15/2024\nT-12.50\nPTesco\n^\n";
    let s = read_text(qif);
    let amounts: Vec<String> = s.rows.iter().map(|r| r.amount.to_string()).collect();
    assert_eq!((amounts, s.errors.len()), (vec!["-12.50".to_owned()], 0));
}

#[test]
fn qif_with_classic_mac_line_endings() {
    let s = read_text("!Type:Bank\rD01/15/2024\rT-1.00\rPREWE\r^\rD01/16/2024\rT2.50\r^\r");
    check(&s, 2, "1.50", &["REWE", ""], &["2024-01-15", "2024-01-16"]);
}

/// Two accounts' statements in one file, a booking date with its zone (`xs:date` allows
/// one): each entry's id is scoped by its own statement's IBAN.
#[test]
fn camt053_with_two_statements_and_zoned_dates() {
    let text = samples::camt_statements(&[
        ("DE89 3704 0044 0532 0130 00", "EUR", "2024-01-05+01:00"),
        ("DE02120300000000202051", "EUR", "2024-01-06Z"),
    ]);
    let s = read_text(&text);
    check(&s, 2, "-200.00", &[], &["2024-01-05", "2024-01-06"]);
    let ids: Vec<_> = s.rows.iter().map(|r| r.import_id.as_deref()).collect();
    let (first, second) = ("DE89370400440532013000:R1", "DE02120300000000202051:R1");
    assert_eq!(ids, [Some(first), Some(second)]);
    assert_eq!(
        s.detected.account.as_deref(),
        Some("DE89370400440532013000")
    );
}

/// A Swiss bank's download of all accounts: a CHF and a EUR statement in one file. One
/// wallet holds one currency, so the file is refused naming both (the CHF entries were
/// booked as EUR when the last statement's currency stood for the file).
#[test]
fn statements_of_two_currencies_in_one_file_are_refused() {
    let camt = samples::two_currency_camt();
    let both = |e: FileError| match e {
        FileError::MixedCurrencies { currencies } => currencies,
        e => panic!("{e:?}"),
    };
    let err = bankfile::parse(camt.as_bytes(), &Options::default()).expect_err("mixed");
    assert_eq!(both(err), ["CHF", "EUR"]);
    // The same account twice (a statement per month) is one currency: read.
    let twice = camt.replace("CH5604835012345678009", "CH9300762011623852957");
    let twice = twice.replacen("EUR", "CHF", 2);
    assert_eq!(read_text(&twice).rows.len(), 2);
    // `Acct` without `Ccy` (optional): the entries' amounts tell the currencies apart.
    let unnamed = camt
        .replace("<Ccy>CHF</Ccy>", "")
        .replace("<Ccy>EUR</Ccy>", "");
    let err = bankfile::parse(unnamed.as_bytes(), &Options::default()).expect_err("mixed");
    assert_eq!(both(err), ["CHF", "EUR"]);

    // OFX: a EUR and a CAD statement, each with its CURDEF.
    let ofx = String::from_utf8(fixture("ofx2_bank.ofx")).expect("utf-8");
    let start = ofx.find("<STMTTRNRS>").expect("statement");
    let end = ofx.find("</STMTTRNRS>").expect("statement end") + "</STMTTRNRS>".len();
    let second = ofx[start..end].replace("<CURDEF>EUR</CURDEF>", "<CURDEF>CAD</CURDEF>");
    let two = format!("{}{second}{}", &ofx[..end], &ofx[end..]);
    let err = bankfile::parse(two.as_bytes(), &Options::default()).expect_err("mixed");
    assert_eq!(both(err), ["EUR", "CAD"]);
}

#[test]
fn camt053_v02_with_batch_and_pending() {
    let s = read_expected("camt053_v02_batch.xml");
    assert_eq!(s.pending_skipped, 1);
    let ids: Vec<_> = s
        .rows
        .iter()
        .map(|r| r.import_id.as_deref().unwrap_or(""))
        .collect();
    assert_eq!(
        ids,
        [
            "DE89370400440532013000:2024013100001",
            "DE89370400440532013000:2024011500002",
            "DE89370400440532013000:2024012000003/E2E-1",
            "DE89370400440532013000:2024012000003/TX-2",
        ]
    );
    assert_eq!(note(&s, 0), Some("Gehalt Januar 2024"));
    assert_eq!(note(&s, 1), Some("Kundennr. 123456789 Rechnung Januar"));
    // The bank books 2.50 of charges into the batch's entry: its details (120.00 and
    // 180.00) no longer add up to it, so the entry stays one row of -302.50.
    let text = String::from_utf8(fixture("camt053_v02_batch.xml")).expect("utf-8");
    let charged = text.replace(
        "<Amt Ccy=\"EUR\">300.00</Amt>",
        "<Amt Ccy=\"EUR\">302.50</Amt>",
    );
    let s = read_text(&charged);
    let amounts: Vec<String> = s.rows.iter().map(|r| r.amount.to_string()).collect();
    assert!(amounts.contains(&"-302.50".to_owned()), "{amounts:?}");
    assert!(!amounts.contains(&"-120.00".to_owned()), "{amounts:?}");
    assert_eq!(s.rows.len(), 3);
    // The batch's row is no payment to its first payee: neither its name nor its purpose.
    let batch = s
        .rows
        .iter()
        .find(|r| r.amount.to_string() == "-302.50")
        .unwrap();
    assert_eq!(batch.payee, None);
    assert_eq!(batch.note, None);
}

/// An investment account's QIF (`!Type:Invst`) writes unsigned trade totals whose
/// direction only the action (`NBuy`, `NSell`) gives: refused, not read as income.
#[test]
fn a_qif_investment_account_is_refused() {
    let qif = "!Type:Invst\nD1/ 5'24\nNBuy\nYACME Corp\nI12.50\nQ80\nT1,000.00\n^\n";
    assert!(unsupported(qif).contains("Invst"));
}

/// An OFX investment statement (`INVSTMTRS`) holds trades (`BUYSTOCK`, `INCOME`) beside
/// its cash lines (`INVBANKTRAN`): refused naming investment statements, not imported as
/// its cash lines only.
#[test]
fn an_ofx_investment_statement_is_refused() {
    match refuse("ofx2_investment.ofx") {
        FileError::Unsupported { what } => {
            assert!(what.contains("investment statement"), "{what}")
        }
        e => panic!("{e:?}"),
    }
    // SGML alike, the statement's end tag left out.
    let text = String::from_utf8(fixture("ofx2_investment.ofx")).unwrap();
    let sgml = text
        .replace("</INVSTMTRS>", "")
        .replace("</INVSTMTMSGSRSV1>", "");
    assert!(unsupported(&sgml).contains("investment statement"));
}

/// Why a file is refused as unsupported (`415`); a panic when it is read or refused
/// otherwise.
fn unsupported(text: &str) -> String {
    match bankfile::parse(text.as_bytes(), &Options::default()) {
        Err(FileError::Unsupported { what }) => what,
        other => panic!("not refused as unsupported: {:?}", other.err()),
    }
}

/// Quicken's "all accounts" export holds each account's register in turn, a transfer
/// once on each side: refused, not merged into one wallet. The account list Quicken
/// writes first (accounts without transactions) and one account's register are fine.
#[test]
fn a_qif_file_of_several_accounts_is_refused() {
    let list = "!Option:AutoSwitch\n!Account\nNChecking\nTBank\n^\nNSavings\nTBank\n^\n\
                !Clear:AutoSwitch\n";
    let checking = "!Account\nNChecking\nTBank\n^\n!Type:Bank\nD1/ 5'24\nT-300.00\n\
                    L[Savings]\n^\nD1/ 6'24\nT-12.00\nPBakery\n^\n";
    let savings = "!Account\nNSavings\nTBank\n^\n!Type:Bank\nD1/ 5'24\nT300.00\nL[Checking]\n^\n";
    let one = format!("{list}{checking}");
    let s = bankfile::parse(one.as_bytes(), &Options::default()).expect("one account");
    assert_eq!(s.rows.len(), 2);
    assert_eq!(s.detected.account.as_deref(), Some("Checking"));
    let all = format!("{list}{checking}{savings}");
    let why = unsupported(&all);
    assert!(why.contains("Checking and Savings"), "{why}");
}

#[test]
fn camt053_v08_status_codes_and_parties() {
    let s = read_expected("camt053_v08.xml");
    assert_eq!(s.pending_skipped, 1);
    assert_eq!(s.detected.account.as_deref(), Some("CH9300762011623852957"));
    assert_eq!(note(&s, 1), Some("TWINT Geld empfangen"));
    read_expected("camt052_v08_report.xml");
}

#[test]
fn truncated_files_name_where() {
    for (name, at) in [
        ("ofx_truncated.ofx", "<STMTTRN> at line 47"),
        ("camt053_truncated.xml", "<Refs>"),
        ("qif_truncated.qif", "line 15"),
    ] {
        match refuse(name) {
            FileError::Malformed { at: got, .. } => assert!(got.contains(at), "{name}: {got}"),
            e => panic!("{name}: {e:?}"),
        }
    }
}

#[test]
fn binaries_are_unsupported() {
    for name in ["statement.pdf", "export.zip", "logo.png"] {
        assert!(
            matches!(refuse(name), FileError::Unsupported { .. }),
            "{name}"
        );
    }
    assert_eq!(refuse("empty.csv"), FileError::Empty);
}

#[test]
fn a_forced_format_reads_or_refuses_but_never_panics() {
    for format in [Format::Csv, Format::Ofx, Format::Qif, Format::Camt] {
        let options = Options {
            format: Some(format),
            ..Options::default()
        };
        for name in common::fixture_names() {
            let _ = bankfile::parse(&fixture(&name), &options);
        }
    }
    let options = Options {
        format: Some(Format::Ofx),
        ..Options::default()
    };
    assert!(matches!(
        bankfile::parse(b"date,amount\n", &options),
        Err(FileError::Malformed { .. })
    ));
}

#[test]
fn every_fixture_reads_back_the_same_as_an_override_of_what_was_detected() {
    for name in common::fixture_names() {
        let Ok(first) = bankfile::parse(&fixture(&name), &Options::default()) else {
            continue;
        };
        let d = &first.detected;
        let options = Options {
            format: Some(d.format),
            encoding: Some(d.encoding.clone()),
            date_format: d.date_format.clone(),
            decimal: d.decimal,
            delimiter: d.delimiter.map(|c| c as u8),
            ..Options::default()
        };
        let again = bankfile::parse(&fixture(&name), &options).expect(&name);
        assert_eq!(again.rows, first.rows, "{name}");
    }
}

/// A direct debit of 49.90 and its return (`RvslInd` true) in one CAMT.053 statement
/// whose balances open and close at 1000.00. A German bank keeps the original `DBIT` on
/// the return (the DK rules), ISO 20022 writes `CRDT`: either way the return is money
/// in, as the balances show. Without balances the ISO reading stands. Both name the
/// parties of the original debit: the payee is the creditor, never the account holder.
#[test]
fn a_reversal_is_money_back_whichever_convention_the_bank_follows() {
    let camt = |reversal_direction: &str, balances: bool| {
        let balance = |code: &str| {
            format!(
                "<Bal><Tp><CdOrPrtry><Cd>{code}</Cd></CdOrPrtry></Tp>\
                 <Amt Ccy=\"EUR\">1000.00</Amt><CdtDbtInd>CRDT</CdtDbtInd>\
                 <Dt><Dt>2024-03-0{}</Dt></Dt></Bal>",
                if code == "OPBD" { 1 } else { 8 }
            )
        };
        let entry = |reference: &str, direction: &str, reversal: bool| {
            format!(
                "<Ntry><Amt Ccy=\"EUR\">49.90</Amt><CdtDbtInd>{direction}</CdtDbtInd>{}\
                 <Sts>BOOK</Sts><BookgDt><Dt>2024-03-0{}</Dt></BookgDt>\
                 <AcctSvcrRef>{reference}</AcctSvcrRef><NtryDtls><TxDtls><RltdPties>\
                 <Dbtr><Nm>Max Mustermann</Nm></Dbtr>\
                 <DbtrAcct><Id><IBAN>DE89 3704 0044 0532 0130 00</IBAN></Id></DbtrAcct>\
                 <Cdtr><Nm>Fitness GmbH</Nm></Cdtr></RltdPties></TxDtls></NtryDtls></Ntry>",
                if reversal {
                    "<RvslInd>true</RvslInd>"
                } else {
                    ""
                },
                if reversal { 7 } else { 4 }
            )
        };
        let (open, close) = if balances {
            (balance("OPBD"), balance("CLBD"))
        } else {
            Default::default()
        };
        format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\
             <Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.02\"><BkToCstmrStmt>\
             <Stmt><Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct>\
             {open}{close}{}{}</Stmt></BkToCstmrStmt></Document>",
            entry("R1", "DBIT", false),
            entry("R2", reversal_direction, true),
        )
    };
    let amounts = |text: String| -> Vec<String> {
        read_text(&text)
            .rows
            .iter()
            .map(|r| r.amount.to_string())
            .collect()
    };
    assert_eq!(
        amounts(camt("DBIT", true)),
        ["-49.90", "49.90"],
        "German banks"
    );
    assert_eq!(
        amounts(camt("CRDT", true)),
        ["-49.90", "49.90"],
        "ISO 20022"
    );
    assert_eq!(amounts(camt("CRDT", false)), ["-49.90", "49.90"]);
    assert_eq!(
        amounts(camt("DBIT", false)),
        ["-49.90", "-49.90"],
        "nothing tells"
    );
    for (direction, balances) in [("DBIT", true), ("CRDT", true), ("CRDT", false)] {
        let s = read_text(&camt(direction, balances));
        let payees: Vec<Option<&str>> = s.rows.iter().map(|r| r.payee.as_deref()).collect();
        assert_eq!(payees, [Some("Fitness GmbH"); 2], "{direction} {balances}");
    }
}
