//! Headers of exports the aliases once missed, each written as the bank or app writes
//! it (a few lines of each): the amount, payee and note must come out with no override.

use bankfile::Options;

/// Each row as `date amount payee=… note=…`, pending rows counted apart.
fn read(text: &str) -> (Vec<String>, usize) {
    let s = bankfile::parse(text.as_bytes(), &Options::default());
    let s = s.unwrap_or_else(|e| panic!("{text}: {e:?}"));
    assert!(s.errors.is_empty(), "{text}: {:?}", s.errors);
    let rows = s
        .rows
        .iter()
        .map(|r| {
            let payee = r.payee.as_deref().unwrap_or("-");
            let note = r.note.as_deref().unwrap_or("-");
            format!("{} {} payee={payee} note={note}", r.date, r.amount)
        })
        .collect();
    (rows, s.pending_skipped)
}

#[test]
fn rbc_amount_columns_named_by_currency() {
    // RBC Royal Bank: `CAD$` holds the amount of a Canadian-dollar account, `USD$` of a
    // US-dollar one; the other stays empty. Both descriptions are the note.
    let cad = "\"Account Type\",\"Account Number\",\"Transaction Date\",\"Cheque Number\",\"Description 1\",\"Description 2\",\"CAD$\",\"USD$\"\n\
               Chequing,06011-1234567,1/31/2024,,\"TIM HORTONS #1234\",\"IDP PURCHASE\",-4.50,,\n\
               Chequing,06011-1234567,1/25/2024,,\"PAYROLL DEPOSIT\",\"ACME CANADA INC\",2500.00,,\n";
    assert_eq!(
        read(cad).0,
        [
            "2024-01-31 -4.50 payee=- note=TIM HORTONS #1234 | IDP PURCHASE",
            "2024-01-25 2500.00 payee=- note=PAYROLL DEPOSIT | ACME CANADA INC",
        ]
    );
    let usd = "\"Account Type\",\"Account Number\",\"Transaction Date\",\"Cheque Number\",\"Description 1\",\"Description 2\",\"CAD$\",\"USD$\"\n\
               Savings,06011-7654321,2/13/2024,,\"AMAZON.COM\",\"\",,-19.99\n";
    let s = bankfile::parse(usd.as_bytes(), &Options::default()).unwrap();
    assert_eq!(s.rows[0].amount.to_string(), "-19.99");
    // Neither header names the statement's currency: the account's wallet decides.
    assert_eq!(s.detected.currency, None);
}

#[test]
fn ubs_numbered_descriptions_and_transaction_number() {
    let ubs = "Kontonummer:;0235 00123456.40;\n\
               IBAN:;CH93 0076 2011 6238 5295 7;\n\
               Von:;2024-01-01;\n\
               Bis:;2024-01-31;\n\
               Bewertet in:;CHF;\n\
               \n\
               Abschlussdatum;Abschlusszeit;Buchungsdatum;Valutadatum;Währung;Belastung;Gutschrift;Einzelbetrag;Saldo;Transaktions-Nr.;Beschreibung1;Beschreibung2;Beschreibung3;Fussnoten;\n\
               2024-01-31;;2024-01-31;2024-01-31;CHF;;2500.00;;3734.56;9930131TI1234567;\"ACME AG\";\"Lohn Januar\";\"\";;\n\
               2024-01-22;12:40:00;2024-01-22;2024-01-22;CHF;-23.45;;;1234.56;9930122TI1234567;\"Migros Zuerich\";\"Karte 1234\";\"\";;\n";
    assert_eq!(
        read(ubs).0,
        [
            "2024-01-31 2500.00 payee=- note=ACME AG | Lohn Januar",
            "2024-01-22 -23.45 payee=- note=Migros Zuerich | Karte 1234",
        ]
    );
    let s = bankfile::parse(ubs.as_bytes(), &Options::default()).unwrap();
    let id = s.rows[0].import_id.as_deref().unwrap();
    assert!(id.ends_with(":9930131TI1234567"), "{id}");
}

#[test]
fn nordea_finland_and_sweden_name_and_title() {
    let fi = "Kirjauspäivä;Määrä;Maksaja;Maksunsaaja;Nimi;Otsikko;Viitenumero;Valuutta\n\
              31.01.2024;-1.234,56;FI12 3456 7890 1234 56;;;Vuokra tammikuu;;EUR\n\
              25.01.2024;3.500,00;;FI12 3456 7890 1234 56;ACME OY;Palkka;;EUR\n";
    assert_eq!(
        read(fi).0,
        [
            "2024-01-31 -1234.56 payee=- note=Vuokra tammikuu",
            "2024-01-25 3500.00 payee=ACME OY note=Palkka",
        ]
    );
    let se = "Bokföringsdag;Belopp;Avsändare;Mottagare;Namn;Rubrik;Saldo;Valuta\n\
              2024/01/31;-1.234,56;1234 56 78901;;;Hyra januari;8.765,44;SEK\n\
              2024/01/25;25.000,00;;1234 56 78901;ACME AB;Lön;10.000,00;SEK\n";
    assert_eq!(
        read(se).0,
        [
            "2024-01-31 -1234.56 payee=- note=Hyra januari",
            "2024-01-25 25000.00 payee=ACME AB note=Lön",
        ]
    );
}

#[test]
fn kiwibank_nationwide_card_and_societe_generale_texts() {
    let kiwibank = "Account number,Date,Memo/Description,Source Code (payment type),TP ref,TP part,TP code,OP ref,OP part,OP code,OP name,OP Bank Account Number,Amount (credit),Amount (debit),Amount,Balance\n\
                    38-9000-0123456-00,31-01-2024,COUNTDOWN AUCKLAND ;,POS,,,,,,,,,,12.40,-12.40,1187.60\n\
                    38-9000-0123456-00,25-01-2024,ACME LTD SALARY ;,CR,SALARY,,,,,,ACME LTD,12-3456-0123456-00,2500.00,,2500.00,1200.00\n";
    assert_eq!(
        read(kiwibank).0,
        [
            "2024-01-31 -12.40 payee=- note=COUNTDOWN AUCKLAND ;",
            "2024-01-25 2500.00 payee=ACME LTD note=ACME LTD SALARY ;",
        ]
    );
    let nationwide = "\"Account Name:\",\"Nationwide Credit Card ****1234\"\n\
                      \"Account Balance:\",\"£-312.40\"\n\
                      \n\
                      \"Date\",\"Transactions\",\"Location\",\"Paid out\",\"Paid in\"\n\
                      \"05 Jan 2024\",\"TESCO STORES 6130\",\"LONDON\",\"£12.40\",\"\"\n\
                      \"08 Jan 2024\",\"PAYMENT RECEIVED - THANK YOU\",\"\",\"\",\"£500.00\"\n";
    assert_eq!(
        read(nationwide).0,
        [
            "2024-01-05 -12.40 payee=- note=TESCO STORES 6130",
            "2024-01-08 500.00 payee=- note=PAYMENT RECEIVED - THANK YOU",
        ]
    );
    // The label is cut short; the detail says who paid.
    let socgen = "Date de l'opération;Libellé;Détail de l'écriture;Montant de l'opération;Devise\n\
                  31/01/2024;VIR RECU 1234567890;VIR RECU 1234567890 DE: ACME SAS MOTIF: SALAIRE;2 500,00;EUR\n";
    assert_eq!(
        read(socgen).0,
        ["2024-01-31 2500.00 payee=- note=VIR RECU 1234567890 | VIR RECU 1234567890 DE: ACME SAS MOTIF: SALAIRE"]
    );
}

#[test]
fn intesa_pending_and_boursorama_camel_case() {
    let intesa = "Data;Operazione;Dettagli;Conto o carta;Contabilizzazione;Categoria;Valuta;Importo\n\
                  05/02/2024;Pagamento Esselunga;Pagamento tramite carta 1234 Esselunga Milano;Conto XXXX1234;Non contabilizzato;Alimentari;EUR;-23,45\n\
                  31/01/2024;Stipendio;Bonifico da ACME SPA stipendio gennaio;Conto XXXX1234;Contabilizzato;Stipendio;EUR;2.500,00\n";
    assert_eq!(
        read(intesa),
        (
            vec!["2024-01-31 2500.00 payee=- note=Stipendio | Bonifico da ACME SPA stipendio gennaio".to_owned()],
            1
        )
    );
    let boursorama = "dateOp;dateVal;label;category;categoryParent;supplierFound;amount;comment;accountNum;accountLabel;accountbalance\n\
                      2024-01-22;2024-01-23;\"CARTE 20/01/24 CARREFOUR CITY CB*1234\";\"Alimentation\";\"Vie quotidienne\";\"carrefour\";-23,45;;00012345678;\"BoursoBank\";1 234,56\n\
                      2024-01-15;2024-01-15;\"PRLV SEPA EDF\";\"Electricité\";\"Logement\";\"edf\";-85,50;\"facture janvier\";00012345678;\"BoursoBank\";1 234,56\n";
    assert_eq!(
        read(boursorama).0,
        [
            "2024-01-22 -23.45 payee=- note=CARTE 20/01/24 CARREFOUR CITY CB*1234",
            "2024-01-15 -85.50 payee=- note=PRLV SEPA EDF | facture janvier",
        ]
    );
}

#[test]
fn venmo_statement_with_its_balance_lines() {
    // Venmo: two title lines, an empty first header, a beginning-balance line with no
    // amount, signed totals with a currency sign, then a closing summary line.
    let venmo = "Account Statement - (@Jane-Doe) ,,,,,,,,,,,,,,,,,,,,,\n\
                 Account Activity,,,,,,,,,,,,,,,,,,,,,\n\
                 ,ID,Datetime,Type,Status,Note,From,To,Amount (total),Amount (tip),Amount (tax),Amount (fee),Tax Rate,Tax Exempt,Funding Source,Destination,Beginning Balance,Ending Balance,Statement Period Venmo Fees,Terminal Location,Year to Date Venmo Fees,Disclaimer\n\
                 ,,,,,,,,,,,,,,,,$0.00,,,,,\n\
                 ,3912345678901234567,2024-01-05T19:22:10,Payment,Complete,Pizza 🍕,Jane Doe,John Smith,- $12.50,,0,,0,,Venmo balance,,,,,Venmo,,\n\
                 ,3912345678901234568,2024-01-07T08:01:44,Payment,Complete,Rent share,Ann Lee,Jane Doe,+ $500.00,,0,,0,,,Venmo balance,,,,Venmo,,\n\
                 ,,,,,,,,,,,,,,,,,$487.50,$0.00,,$0.00,\n";
    assert_eq!(
        read(venmo).0,
        [
            "2024-01-05 -12.50 payee=- note=Pizza 🍕",
            "2024-01-07 500.00 payee=- note=Rent share",
        ]
    );
}

#[test]
fn abn_amro_tab_file_amount_between_its_balances() {
    // ABN AMRO's TXT download: no header; account, currency, date, start balance, end
    // balance, value date, amount, description. The amount is the column that takes the
    // start balance to the end balance, not the first column of money.
    let abn = "123456789\tEUR\t20240131\t1234,56\t1222,16\t20240131\t-12,40\tBEA, Betaalpas                   ALBERT HEIJN 1403,PAS123\n\
               123456789\tEUR\t20240125\t-1265,44\t1234,56\t20240125\t2500,00\t/TRTP/SEPA OVERBOEKING/NAME/ACME B.V./REMI/Salaris januari\n\
               123456789\tEUR\t20240102\t-215,44\t-1265,44\t20240102\t-1050,00\t/TRTP/SEPA Incasso algemeen doorlopend/NAME/Woonstichting De Key\n";
    let s = bankfile::parse(abn.as_bytes(), &Options::default()).unwrap();
    let amounts: Vec<String> = s.rows.iter().map(|r| r.amount.to_string()).collect();
    assert_eq!(amounts, ["-12.40", "2500.00", "-1050.00"]);
    assert_eq!(s.detected.currency.as_deref(), Some("EUR"));
    let note = s.rows[0].note.as_deref().unwrap();
    assert!(
        note.starts_with("BEA, Betaalpas") && !note.contains("EUR"),
        "{note}"
    );
    // One row has no chain of balances: the later of the two columns that add up.
    let one = abn.lines().next().unwrap();
    let s = bankfile::parse(one.as_bytes(), &Options::default()).unwrap();
    assert_eq!(s.rows[0].amount.to_string(), "-12.40");
}

#[test]
fn card_exports_told_by_their_headers() {
    // American Express in German prints a purchase as positive, a payment as negative.
    let amex_de = "Datum,Beschreibung,Karteninhaber,Konto #,Betrag\n\
                   31/01/2024,REWE MARKT BERLIN,MAX MUSTERMANN,-12345,\"23,45\"\n\
                   25/01/2024,ZAHLUNG ERHALTEN. BESTEN DANK.,MAX MUSTERMANN,-12345,\"-500,00\"\n";
    let s = bankfile::parse(amex_de.as_bytes(), &Options::default()).unwrap();
    let amounts: Vec<String> = s.rows.iter().map(|r| r.amount.to_string()).collect();
    assert_eq!(
        (amounts, s.detected.invert),
        (vec!["-23.45".into(), "500.00".into()], true)
    );
    // Chase's card export in a month with only a payment and a return: no sign written,
    // and the type column's `Payment` is no money out.
    let chase = "Transaction Date,Post Date,Description,Category,Type,Amount,Memo\n\
                 01/25/2024,01/25/2024,Payment Thank You-Mobile,,Payment,1500.00,\n\
                 01/15/2024,01/16/2024,AMAZON MKTPL*AB12CD34E,Shopping,Return,45.99,\n";
    let s = bankfile::parse(chase.as_bytes(), &Options::default()).unwrap();
    let amounts: Vec<String> = s.rows.iter().map(|r| r.amount.to_string()).collect();
    assert_eq!(amounts, ["1500.00", "45.99"]);
    // A checking account's `Type` still signs unsigned amounts.
    let checking = "Date,Description,Type,Amount\n2024-01-25,Rent,Payment,950.00\n";
    let s = bankfile::parse(checking.as_bytes(), &Options::default()).unwrap();
    assert_eq!(s.rows[0].amount.to_string(), "-950.00");
}

#[test]
fn a_payer_column_names_no_payee_of_money_out() {
    // Revolut Business: `Payer` is the team member who spent; the merchant is the
    // description. Money in keeps its payer.
    let revolut = "Date started (UTC),Date completed (UTC),ID,Type,State,Description,Reference,Payer,Amount,Fee,Balance\n\
                   2024-01-03,2024-01-03,65a5b1c2-e555,CARD_PAYMENT,COMPLETED,Amazon Web Services,,Jane Doe,-49.80,0.00,10450.20\n\
                   2024-01-15,2024-01-15,65a5b1c2-e557,TRANSFER,COMPLETED,Payment from ACME SAS,Invoice 42,ACME SAS,3000.00,0.00,13450.20\n";
    assert_eq!(
        read(revolut).0,
        [
            "2024-01-03 -49.80 payee=- note=Amazon Web Services",
            "2024-01-15 3000.00 payee=ACME SAS note=Payment from ACME SAS | Invoice 42",
        ]
    );
}

#[test]
fn the_wanted_currency_of_a_currency_column_is_the_statements() {
    let paypal = "Date,Name,Type,Status,Currency,Gross,Fee,Net\n\
                  22/01/2024,Etsy,Express Checkout Payment,Completed,USD,-25.00,0.00,-25.00\n\
                  22/01/2024,,General Currency Conversion,Completed,USD,25.00,0.00,25.00\n\
                  22/01/2024,,General Currency Conversion,Completed,GBP,-20.11,0.00,-20.11\n\
                  14/01/2024,Jane Smith,General Payment,Completed,GBP,100.00,-3.20,96.80\n";
    let read = |currency: Option<&str>| {
        let options = Options {
            currency: currency.map(str::to_owned),
            ..Options::default()
        };
        let s = bankfile::parse(paypal.as_bytes(), &options).unwrap();
        let amounts: Vec<String> = s.rows.iter().map(|r| r.amount.to_string()).collect();
        (s.detected.currency, amounts, s.errors.len())
    };
    let gbp = (Some("GBP".into()), vec!["-20.11".into(), "96.80".into()], 2);
    assert_eq!(read(Some("GBP")), gbp);
    assert_eq!(read(Some("gbp")), gbp);
    // Not wanted, or not in the file: the most common.
    let usd = (Some("USD".into()), vec!["-25.00".into(), "25.00".into()], 2);
    assert_eq!(read(None), usd);
    assert_eq!(read(Some("EUR")), usd);
}

#[test]
fn anz_new_zealand_details_is_the_other_party() {
    let anz = "Type,Details,Particulars,Code,Reference,Amount,Date,ForeignCurrencyAmount,ConversionCharge\n\
               Eft-Pos,COUNTDOWN AUCKLAND,4835****1234,,,-12.40,31/01/2024,,\n\
               Direct Credit,ACME LTD,SALARY,,JAN,2500.00,25/01/2024,,\n";
    assert_eq!(
        read(anz).0,
        [
            "2024-01-31 -12.40 payee=COUNTDOWN AUCKLAND note=4835****1234",
            "2024-01-25 2500.00 payee=ACME LTD note=SALARY | JAN",
        ]
    );
    // Chase's checking export: `Details` is DEBIT or CREDIT, no payee.
    let chase = "Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #\n\
                 DEBIT,01/31/2024,TRADER JOE S #123,-64.12,DEBIT_CARD,1170.44,\n";
    assert_eq!(
        read(chase).0,
        ["2024-01-31 -64.12 payee=- note=TRADER JOE S #123"]
    );
}
