//! What a rule or a schedule names stays what it was saved as: a category, provider or
//! tag they name is not deleted (nor the category's type changed) from under them; a
//! rule's tags fill a transaction up to its limit and never break it; positions stay
//! within what the API shows.

use reqwest::Method;
use serde_json::{json, Value};

use crate::helpers::{assert_problem, spawn_app_and_user, TestApp, TestUser};
use crate::rules::rule;

/// `POST /api/transactions`, expected `201`: the transaction.
async fn create(app: &TestApp, user: &TestUser, body: &Value) -> Value {
    let r = app.create_transaction(user, body).await;
    assert_eq!(r.status(), 201, "{body}");
    r.json().await.unwrap()
}

/// The paths of a category, a provider and a tag.
fn paths(category: u64, provider: u64, tag: u64) -> [String; 3] {
    [
        format!("/api/categories/{category}"),
        format!("/api/providers/{provider}"),
        format!("/api/tags/{tag}"),
    ]
}

/// Each `DELETE` is `409`, its detail naming `who` holds on to it.
async fn deletes_refused(app: &TestApp, user: &TestUser, paths: &[String], who: &str) {
    for path in paths {
        let problem = assert_problem(app.delete(user, path).await, 409).await;
        let detail = problem["detail"].as_str().unwrap();
        assert!(detail.contains(who), "{path}: {detail}");
    }
}

#[tokio::test]
async fn what_a_rule_names_is_not_deleted_nor_retyped_until_the_rule_lets_go() {
    let (app, user) = spawn_app_and_user().await;
    let (tag, shop, coffee) = app
        .create_refs(&user, "caffeine", "Starbucks", "Coffee")
        .await;
    let r = rule(
        &app,
        &user,
        json!({"name": "Coffee", "conditions": [{"field": "note", "op": "contains", "value": "latte"}],
               "actions": {"categoryId": coffee, "providerId": shop, "tagIds": [tag]}}),
    )
    .await;
    let id = r["id"].as_u64().unwrap();
    let named = paths(coffee, shop, tag);
    deletes_refused(&app, &user, &named, &format!("rule {id} (\"Coffee\")")).await;
    let flip = json!({"categoryName": "Coffee", "type": "CREDIT"});
    let path = format!("/api/categories/{coffee}");
    assert_problem(app.put(&user, &path, &flip).await, 409).await;
    // A rename keeps the type: allowed.
    let rename = json!({"categoryName": "Café", "type": "DEBIT"});
    assert_eq!(app.put(&user, &path, &rename).await.status(), 200);

    // The rule still categorises a create as it was saved.
    let body = json!({"amount": "4.20", "date": "2026-03-02", "note": "oat latte"});
    let created = create(&app, &user, &body).await;
    assert_eq!(created["categoryId"], coffee);
    assert_eq!(created["providerId"], shop);
    assert_eq!(created["tagIds"], json!([tag]));
    let t = created["id"].as_u64().unwrap();
    assert_eq!(app.delete_transaction(&user, t).await.status(), 204);

    // Once the rule is gone, so is the refusal.
    let gone = app.delete(&user, &format!("/api/rules/{id}")).await;
    assert_eq!(gone.status(), 204);
    assert_eq!(app.put(&user, &path, &flip).await.status(), 200);
    for path in &named {
        assert_eq!(app.delete(&user, path).await.status(), 204, "{path}");
    }
}

/// A schedule books its category, provider and tags every period, and keeps its
/// category's type for the forecast: none of them goes, nor does the type change, while a
/// schedule names them. Nor does a category that a provider has as its default.
#[tokio::test]
async fn what_a_schedule_or_a_providers_default_names_stays_until_they_let_go() {
    let (app, user) = spawn_app_and_user().await;
    let (tag, landlord, rent) = app.create_refs(&user, "home", "Landlord", "Rent").await;
    let body = json!({"amount": "900.00", "categoryId": rent, "providerId": landlord,
        "tagIds": [tag], "note": "Flat", "start": "2026-01-31", "rrule": "FREQ=MONTHLY"});
    let schedule = app.create(&user, "/api/recurring", &body).await;
    let named = paths(rent, landlord, tag);
    let who = format!("recurring schedule {schedule} (\"Flat\")");
    deletes_refused(&app, &user, &named, &who).await;
    let path = format!("/api/categories/{rent}");
    let flip = json!({"categoryName": "Rent", "type": "CREDIT"});
    assert_problem(app.put(&user, &path, &flip).await, 409).await;
    let gone = app
        .delete(&user, &format!("/api/recurring/{schedule}"))
        .await;
    assert_eq!(gone.status(), 204);
    assert_eq!(app.put(&user, &path, &flip).await.status(), 200);

    // A provider's default category.
    let vet = app.create_category(&user, "Vet", "DEBIT").await;
    let pets = json!({"providerName": "Clinic", "defaultCategoryId": vet});
    let clinic = app.create(&user, "/api/providers", &pets).await;
    let vet_path = format!("/api/categories/{vet}");
    let problem = assert_problem(app.delete(&user, &vet_path).await, 409).await;
    let detail = problem["detail"].as_str().unwrap();
    assert!(detail.contains(&format!("provider {clinic}")), "{detail}");
    let cleared = json!({"providerName": "Clinic", "defaultCategoryId": null});
    let r = app
        .put(&user, &format!("/api/providers/{clinic}"), &cleared)
        .await;
    assert_eq!(r.status(), 200);
    assert_eq!(app.delete(&user, &vet_path).await.status(), 204);
    for path in &named {
        assert_eq!(app.delete(&user, path).await.status(), 204, "{path}");
    }
}

#[tokio::test]
async fn a_rules_tags_fill_a_transaction_up_to_twenty_and_never_refuse_it() {
    let (app, user) = spawn_app_and_user().await;
    let mut tags = Vec::new();
    for i in 0..21 {
        let body = json!({"tagName": format!("t{i:02}")});
        tags.push(app.create(&user, "/api/tags", &body).await);
    }
    let groceries = 4;
    rule(
        &app,
        &user,
        json!({"name": "Market", "conditions": [{"field": "note", "op": "contains", "value": "market"}],
               "actions": {"categoryId": groceries, "tagIds": [tags[20]]}}),
    )
    .await;
    // A create naming 20 tags and no category: the rule categorises it; its tag has no room.
    let body =
        json!({"amount": "12.00", "date": "2026-03-02", "note": "Market", "tagIds": &tags[..20]});
    let created = create(&app, &user, &body).await;
    assert_eq!(created["categoryId"], groceries);
    assert_eq!(created["tagIds"].as_array().unwrap().len(), 20);
    assert!(!created["tagIds"]
        .as_array()
        .unwrap()
        .contains(&json!(tags[20])));
    // With room, it is added.
    let body =
        json!({"amount": "3.00", "date": "2026-03-03", "note": "market", "tagIds": [tags[0]]});
    let created = create(&app, &user, &body).await;
    assert_eq!(created["tagIds"], json!([tags[0], tags[20]]));
    // Applying the rules over both: the full one is left as it is, the run completes.
    let r = app
        .call(
            Method::POST,
            "/api/rules/apply",
            Some(&user),
            Some(&json!({})),
        )
        .await;
    assert_eq!(r.status(), 200);
    let report: Value = r.json().await.unwrap();
    assert_eq!(
        (&report["examined"], &report["matched"], &report["changed"]),
        (&json!(2), &json!(2), &json!(0))
    );
    assert!(report.get("cursor").is_none_or(Value::is_null), "{report}");
}

#[tokio::test]
async fn a_rule_after_the_last_position_stays_at_the_last_one() {
    let (app, user) = spawn_app_and_user().await;
    let body = |name: &str, position: Option<u32>| {
        let mut b = json!({"name": name, "conditions": [{"field": "note", "op": "contains", "value": "x"}],
                           "actions": {"note": "x"}});
        if let Some(p) = position {
            b["position"] = json!(p);
        }
        b
    };
    let last = rule(&app, &user, body("last", Some(u32::MAX))).await;
    assert_eq!(last["position"], u32::MAX);
    let after = rule(&app, &user, body("after", None)).await;
    assert_eq!(after["position"], u32::MAX);
    // Equal positions keep creation order, in the list as in the run.
    let list: Value = app.get_json(&user, "/api/rules").await;
    let names: Vec<&str> = list["items"]
        .as_array()
        .or(list.as_array())
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["last", "after"]);
}
