//! Shapes that real exports of a second round broke (issue 50), each with a file of the
//! same shape written here: a declared charset the bytes contradict, a `NONREF`
//! placeholder taken for an id, a payee longer than a name, a debit/credit column under an
//! unknown header, a header one cell longer than its rows.

mod common;

use bankfile::{parse, Options, Paired, MAX_PAYEE_CHARS};
use common::{check, read_text};

/// An OFX 1.x header saying `CHARSET:1252` over a UTF-8 body (Banco do Brasil): UTF-8
/// wins when the bytes are valid UTF-8 with multi-byte sequences; real Windows-1252 bytes
/// still read as declared.
#[test]
fn a_declared_single_byte_charset_gives_way_to_valid_utf8() {
    let ofx = |name: &str| {
        format!(
            "OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nENCODING:USASCII\nCHARSET:1252\n\n\
             <OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>BRL<BANKACCTFROM><ACCTID>1234-5\
             </BANKACCTFROM><BANKTRANLIST><STMTTRN><TRNTYPE>CREDIT<DTPOSTED>20151103120000[-3:BRT]\
             <TRNAMT>239.55<FITID>20151103001<MEMO>{name}</STMTTRN></BANKTRANLIST></STMTRS>\
             </STMTTRNRS></BANKMSGSRSV1></OFX>\n"
        )
    };
    let utf8 = parse(ofx("CRÉDITO SALÁRIO").as_bytes(), &Options::default()).unwrap();
    assert_eq!(utf8.detected.encoding, "UTF-8");
    // What the header declared is reported beside what was used.
    assert_eq!(
        utf8.detected.declared_encoding.as_deref(),
        Some("windows-1252")
    );
    assert_eq!(utf8.rows[0].note.as_deref(), Some("CRÉDITO SALÁRIO"));
    let mut cp1252 = ofx("CR\u{0}DITO").into_bytes();
    let at = cp1252.iter().position(|&b| b == 0).unwrap();
    cp1252[at] = 0xC9; // É in Windows-1252, invalid as UTF-8
    let s = parse(&cp1252, &Options::default()).unwrap();
    assert_eq!(s.detected.encoding, "windows-1252");
    assert_eq!(
        s.detected.declared_encoding.as_deref(),
        Some("windows-1252")
    );
    assert_eq!(s.rows[0].note.as_deref(), Some("CRÉDITO"));
    // A file that declares nothing: `None`, whatever was sniffed.
    let csv = parse(b"Datum;Betrag\n31.01.2024;-5,00\n", &Options::default()).unwrap();
    assert_eq!(csv.detected.declared_encoding, None);
}

/// A CAMT.052 entry whose `AcctSvcrRef` is `NONREF` (German savings banks): no id; the
/// detail's proprietary `FI-UMSATZ-ID` reference is, so two such entries of one day, of
/// the same text, are two rows with their own ids.
#[test]
fn a_nonref_placeholder_is_no_id() {
    let entry = |amount: &str, umsatz: &str| {
        format!(
            "<Ntry><Amt Ccy=\"EUR\">{amount}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts>\
             <BookgDt><Dt>2018-07-20</Dt></BookgDt><ValDt><Dt>2018-07-20</Dt></ValDt>\
             <AcctSvcrRef>NONREF</AcctSvcrRef><NtryDtls><TxDtls><Refs>\
             <EndToEndId>NOTPROVIDED</EndToEndId>\
             <Prtry><Tp>FI-UMSATZ-ID</Tp><Ref>{umsatz}</Ref></Prtry></Refs>\
             <RmtInf><Ustrd>Umbuchung</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>"
        )
    };
    let file = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.052.001.02\">\
         <BkToCstmrAcctRpt><Rpt><Acct><Id><IBAN>DE02120300000000202051</IBAN></Id></Acct>{}{}</Rpt>\
         </BkToCstmrAcctRpt></Document>",
        entry("5.25", "2018-07-20-07.51.25.370057"),
        entry("5.25", "2018-07-20-07.51.28.370057")
    );
    let s = read_text(&file);
    check(&s, 2, "10.50", &["", ""], &["2018-07-20", "2018-07-20"]);
    let ids: Vec<_> = s.rows.iter().map(|r| r.import_id.as_deref()).collect();
    assert_eq!(
        ids,
        [
            Some("DE02120300000000202051:2018-07-20-07.51.25.370057"),
            Some("DE02120300000000202051:2018-07-20-07.51.28.370057")
        ]
    );
    // Without any reference but placeholders: no id (the service's content-based one).
    let bare = file
        .replace("<Prtry><Tp>FI-UMSATZ-ID</Tp>", "<X><Tp>FI</Tp>")
        .replace("</Ref></Prtry>", "</Ref></X>");
    let s = read_text(&bare);
    assert!(s.rows.iter().all(|r| r.import_id.is_none()), "{:?}", s.rows);
}

/// A QIF `P` line carrying the whole booking text, over 100 characters: the payee is cut
/// at a word boundary, the whole text goes to the note after the memo.
#[test]
fn a_payee_longer_than_a_name_is_cut_and_kept_in_the_note() {
    let text = "Echtzeitüberweisung ; Max Mustermann ; DE02120300000000202051 ; \
                Miete November Wohnung 3. OG links ; EREF: 2025-11-03-0001 ; MREF: none";
    assert!(text.chars().count() > MAX_PAYEE_CHARS);
    let qif = format!(
        "!Type:Bank\nD03.11.25\nT-850,00\nP{text}\nMMiete\n^\nD04.11.25\nT-1,00\nPKurz\n^\n"
    );
    let s = parse(
        qif.as_bytes(),
        &Options {
            date_format: Some("DD.MM.YY".into()),
            ..Options::default()
        },
    )
    .unwrap();
    assert!(s.errors.is_empty(), "{:?}", s.errors);
    let payee = s.rows[0].payee.as_deref().unwrap();
    assert!(payee.chars().count() <= MAX_PAYEE_CHARS, "{payee}");
    assert!(text.starts_with(payee) && !payee.ends_with(';') && !payee.ends_with(' '));
    assert_eq!(payee, "Echtzeitüberweisung ; Max Mustermann ; DE02120300000000202051 ; Miete November Wohnung 3. OG links");
    assert_eq!(
        s.rows[0].note.as_deref(),
        Some(format!("Miete\n{text}").as_str())
    );
    assert_eq!(s.rows[1].payee.as_deref(), Some("Kurz"));
    assert_eq!(s.rows[1].note, None);
}

/// A Dutch bank's unsigned `Bedrag` beside a `CreditDebet` column of `D`/`C` (Knab): a
/// column of only debit/credit words is the type column whatever its header.
#[test]
fn a_column_of_debit_and_credit_words_is_the_type_column_whatever_its_header() {
    let csv = "KNAB EXPORT;;;;;;\n\
               Rekeningnummer;Transactiedatum;Valutacode;CreditDebet;Bedrag;Tegenrekeninghouder;Omschrijving;\n\
               \"NL99KNAB0000000001\";\"21-06-2019\";\"EUR\";\"D\";\"827,75\";\"Gert Janssen\";\"Huur\";\n\
               \"NL99KNAB0000000001\";\"20-06-2019\";\"EUR\";\"C\";\"1.000,00\";\"Werkgever BV\";\"Salaris\";\n\
               \"NL99KNAB0000000001\";\"19-06-2019\";\"EUR\";\"D\";\"2,50\";\"Bakker\";\"Brood\";\n";
    let dates = ["2019-06-21", "2019-06-20", "2019-06-19"];
    check(&read_text(csv), 3, "169.75", &["", "", ""], &dates);
    for header in ["Af Bij", "Debit/Credit", "Soll/Haben", "DC"] {
        let words = match header {
            "Soll/Haben" => ("S", "H"),
            "Af Bij" => ("Af", "Bij"),
            _ => ("D", "C"),
        };
        let csv = format!(
            "Datum;Bedrag;{header};Naam\n13-02-2024;10,00;{};A\n14-02-2024;5,00;{};B\n",
            words.0, words.1
        );
        check(
            &read_text(&csv),
            2,
            "-5.00",
            &["A", "B"],
            &["2024-02-13", "2024-02-14"],
        );
    }
}

/// A UK bank's header ending in a comma (an empty ninth name) over rows of eight fields
/// (Lloyds): the trailing empty name is no column, and every row reads.
#[test]
fn a_trailing_empty_header_cell_is_no_column() {
    let csv = "Transaction Date,Transaction Type,Sort Code,Account Number,Transaction Description,Debit Amount,Credit Amount,Balance,\n\
               15/01/2024,DEB,'11-22-33,12345678,CORNER SHOP CD 1234,8.99,,2040.59\n\
               12/01/2024,FPI,'11-22-33,12345678,SALARY ACME LTD,,1500.00,2049.58\n\
               28/12/2023,DD,'11-22-33,12345678,COUNCIL TAX,120.00,,549.58\n";
    let dates = ["2024-01-15", "2024-01-12", "2023-12-28"];
    check(&read_text(csv), 3, "1371.01", &["", "", ""], &dates);
}

/// A German finance app's QIF opens its register with an opening balance of 0.00 (payee
/// `Eröffnungssaldo`, a transfer to the account itself): it moves nothing and is no row;
/// an opening balance with an amount stays one (Microsoft Money's `Opening Balance`).
#[test]
fn a_zero_opening_balance_is_no_row() {
    let qif = "!Account\nNGiro Berlin\nTBank\n^\n!Type:Bank \nD10.18.23\nU0.00\nT0.00\nCX\nPEröffnungssaldo\nL[Giro Berlin]\n^\n\
               D10.18.23\nU200.00\nT200.00\nPDonor\nMDonation\n^\n";
    let s = read_text(qif);
    check(&s, 1, "200.00", &["Donor"], &["2023-10-18"]);
    let kept = qif.replace("U0.00\nT0.00", "T5,762.36");
    check(
        &read_text(&kept),
        2,
        "5962.36",
        &["Eröffnungssaldo", "Donor"],
        &["2023-10-18", "2023-10-18"],
    );
}

/// A Dutch bank's headerless CSV (ASN) with the balance before the booking in an earlier
/// column than the signed amount: the amount is the column that the balance chains with
/// (balance + amount = the next row's balance), not the first money column.
#[test]
fn the_amount_is_the_column_a_balance_chains_with() {
    let csv = "17-06-2022,NL00ASNB0000000001,NL99ASNB0000000002,J Jansen,,,,EUR,130.44,EUR,223.77,17-06-2022,17-06-2022,2754,NGM,51392971,,,26\n\
               17-06-2022,NL00ASNB0000000001,NL11ABNA0000000003,Card Services,,,,EUR,354.21,EUR,-200.00,17-06-2022,17-06-2022,9856,IDM,51402299,,'Betaling aan ICS',26\n\
               25-06-2022,NL00ASNB0000000001,,,,,,EUR,154.21,EUR,-2.20,25-06-2022,25-06-2022,7241,MSC,50951652,,'Kosten betaalrekening',26\n\
               27-06-2022,NL00ASNB0000000001,NL25INGB0000000004,Optimal BV,,,,EUR,152.01,EUR,503.15,27-06-2022,27-06-2022,8809,OVS,00000000,,'DIVIDEND',28\n";
    let s = read_text(csv);
    let amounts: Vec<String> = s.rows.iter().map(|r| r.amount.to_string()).collect();
    assert_eq!(amounts, ["223.77", "-200.00", "-2.20", "503.15"]);
}

/// A PayPal activity CSV's authorisation hold (pending, `Ausstehend`) and its release (a
/// completed credit of the same amount whose related code names the hold): both left
/// out, counted as pending, so the rows add up to the change of the balance column.
#[test]
fn a_holds_release_is_left_out_with_its_hold() {
    let csv = "\u{FEFF}\"Datum\",\"Name\",\"Typ\",\"Status\",\"Währung\",\"Brutto\",\"Gebühr\",\"Netto\",\"Transaktionscode\",\"Zugehöriger Transaktionscode\",\"Guthaben\"\n\
               \"14.07.2025\",\"PayPal\",\"Einbehaltung für offene Autorisierung\",\"Ausstehend\",\"EUR\",\"-13,21\",\"0,00\",\"-13,21\",\"80F0HOLD1\",\"8BN0AUTH1\",\"89,20\"\n\
               \"14.07.2025\",\"Online-Shop GmbH\",\"PayPal Express-Zahlung\",\"Abgeschlossen\",\"EUR\",\"-13,21\",\"0,00\",\"-13,21\",\"7KE0PAY1\",\"8BN0AUTH1\",\"75,99\"\n\
               \"14.07.2025\",\"PayPal\",\"Rückbuchung allgemeiner Einbehaltung\",\"Abgeschlossen\",\"EUR\",\"13,21\",\"0,00\",\"13,21\",\"89J0REL1\",\"80F0HOLD1\",\"89,20\"\n\
               \"19.07.2025\",\"Technik-Shop\",\"PayPal Express-Zahlung\",\"Abgeschlossen\",\"EUR\",\"-34,49\",\"0,00\",\"-34,49\",\"6HR0PAY2\",\"\",\"54,71\"\n";
    let s = read_text(csv);
    // 89.20 + 13.21 before the hold, 54.71 at the end: -47.70.
    check(
        &s,
        2,
        "-47.70",
        &["Online-Shop GmbH", "Technik-Shop"],
        &["2025-07-14", "2025-07-19"],
    );
    assert_eq!(s.pending_skipped, 2);
    // The pair is reported: the hold's row, the release's, its amount and the code.
    assert_eq!(
        s.paired,
        [Paired {
            hold: 1,
            release: 3,
            amount: "13.21".parse().unwrap(),
            reference: "80F0HOLD1".into(),
        }]
    );
    // A credit that names no hold stays, and nothing is paired.
    let unpaired = csv.replace("\"80F0HOLD1\",\"89,20\"\n", "\"OTHER\",\"89,20\"\n");
    let s = read_text(&unpaired);
    assert_eq!(s.rows.len(), 3);
    assert!(s.paired.is_empty());
}

/// QIF split lines (Quicken's `S`/`E`/`$`, `%` where only a share is written) are the
/// row's parts, categories read like `L`; parts that miss the total are the row's error.
#[test]
fn qif_split_lines_are_the_rows_parts() {
    let s = common::read_expected("qif_splits.qif");
    let parts = |i: usize| -> Vec<(String, Option<String>, Option<String>)> {
        s.rows[i]
            .splits
            .iter()
            .map(|p| (p.amount.to_string(), p.category.clone(), p.note.clone()))
            .collect()
    };
    let own = |a: &str, c: &str, n: Option<&str>| {
        (a.to_owned(), Some(c.to_owned()), n.map(str::to_owned))
    };
    assert_eq!(
        parts(0),
        [
            own("-80.00", "Groceries", Some("Food")),
            own("-25.50", "Household", Some("Cleaning")),
            own("-14.50", "Gifts:Birthday", None),
        ]
    );
    assert_eq!(
        parts(1),
        [
            own("2500.00", "Salary", None),
            own("250.00", "Salary:Bonus", Some("Q1 bonus"))
        ]
    );
    assert_eq!(
        parts(2),
        [
            own("-30.00", "Utilities:Water", None),
            own("-30.00", "Utilities:Electric", None)
        ]
    );
    assert!(s.rows[3].splits.is_empty());
    assert_eq!(s.rows[0].category.as_deref(), Some("Groceries"));

    // A part of 0.00 is left out, and a split of one part left is plain.
    let zero = read_text("!Type:Bank\nD10.18.23\nT200.00\nPDonor\nLDonation/Spende\nSDonation/Spende\n$200.00\nSDonation/Africa\nE50% for Africa\n$0.00\n^\n");
    assert!(zero.rows[0].splits.is_empty());
    assert_eq!(zero.rows[0].category.as_deref(), Some("Donation"));

    let qif = "!Type:Bank\nD01/15/2024\nT-10.00\nPShop\nSFood\n$-6.00\nSHome\n$-3.00\n^\n\
               D01/16/2024\nT-5.00\nPKiosk\n^\n";
    let s = bankfile::parse(qif.as_bytes(), &bankfile::Options::default()).unwrap();
    assert_eq!(s.rows.len(), 1);
    assert_eq!(s.errors.len(), 1, "{:?}", s.errors);
    assert_eq!((s.errors[0].row, s.errors[0].field.as_str()), (1, "splits"));
    assert!(
        s.errors[0].message.contains("-9.00"),
        "{}",
        s.errors[0].message
    );
}
