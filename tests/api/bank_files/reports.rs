//! What a dry run reports of how a file was read (issues 49 and 50): the charset the file
//! declares beside the one used, and the holds paired with their releases.

use serde_json::{json, Value};

use super::fixture;
use crate::helpers::spawn_app;

/// A CJK export without a declaration is sniffed (GB18030, Shift_JIS, EUC-KR): the dry
/// run names the encoding used and nothing declared, its payees are decoded, and the
/// import creates the rows with those names.
#[tokio::test]
async fn a_dry_run_reports_the_charset_used_and_the_one_declared() {
    let app = spawn_app().await;
    for (file, used, payee) in [
        ("cn_alipay_gb18030.csv", "gb18030", "美团外卖"),
        ("jp_rakuten_card_shift_jis.csv", "Shift_JIS", "楽天市場"),
        ("kr_kb_euc_kr.csv", "EUC-KR", "스타벅스코리아"),
    ] {
        let user = app.user_in("EUR").await;
        let dry = app
            .dry_run_report(&user, "application/octet-stream", fixture(file))
            .await;
        assert_eq!(
            dry["detected"]["charset"],
            json!({"declared": null, "used": used}),
            "{file}: {dry}"
        );
        assert_eq!(dry["detected"]["encoding"], used, "{file}");
        let names: Vec<&str> = dry["preview"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|p| p["newProvider"].as_str())
            .collect();
        assert!(names.contains(&payee), "{file}: {names:?}");
        let done = app
            .upload_report(&user, "", "application/octet-stream", fixture(file))
            .await;
        assert_eq!(done["created"], dry["valid"], "{file}: {done}");
        let providers: Vec<Value> = app.get_json(&user, "/api/providers").await;
        assert!(
            providers.iter().any(|p| p["providerName"] == payee),
            "{file}: {providers:?}"
        );
    }

    // An OFX header's `CHARSET:1252` over a UTF-8 body: declared Windows-1252, used UTF-8.
    let user = app.user_in("BRL").await;
    let ofx = "OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nENCODING:USASCII\nCHARSET:1252\n\n\
               <OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>BRL<BANKACCTFROM><ACCTID>1234-5\
               </BANKACCTFROM><BANKTRANLIST><STMTTRN><TRNTYPE>CREDIT<DTPOSTED>20151103120000[-3:BRT]\
               <TRNAMT>239.55<FITID>20151103001<NAME>CRÉDITO SALÁRIO</STMTTRN></BANKTRANLIST>\
               </STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n";
    let dry = app
        .dry_run_report(&user, "application/x-ofx", ofx.into())
        .await;
    assert_eq!(
        dry["detected"]["charset"],
        json!({"declared": "windows-1252", "used": "UTF-8"}),
        "{dry}"
    );
    assert_eq!(dry["preview"][0]["newProvider"], "CRÉDITO SALÁRIO", "{dry}");
    // The `encoding` parameter overrides: used is the parameter's, declared stays.
    let dry = app
        .upload_report(
            &user,
            "?dryRun=true&encoding=windows-1252",
            "application/x-ofx",
            ofx.into(),
        )
        .await;
    assert_eq!(
        dry["detected"]["charset"],
        json!({"declared": "windows-1252", "used": "windows-1252"}),
        "{dry}"
    );
}

/// A PayPal activity CSV's authorisation hold and its release: the dry run lists the
/// pair (rows, amount, the hold's code) and counts it; a file without one lists none.
#[tokio::test]
async fn a_dry_run_lists_the_holds_paired_with_their_releases() {
    let app = spawn_app().await;
    let user = app.user_in("EUR").await;
    let csv = "\u{FEFF}\"Datum\",\"Name\",\"Typ\",\"Status\",\"Währung\",\"Brutto\",\"Gebühr\",\"Netto\",\"Transaktionscode\",\"Zugehöriger Transaktionscode\",\"Guthaben\"\n\
               \"14.07.2025\",\"PayPal\",\"Einbehaltung für offene Autorisierung\",\"Ausstehend\",\"EUR\",\"-13,21\",\"0,00\",\"-13,21\",\"80F0HOLD1\",\"8BN0AUTH1\",\"89,20\"\n\
               \"14.07.2025\",\"Online-Shop GmbH\",\"PayPal Express-Zahlung\",\"Abgeschlossen\",\"EUR\",\"-13,21\",\"0,00\",\"-13,21\",\"7KE0PAY1\",\"8BN0AUTH1\",\"75,99\"\n\
               \"14.07.2025\",\"PayPal\",\"Rückbuchung allgemeiner Einbehaltung\",\"Abgeschlossen\",\"EUR\",\"13,21\",\"0,00\",\"13,21\",\"89J0REL1\",\"80F0HOLD1\",\"89,20\"\n\
               \"19.07.2025\",\"Technik-Shop\",\"PayPal Express-Zahlung\",\"Abgeschlossen\",\"EUR\",\"-34,49\",\"0,00\",\"-34,49\",\"6HR0PAY2\",\"\",\"54,71\"\n";
    let dry = app.dry_run_report(&user, "text/csv", csv.into()).await;
    assert_eq!(
        (&dry["valid"], &dry["skippedPending"], &dry["pairedCount"]),
        (&json!(2), &json!(2), &json!(1)),
        "{dry}"
    );
    assert_eq!(
        dry["paired"],
        json!([{"hold": 1, "release": 3, "amount": 13.21, "reference": "80F0HOLD1"}]),
        "{dry}"
    );
    let unpaired = csv.replace("\"80F0HOLD1\",\"89,20\"\n", "\"OTHER\",\"89,20\"\n");
    let dry = app.dry_run_report(&user, "text/csv", unpaired.into()).await;
    assert_eq!(
        (&dry["valid"], &dry["pairedCount"], &dry["paired"]),
        (&json!(3), &json!(0), &json!([])),
        "{dry}"
    );
}
