//! Bank files through real HTTP: every fixture of `crates/bankfile/tests/fixtures` (CSV
//! dialects in German, French, Spanish and English; Latin-1, Windows-1252 and UTF-16;
//! OFX 1.x, 2.x and QFX; QIF; CAMT.053 with a batch entry) imported into a fresh wallet
//! of the statement's currency: what was created, the balance change, the payees and the
//! dates; a repetition creates nothing; broken files store nothing.

mod qif_splits;
mod refusals;
mod reports;

use std::collections::BTreeSet;

use serde_json::{json, Value};

use crate::helpers::{assert_problem, error_fields, pluck, spawn_app, TestApp, TestUser};

fn fixture(name: &str) -> Vec<u8> {
    let path = format!(
        "{}/../crates/bankfile/tests/fixtures/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// What each fixture reads as: the bank file crate's table (`tests/expected.csv`).
#[path = "../../crates/bankfile/tests/common/expected.rs"]
#[allow(dead_code)] // what the crate's own tests check more of
mod expected;

impl TestApp {
    /// The report of an upload, whatever its status.
    async fn upload_report(
        &self,
        user: &TestUser,
        query: &str,
        content_type: &str,
        file: Vec<u8>,
    ) -> Value {
        let r = self.upload(user, query, content_type, file).await;
        r.json().await.unwrap()
    }

    /// The report of a dry run, whatever its status.
    async fn dry_run_report(&self, user: &TestUser, content_type: &str, file: Vec<u8>) -> Value {
        self.upload_report(user, "?dryRun=true", content_type, file)
            .await
    }

    /// A user whose wallet is in `currency`.
    async fn user_in(&self, currency: &str) -> TestUser {
        let user = self.new_user().await;
        let wallet = json!({"name": "Main", "initialBalance": 0, "currency": currency});
        assert_eq!(self.put(&user, "/api/wallet", &wallet).await.status(), 200);
        user
    }

    /// Every transaction of the user (the API's list, newest first).
    async fn all_transactions(&self, user: &TestUser) -> Vec<Value> {
        self.get_json(user, "/api/transactions?limit=200").await
    }
}

/// A `multipart/form-data` body holding one file part and a text part, as a browser sends.
fn multipart(part_name: &str, file: &[u8]) -> (String, Vec<u8>) {
    let boundary = "----formdata-bankfile-7d93";
    let mut body = Vec::new();
    body.extend_from_slice(
        format!("--{boundary}\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello\r\n")
            .as_bytes(),
    );
    body.extend_from_slice(
        format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"{part_name}\"; \
             filename=\"statement.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n"
        )
        .as_bytes(),
    );
    body.extend_from_slice(file);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

#[tokio::test]
async fn every_bank_fixture_imports_its_rows_once_with_their_sum_payees_and_dates() {
    let app = spawn_app().await;
    for c in expected::all() {
        let (file, count) = (c.file(), c.count() as u64);
        let user = app.user_in(c.currency().unwrap_or("EUR")).await;
        // Half of them as a browser's multipart upload, the rest as the raw body.
        let r = if count % 2 == 0 {
            let (content_type, body) = multipart("file", &fixture(file));
            app.upload(&user, "", &content_type, body).await
        } else {
            app.upload(&user, "", "application/octet-stream", fixture(file))
                .await
        };
        assert_eq!(r.status(), 201, "{file}");
        let report: Value = r.json().await.unwrap();
        assert_eq!(report["errors"], json!([]), "{file}: {report}");
        assert_eq!(report["created"], count, "{file}: {report}");
        assert_eq!(app.balance(&user).await, c.sum(), "{file}");
        let txns = app.all_transactions(&user).await;
        let dates: BTreeSet<&str> = pluck(&txns, "date", Value::as_str);
        let expected: BTreeSet<&str> = c.dates().into_iter().collect();
        assert_eq!(dates, expected, "{file}");
        let providers: Vec<Value> = app.get_json(&user, "/api/providers").await;
        let names: BTreeSet<&str> = pluck(&providers, "providerName", Value::as_str);
        let expected: BTreeSet<&str> = c.payees().into_iter().collect();
        assert_eq!(names, expected, "{file}");

        let again = app
            .upload_report(&user, "", "text/plain", fixture(file))
            .await;
        assert_eq!(
            (&again["created"], &again["duplicates"]),
            (&json!(0), &json!(count)),
            "{file}: {again}"
        );
        assert_eq!(app.all_transactions(&user).await.len() as u64, count);
    }
}

#[tokio::test]
async fn a_dry_run_shows_what_was_detected_and_counts_pending_and_uncategorized_rows() {
    let app = spawn_app().await;
    let user = app.new_user().await;
    let r = app
        .dry_run(&user, "text/csv", fixture("de_ing_diba_latin1.csv"))
        .await;
    assert_eq!(r.status(), 200);
    let report: Value = r.json().await.unwrap();
    assert_eq!(
        report["detected"],
        json!({
            "format": "csv", "encoding": "windows-1252",
            "charset": {"declared": null, "used": "windows-1252"}, "delimiter": ";",
            "dateFormat": "DD.MM.YYYY", "decimal": ",",
            "columns": report["detected"]["columns"].clone(),
            "account": "DE89370400440532013000", "currency": "EUR", "invert": false,
        })
    );
    assert_eq!(report["detected"]["columns"]["date"], "Buchung");
    assert_eq!(report["detected"]["columns"]["amount"], "Betrag");
    assert_eq!(
        (&report["valid"], &report["uncategorized"]),
        (&json!(4), &json!(4))
    );
    assert_eq!(report["preview"][0]["uncategorized"], true);
    assert!(
        app.all_transactions(&user).await.is_empty(),
        "a dry run writes nothing"
    );

    // CAMT: the batch entry is two transactions, the pending entry is skipped and counted.
    let report = app
        .upload_report(
            &user,
            "",
            "application/xml",
            fixture("camt053_v02_batch.xml"),
        )
        .await;
    assert_eq!(
        (
            &report["created"],
            &report["skippedPending"],
            &report["uncategorized"]
        ),
        (&json!(4), &json!(1), &json!(4)),
        "{report}"
    );
    let txns = app.all_transactions(&user).await;
    let categories: BTreeSet<u64> = pluck(&txns, "categoryId", Value::as_u64);
    assert_eq!(
        categories,
        BTreeSet::from([13, 14]),
        "the seeded Uncategorized of each type"
    );
    assert!(
        txns.iter().all(|t| t["categorySource"] == "default"),
        "{txns:?}"
    );

    // A CSV status column: Revolut's pending, declined and reverted rows are skipped and
    // counted; its fee is part of the amount (an exchange of 100.00 with 0.50 fee).
    let revolut = app.user_in("GBP").await;
    let report = app
        .dry_run_report(&revolut, "text/csv", fixture("revolut_gbp_states_fees.csv"))
        .await;
    assert_eq!(
        (&report["rows"], &report["skippedPending"]),
        (&json!(3), &json!(3)),
        "{report}"
    );
    assert_eq!(report["detected"]["columns"]["status"], "State");
    assert_eq!(
        report["preview"][2]["amount"].to_string(),
        "100.50",
        "{report}"
    );

    // An American Express export prints charges as positive: negated, and said so.
    let amex = "Date,Description,Card Member,Account #,Amount\n\
                01/28/2024,WHOLEFDS MKT,JANE DOE,-12345,87.43\n\
                01/25/2024,AUTOPAY PAYMENT - THANK YOU,JANE DOE,-12345,-1500.00\n";
    let report = app.dry_run_report(&revolut, "text/csv", amex.into()).await;
    assert_eq!(report["detected"]["invert"], true, "{report}");
    let types: Vec<&Value> = (0..2)
        .map(|i| &report["preview"][i]["categoryType"])
        .collect();
    assert_eq!(types, [&json!("DEBIT"), &json!("CREDIT")], "{report}");
    let report = app
        .upload_report(
            &revolut,
            "?dryRun=true&invert=false",
            "text/csv",
            amex.into(),
        )
        .await;
    assert_eq!(report["preview"][0]["categoryType"], "CREDIT", "{report}");
}

/// A file without a header: a dry run reports its columns by number and the months in
/// words it read; `col.<field>=#N` (sent as `%23N`) names a column back, a header name
/// is refused by its parameter.
#[tokio::test]
async fn a_file_without_a_header_is_read_by_its_columns_content_and_numbers() {
    let app = spawn_app().await;
    let user = app.new_user().await;
    let file = "05 Jan 24,-45.50,,,EFTPOS PURCHASE,WOOLWORTHS 1234 SYDNEY,1234.56,\n\
                17 Jan 24,900.00,,,TRANSFER CREDIT,ANN LEE,2134.56,\n";
    let report = app.dry_run_report(&user, "text/csv", file.into()).await;
    assert_eq!(report["detected"]["dateFormat"], "DD MMM YY", "{report}");
    assert_eq!(
        report["detected"]["columns"],
        json!({"date": "#1", "amount": "#2", "note": "#5"})
    );
    assert_eq!(
        report["preview"][0]["note"],
        "EFTPOS PURCHASE | WOOLWORTHS 1234 SYDNEY"
    );
    assert_eq!(report["preview"][0]["date"], "2024-01-05");

    let query = "?col.amount=%232&col.payee=%236&col.note=%235&dateFormat=DD%20MMM%20YY";
    let report = app
        .upload_report(&user, query, "text/csv", file.into())
        .await;
    assert_eq!(report["created"], 2, "{report}");
    let txns = app.all_transactions(&user).await;
    let notes: BTreeSet<&str> = txns.iter().filter_map(|t| t["note"].as_str()).collect();
    assert_eq!(
        notes,
        BTreeSet::from(["EFTPOS PURCHASE", "TRANSFER CREDIT"])
    );
    assert!(txns.iter().all(|t| t["providerId"].is_u64()), "{txns:?}");

    let r = app
        .upload(&user, "?col.amount=Amount", "text/csv", file)
        .await;
    assert_eq!(r.status(), 400);
    let problem: Value = r.json().await.unwrap();
    assert_eq!(problem["errors"][0]["field"], "col.amount", "{problem}");
}

#[tokio::test]
async fn categories_named_in_a_file_are_the_callers_own_or_created_and_the_default_fits_its_type() {
    let app = spawn_app().await;
    let (ann, bob) = (app.new_user().await, app.new_user().await);
    let bobs = app.create_category(&bob, "Paycheck", "CREDIT").await;
    let gifts = app.create_category(&ann, "Gifts", "CREDIT").await;
    // Mint's categories: Groceries and Rent (global DEBIT ones), Paycheck and Television
    // (created as ann's own, never bob's).
    let report = app
        .upload_report(&ann, "", "text/csv", fixture("budget_app_mint_cr.csv"))
        .await;
    assert_eq!(
        (&report["created"], &report["uncategorized"]),
        (&json!(4), &json!(0))
    );
    let own: Vec<Value> = app.get_json(&ann, "/api/categories").await;
    let mut names: Vec<(String, bool)> = own
        .iter()
        .map(|c| {
            (
                c["categoryName"].as_str().unwrap().to_owned(),
                c["isGlobal"].as_bool().unwrap(),
            )
        })
        .filter(|(_, global)| !global)
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            ("Gifts".into(), false),
            ("Paycheck".into(), false),
            ("Television".into(), false)
        ]
    );
    let txns = app.all_transactions(&ann).await;
    let used: BTreeSet<u64> = pluck(&txns, "categoryId", Value::as_u64);
    assert!(
        used.contains(&4) && used.contains(&5) && !used.contains(&bobs),
        "{used:?}"
    );
    let sources: BTreeSet<&str> = pluck(&txns, "categorySource", Value::as_str);
    assert_eq!(sources, BTreeSet::from(["file"]));
    let globals: Value = app.get_json(&bob, "/api/categories/4").await;
    assert_eq!(
        globals["categoryName"], "Groceries",
        "no global category changed"
    );

    // defaultCategoryId: rows of its type go there, the others to Uncategorized.
    let file = "date,amount,note\n2026-01-02,10.00,in\n2026-01-03,-5.00,out\n";
    let report = app
        .upload_report(
            &ann,
            &format!("?defaultCategoryId={gifts}"),
            "text/csv",
            file.into(),
        )
        .await;
    assert_eq!(
        (&report["created"], &report["uncategorized"]),
        (&json!(2), &json!(1))
    );
    // Another user's category is no default: 404, nothing stored.
    let before = app.all_transactions(&ann).await.len();
    let file = "date,amount\n2026-02-02,1.00\n".as_bytes().to_vec();
    let r = app
        .upload(
            &ann,
            &format!("?defaultCategoryId={bobs}"),
            "text/csv",
            file,
        )
        .await;
    assert_problem(r, 404).await;
    assert_eq!(app.all_transactions(&ann).await.len(), before);
}

#[tokio::test]
async fn broken_files_other_currencies_and_ambiguous_dates_are_refused_and_store_nothing() {
    let app = spawn_app().await;
    let user = app.new_user().await;
    for (file, status) in [
        ("ofx_truncated.ofx", 400),
        ("camt053_truncated.xml", 400),
        ("qif_truncated.qif", 400),
        ("empty.csv", 400),
        ("statement.pdf", 415),
        ("export.zip", 415),
        ("logo.png", 415),
        ("ambiguous_dates.csv", 422),
        // A USD statement into a EUR wallet.
        ("ofx1_bank_cp1252.ofx", 422),
    ] {
        let r = app
            .upload(&user, "", "application/octet-stream", fixture(file))
            .await;
        let problem = assert_problem(r, status).await;
        let detail = problem["detail"].as_str().unwrap_or_default().to_owned();
        match file {
            "ofx_truncated.ofx" => assert!(detail.contains("<STMTTRN> at line 47"), "{detail}"),
            "qif_truncated.qif" => assert!(detail.contains("line 15"), "{detail}"),
            "ambiguous_dates.csv" => {
                assert_eq!(error_fields(&problem), ["dateFormat"]);
                assert!(
                    detail.contains("DD.MM.YYYY") && detail.contains("MM.DD.YYYY"),
                    "{detail}"
                );
            }
            "ofx1_bank_cp1252.ofx" => {
                assert!(detail.contains("USD") && detail.contains("EUR"), "{detail}")
            }
            _ => {}
        }
    }
    // The same bodies by multipart are refused alike.
    let (content_type, body) = multipart("upload", &fixture("statement.pdf"));
    assert_problem(app.upload(&user, "", &content_type, body).await, 415).await;
    // Missing columns name the fields and the headers found.
    let r = app
        .upload(&user, "", "text/csv", b"when,what\nx,y\n".to_vec())
        .await;
    let problem = assert_problem(r, 422).await;
    assert!(error_fields(&problem).contains(&"col.date"), "{problem}");
    assert!(
        problem["detail"].as_str().unwrap().contains("when"),
        "{problem}"
    );
    // ... and naming them imports the file; a day-first setting settles the dates.
    let r = app
        .upload(
            &user,
            "?col.date=when&col.amount=what",
            "text/csv",
            b"when,what\n2026-01-02,-1.50\n".to_vec(),
        )
        .await;
    assert_eq!(r.status(), 201);
    let r = app
        .upload(
            &user,
            "?dateFormat=DD.MM.YYYY",
            "text/csv",
            fixture("ambiguous_dates.csv"),
        )
        .await;
    assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
    let stored = app.all_transactions(&user).await.len();
    assert!(stored > 1);
    for bad in [
        "?format=xls",
        "?dateFormat=QQ",
        "?delimiter=ab",
        "?encoding=klingon",
        "?skipRows=x",
    ] {
        let r = app
            .upload(&user, bad, "text/csv", fixture("es_caixabank.csv"))
            .await;
        assert_problem(r, 400).await;
    }
    assert_eq!(
        app.all_transactions(&user).await.len(),
        stored,
        "nothing stored from refused files"
    );
}

#[tokio::test]
async fn names_and_rows_left_at_the_deadline_are_errors_that_a_repetition_clears() {
    use shared::app::imports::{import, ImportOptions, REPEAT_MESSAGE, TIME_BUDGET};
    use std::time::Instant;

    let app = spawn_app().await;
    let user = app.new_user().await;
    let file = "date,amount,payee,category,tags\n\
                2026-03-01,-4.00,New Shop,New Category,new tag\n\
                2026-03-02,-5.00,,Groceries,\n";
    let read = || {
        let statement = bankfile::parse(file.as_bytes(), &bankfile::Options::default()).unwrap();
        imports_fn::parse::rows(statement)
    };
    let options = |deadline| ImportOptions {
        default_category_id: None,
        dry_run: false,
        deadline,
    };
    // The time is up before anything is created: every row is left, with the message
    // that says to repeat the import.
    let store = &app.state.store;
    let wallet = store.get_wallet(user.id).await.unwrap().unwrap();
    let late = import(store, wallet.clone(), read(), options(Instant::now()))
        .await
        .unwrap();
    assert_eq!(late.created, 0);
    let errors: Vec<(usize, &str)> = late
        .errors
        .iter()
        .map(|e| (e.row, e.message.as_str()))
        .collect();
    assert_eq!(errors, [(1, REPEAT_MESSAGE), (2, REPEAT_MESSAGE)]);
    let providers: Vec<Value> = app.get_json(&user, "/api/providers").await;
    assert!(providers.is_empty());
    // The repetition creates the names and both rows.
    let deadline = Instant::now() + TIME_BUDGET;
    let again = import(store, wallet, read(), options(deadline))
        .await
        .unwrap();
    assert_eq!((again.created, again.errors.len()), (2, 0));
    assert_eq!(app.balance(&user).await, "-9.00");
}

#[tokio::test]
async fn a_file_of_several_currencies_imports_the_wallets_rows_whatever_is_most_common() {
    // PayPal UK: each purchase in dollars is two USD rows (the payment and its conversion)
    // and one GBP row (what left the account); USD is the most common code.
    let paypal = "Date,Time,Time Zone,Name,Type,Status,Currency,Gross,Fee,Net,Transaction ID\n\
        22/01/2026,10:00:00,GMT,Etsy,Express Checkout Payment,Completed,USD,-25.00,0.00,-25.00,1A\n\
        22/01/2026,10:00:00,GMT,,General Currency Conversion,Completed,USD,25.00,0.00,25.00,1B\n\
        22/01/2026,10:00:00,GMT,,General Currency Conversion,Completed,GBP,-20.11,0.00,-20.11,1C\n\
        14/01/2026,09:00:00,GMT,Jane Smith,General Payment,Completed,GBP,100.00,-3.20,96.80,2A\n";
    let app = spawn_app().await;
    let gbp = app.user_in("GBP").await;
    let r = app
        .upload(&gbp, "", "text/csv", paypal.as_bytes().to_vec())
        .await;
    assert_eq!(r.status(), 201);
    let report: Value = r.json().await.unwrap();
    assert_eq!(
        (report["created"].as_u64(), report["rows"].as_u64()),
        (Some(2), Some(4))
    );
    let errors = report["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 2, "{report}");
    assert!(errors.iter().all(|e| e["field"] == "currency"), "{report}");
    // What left the account and what came in: -20.11 + 96.80.
    assert_eq!(app.balance(&gbp).await, "76.69");
    // Into a dollar wallet the dollar rows are imported and the pound row is the error.
    let usd = app.user_in("USD").await;
    let report = app
        .dry_run_report(&usd, "text/csv", paypal.as_bytes().to_vec())
        .await;
    assert_eq!(report["detected"]["currency"], "USD", "{report}");
    assert_eq!(report["errors"].as_array().unwrap().len(), 2, "{report}");
    // A wallet in a currency the file does not hold: refused as a whole, as before.
    let eur = app.user_in("EUR").await;
    let r = app
        .upload(&eur, "", "text/csv", paypal.as_bytes().to_vec())
        .await;
    let problem = assert_problem(r, 422).await;
    let detail = problem["detail"].as_str().unwrap();
    assert!(detail.contains("USD") && detail.contains("EUR"), "{detail}");
}

/// A download of all accounts with statements in two currencies is refused with 422
/// naming both, nothing stored, whichever of them the wallet holds.
#[tokio::test]
async fn a_file_of_two_currencies_is_refused_naming_both() {
    let app = spawn_app().await;
    let camt = crate::imports::samples::two_currency_camt();
    for currency in ["EUR", "CHF"] {
        let user = app.user_in(currency).await;
        let r = app
            .upload(&user, "", "application/xml", camt.clone().into_bytes())
            .await;
        let problem = assert_problem(r, 422).await;
        let detail = problem["detail"].as_str().unwrap();
        assert!(detail.contains("CHF and EUR"), "{detail}");
        assert!(app.listed(&user, "").await.is_empty());
    }
}

/// An OFX statement whose `FITID`s are long (the standard allows 255 characters; some
/// banks write a hash of the booking) behind an IBAN: each row gets a `sha256:` import id
/// instead of the refusal of an id over 100 characters, so the file imports, and once.
#[tokio::test]
async fn bank_ids_longer_than_an_import_id_import_once_under_their_digest() {
    let app = spawn_app().await;
    let user = app.user_in("EUR").await;
    let fitid = |last: char| format!("{}{last}", "9f86d081884c7d659a2feaa0c55ad015".repeat(4));
    let entry = |day: u32, amount: &str, id: String| {
        format!(
            "<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>202401{day:02}<TRNAMT>{amount}\
             <FITID>{id}<NAME>Kartenzahlung</STMTTRN>\n"
        )
    };
    let ofx = format!(
        "OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nSECURITY:NONE\nENCODING:USASCII\n\
         CHARSET:1252\nCOMPRESSION:NONE\nOLDFILEUID:NONE\nNEWFILEUID:NONE\n\n\
         <OFX><BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STMTRS><CURDEF>EUR<BANKACCTFROM>\
         <BANKID>37040044<ACCTID>DE89370400440532013000<ACCTTYPE>CHECKING</BANKACCTFROM>\
         <BANKTRANLIST><DTSTART>20240101<DTEND>20240131\n{}{}\
         </BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n",
        entry(5, "-12.50", fitid('a')),
        entry(5, "-12.50", fitid('b')),
    );
    let dry = app
        .dry_run_report(&user, "application/x-ofx", ofx.clone().into())
        .await;
    assert_eq!(dry["valid"], 2, "{dry}");
    let ids: Vec<&str> = pluck(
        dry["preview"].as_array().unwrap(),
        "importId",
        Value::as_str,
    );
    assert!(
        ids.iter()
            .all(|id| id.starts_with("sha256:") && id.len() == 71),
        "{ids:?}"
    );
    assert_ne!(ids[0], ids[1]);
    let first = app
        .upload_report(&user, "", "application/x-ofx", ofx.clone().into())
        .await;
    assert_eq!(
        (&first["created"], &first["errors"]),
        (&json!(2), &json!([])),
        "{first}"
    );
    let again = app
        .upload_report(&user, "", "application/x-ofx", ofx.into())
        .await;
    assert_eq!(
        (&again["created"], &again["duplicates"]),
        (&json!(0), &json!(2)),
        "{again}"
    );
}
