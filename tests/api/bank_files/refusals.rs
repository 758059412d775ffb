//! Files refused as a whole before anything is stored: markup built to stall a reader
//! (issue 48) and statements that cannot be read right (issue 49).

use crate::helpers::{assert_problem, spawn_app};

/// A CAMT.053 file whose `<Amt>` carries `n` attributes (its currency last).
fn camt_with_attributes(n: usize) -> Vec<u8> {
    let attributes: String = (0..n).map(|i| format!(" a{i}=\"1\"")).collect();
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\
         <Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.02\"><BkToCstmrStmt>\
         <Stmt><Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct><Ntry>\
         <Amt{attributes} Ccy=\"EUR\">100.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts>\
         <BookgDt><Dt>2024-01-05</Dt></BookgDt><AcctSvcrRef>R1</AcctSvcrRef></Ntry></Stmt>\
         </BkToCstmrStmt></Document>"
    )
    .into_bytes()
}

/// The 1.3 MB file of 120,000 attributes on one start tag (15.7 s of CPU before) is a
/// 400 naming the tag, as an import and as a dry run, and stores nothing; the same file
/// with 64 attributes imports.
#[tokio::test]
async fn a_start_tag_of_too_many_attributes_is_refused_before_it_is_read() {
    let app = spawn_app().await;
    let user = app.user_in("EUR").await;
    let file = camt_with_attributes(120_000);
    assert!(file.len() > 1_300_000, "{}", file.len());
    for query in ["", "?dryRun=true"] {
        let r = app
            .upload(&user, query, "application/octet-stream", file.clone())
            .await;
        let problem = assert_problem(r, 400).await;
        let detail = problem["detail"].as_str().unwrap_or_default();
        assert!(
            detail.contains("<Amt> at line 1") && detail.contains("start tag"),
            "{detail}"
        );
    }
    assert!(app.all_transactions(&user).await.is_empty());
    let r = app
        .upload(
            &user,
            "",
            "application/octet-stream",
            camt_with_attributes(63),
        )
        .await;
    assert_eq!(r.status(), 201, "{}", r.text().await.unwrap_or_default());
    assert_eq!(app.all_transactions(&user).await.len(), 1);
}

/// An OFX investment statement (a broker's trades, a dividend and one cash line) is a
/// 415 naming investment statements, as QIF's `!Type:Invst` is: nothing is stored.
#[tokio::test]
async fn an_ofx_investment_statement_is_refused_as_qifs_investment_account_is() {
    let app = spawn_app().await;
    let user = app.user_in("USD").await;
    for (file, named) in [
        (
            super::fixture("ofx2_investment.ofx"),
            "investment statement",
        ),
        (
            b"!Type:Invst\nD1/ 5'24\nNBuy\nYACME Corp\nI12.50\nQ80\nT1,000.00\n^\n".to_vec(),
            "investment account",
        ),
    ] {
        let r = app
            .upload(&user, "", "application/octet-stream", file)
            .await;
        let problem = assert_problem(r, 415).await;
        let detail = problem["detail"].as_str().unwrap_or_default();
        assert!(detail.contains(named), "{detail}");
    }
    assert!(app.all_transactions(&user).await.is_empty());
}
