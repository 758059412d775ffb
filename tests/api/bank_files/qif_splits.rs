//! QIF split lines (issue 52): a Quicken-style register whose records carry `S`/`E`/`$`
//! (and `%`) lines imports each as a split transaction, its part categories matched or
//! created by name; a repeated import creates nothing; parts that miss the total, or a
//! part against the row's direction, are that row's error.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use super::fixture;
use crate::helpers::spawn_app;
use crate::splits::{amounts, GIFTS, GROCERIES};

#[tokio::test]
async fn qif_split_lines_import_as_splits_once_and_a_mismatch_is_the_rows_error() {
    let app = spawn_app().await;
    let user = app.user_in("USD").await;
    let report = app
        .upload_report(
            &user,
            "",
            "application/octet-stream",
            fixture("qif_splits.qif"),
        )
        .await;
    assert_eq!(report["errors"], json!([]), "{report}");
    assert_eq!(report["created"], 4, "{report}");
    let categories: Vec<Value> = app.get_json(&user, "/api/categories").await;
    let name_of: BTreeMap<u64, String> = categories
        .iter()
        .map(|c| {
            (
                c["id"].as_u64().unwrap(),
                c["categoryName"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let txns = app.all_transactions(&user).await;
    let names = |t: &Value| -> Vec<String> {
        let parts = t["splits"].as_array().expect("a split");
        parts
            .iter()
            .map(|p| name_of[&p["categoryId"].as_u64().unwrap()].clone())
            .collect()
    };
    let shop = &txns[3];
    assert_eq!(shop["note"], "Weekly shop", "{shop}");
    assert_eq!(
        amounts(shop)
            .iter()
            .map(|a| a.to_string())
            .collect::<Vec<_>>(),
        ["80.00", "25.50", "14.50"]
    );
    assert_eq!(shop["categoryId"], GROCERIES);
    // Groceries is the global one; Household and Gifts:Birthday are created as the user's.
    assert_eq!(names(shop), ["Groceries", "Household", "Gifts:Birthday"]);
    let parts = shop["splits"].as_array().unwrap();
    assert_ne!(
        parts[2]["categoryId"], GIFTS,
        "Gifts:Birthday is a category of its own"
    );
    let notes: Vec<&Value> = parts.iter().map(|p| &p["note"]).collect();
    assert_eq!(notes, [&json!("Food"), &json!("Cleaning"), &Value::Null]);
    let pay = &txns[2];
    assert_eq!(names(pay), ["Salary", "Salary:Bonus"]);
    assert_eq!(pay["categoryType"], "CREDIT");
    let utilities = &txns[1];
    assert_eq!(names(utilities), ["Utilities:Water", "Utilities:Electric"]);
    assert_eq!(
        amounts(utilities)
            .iter()
            .map(|a| a.to_string())
            .collect::<Vec<_>>(),
        ["30.00", "30.00"],
        "the parts given in percent"
    );
    assert_eq!(txns[0]["splits"], Value::Null, "a plain record stays plain");

    let again = app
        .upload_report(
            &user,
            "",
            "application/octet-stream",
            fixture("qif_splits.qif"),
        )
        .await;
    assert_eq!(
        (&again["created"], &again["duplicates"]),
        (&json!(0), &json!(4)),
        "{again}"
    );
    assert_eq!(app.all_transactions(&user).await.len(), 4);

    let other = app.user_in("USD").await;
    let qif = "!Type:Bank\nD01/15/2024\nT-10.00\nPShop\nLFood\nSFood\n$-6.00\nSHome\n$-3.00\n^\n\
               D01/16/2024\nT-10.00\nPMarket\nSFood\n$-12.00\nSRefund\n$2.00\n^\n\
               D01/17/2024\nT-5.00\nPKiosk\n^\n";
    let report = app
        .upload_report(
            &other,
            "",
            "application/octet-stream",
            qif.as_bytes().to_vec(),
        )
        .await;
    assert_eq!(report["created"], 1, "{report}");
    let errors: Vec<(u64, &str)> = report["errors"]
        .as_array()
        .expect("errors")
        .iter()
        .map(|e| (e["row"].as_u64().unwrap(), e["field"].as_str().unwrap()))
        .collect();
    assert_eq!(errors, [(1, "splits"), (2, "splits[1].amount")], "{report}");
    let kept = app.all_transactions(&other).await;
    assert_eq!((kept.len(), &kept[0]["splits"]), (1, &Value::Null));
}
