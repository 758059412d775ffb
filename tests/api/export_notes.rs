//! A note's spaces go round: `GET /api/export` (CSV) quotes a note that needs it, and
//! importing that file (into another user) gives the note back byte for byte.

use serde_json::{json, Value};

use crate::helpers::spawn_app_and_user;

#[tokio::test]
async fn an_exported_notes_spaces_come_back_through_a_re_import() {
    let (app, user) = spawn_app_and_user().await;
    // Lines that end (and begin) in spaces and a tab; the note's own ends are trimmed on
    // every write, so the stored note is what goes round.
    let note = "Rent  \n  March\t \n  flat 2";
    let body = json!({"amount": "900.00", "categoryId": 5, "date": "2026-03-01",
        "note": format!("  {note}  ")});
    let r = app.create_transaction(&user, &body).await;
    assert_eq!(r.status(), 201);
    let created: Value = r.json().await.unwrap();
    assert_eq!(created["note"], note);

    let r = app.get(&user, "/api/export?format=csv").await;
    assert_eq!(r.status(), 200);
    let file = r.text().await.unwrap();
    assert!(file.contains(&format!("\"{note}\"")), "{file}");

    let fresh = app.new_user().await;
    let dry = app
        .dry_run(&fresh, "text/csv", file.clone().into_bytes())
        .await;
    assert_eq!(dry.status(), 200);
    let report: Value = dry.json().await.unwrap();
    assert_eq!(report["errors"], json!([]), "{report}");
    let r = app.upload(&fresh, "", "text/csv", file.into_bytes()).await;
    assert!(r.status().is_success(), "{}", r.status());
    let listed: Vec<Value> = app.listed(&fresh, "").await;
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert_eq!(listed[0]["note"].as_str(), Some(note));
}
