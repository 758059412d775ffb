//! Rules that categorise what comes in and never undo what the user chose: CRUD and
//! order, `/test` explaining a match, creates without `categoryId`, `/apply` (dry and
//! real) keeping balances exact, pathological patterns, and other users' objects.

use std::time::Instant;

use reqwest::Method;
use serde_json::{json, Value};

use crate::helpers::{assert_problem, error_fields, spawn_app_and_user, TestApp, TestUser};

/// Seeded global categories: 1 Salary (CREDIT), 4 Groceries (DEBIT), ...
const SALARY: u64 = 1;
const GROCERIES: u64 = 4;

async fn post(app: &TestApp, user: &TestUser, path: &str, body: Value) -> reqwest::Response {
    app.call(Method::POST, path, Some(user), Some(&body)).await
}

/// `POST /api/rules/apply{query}`: the report.
async fn apply(app: &TestApp, user: &TestUser, query: &str, body: Value) -> Value {
    let r = post(app, user, &format!("/api/rules/apply{query}"), body).await;
    r.json().await.unwrap()
}

async fn provider(app: &TestApp, user: &TestUser, name: &str) -> u64 {
    let r = post(app, user, "/api/providers", json!({"providerName": name})).await;
    assert_eq!(r.status(), 201);
    r.json::<Value>().await.unwrap()["id"].as_u64().unwrap()
}

pub(crate) async fn rule(app: &TestApp, user: &TestUser, body: Value) -> Value {
    let r = post(app, user, "/api/rules", body).await;
    assert_eq!(r.status(), 201, "{:?}", r.text().await);
    r.json().await.unwrap()
}

async fn balance(app: &TestApp, user: &TestUser) -> String {
    let w: Value = app.get(user, "/api/wallet").await.json().await.unwrap();
    w["amountBalance"]["amount"].to_string()
}

#[tokio::test]
async fn rules_keep_their_order_explain_a_match_and_stop_when_told() {
    let (app, user) = spawn_app_and_user().await;
    let coffee = app.create_category(&user, "Coffee", "DEBIT").await;
    let first = rule(
        &app,
        &user,
        json!({"name": "Coffee", "match": "all",
        "conditions": [{"field": "payee", "op": "contains", "value": "starbucks"},
                       {"field": "amount", "op": "lt", "value": "20"}],
        "actions": {"categoryId": coffee, "note": "coffee"}, "stop": true}),
    )
    .await;
    assert_eq!(first["position"], 0);
    let second = rule(
        &app,
        &user,
        json!({"name": "Food", "conditions": [
        {"field": "payee", "op": "matches", "value": "^(starbucks|rewe)"}],
        "actions": {"categoryId": GROCERIES}}),
    )
    .await;
    assert_eq!(second["position"], 1);
    let front = rule(
        &app,
        &user,
        json!({"name": "Front", "position": 0, "conditions": [
        {"field": "note", "op": "equals", "value": "café"}], "actions": {"note": "x"}}),
    )
    .await;

    let list: Vec<Value> = app.get(&user, "/api/rules").await.json().await.unwrap();
    let names: Vec<&str> = list.iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        ["Coffee", "Front", "Food"],
        "equal positions keep creation order"
    );

    // A small Starbucks bill: the first rule matches and stops.
    let test = |body: Value| {
        let (app, user) = (&app, &user);
        async move {
            post(app, user, "/api/rules/test", body)
                .await
                .json::<Value>()
                .await
                .unwrap()
        }
    };
    let t = test(json!({"payee": "STARBUCKS STORE 12345 SEATTLE WA", "amount": "4.50"})).await;
    assert_eq!(t["matched"], json!([first["id"]]));
    assert_eq!(t["result"]["categoryId"], coffee);
    assert_eq!(t["result"]["note"], "coffee");
    // A large one: only the second.
    let t = test(json!({"payee": "Starbucks Reserve", "amount": 45})).await;
    assert_eq!(t["matched"], json!([second["id"]]));
    assert_eq!(t["result"]["categoryId"], GROCERIES);
    // Accents and case are ignored.
    let t = test(json!({"note": "CAFE"})).await;
    assert_eq!(t["matched"], json!([front["id"]]));
    // Paging: a page of 2 and a Link to the rest.
    let r = app.get(&user, "/api/rules?limit=2").await;
    let link = r.headers()["link"].to_str().unwrap().to_owned();
    assert_eq!(r.json::<Vec<Value>>().await.unwrap().len(), 2);
    let next = link.trim_start_matches('<').split('>').next().unwrap();
    let rest: Vec<Value> = app.get(&user, next).await.json().await.unwrap();
    assert_eq!(rest.len(), 1);
}

#[tokio::test]
async fn a_create_without_category_is_categorised_by_a_rule_else_refused() {
    let (app, user) = spawn_app_and_user().await;
    let starbucks = provider(&app, &user, "Starbucks").await;
    let r = app
        .create_transaction(
            &user,
            &json!({"amount": "3.20", "date": "2026-11-02", "providerId": starbucks}),
        )
        .await;
    let problem = assert_problem(r, 400).await;
    assert_eq!(error_fields(&problem), ["categoryId"]);

    let coffee = app.create_category(&user, "Coffee", "DEBIT").await;
    rule(
        &app,
        &user,
        json!({"name": "Coffee", "conditions": [
        {"field": "payee", "op": "startsWith", "value": "star"}],
        "actions": {"categoryId": coffee, "tagIds": []}}),
    )
    .await;
    let r = app
        .create_transaction(
            &user,
            &json!({"amount": "3.20", "date": "2026-11-02", "providerId": starbucks}),
        )
        .await;
    assert_eq!(r.status(), 201);
    let t: Value = r.json().await.unwrap();
    assert_eq!(t["categoryId"], coffee);
    assert_eq!(t["categorySource"], "rule");
    assert_eq!(t["categoryType"], "DEBIT");
    // A categoryId in the request always wins.
    let r = app
        .create_transaction(
            &user,
            &json!({"amount": "3.20", "date": "2026-11-02",
            "providerId": starbucks, "categoryId": GROCERIES}),
        )
        .await;
    let t: Value = r.json().await.unwrap();
    assert_eq!(
        (t["categoryId"].as_u64(), t["categorySource"].as_str()),
        (Some(GROCERIES), Some("user"))
    );
    assert_eq!(balance(&app, &user).await, "-6.40");
}

#[tokio::test]
async fn apply_dry_writes_nothing_and_the_real_run_changes_only_what_the_user_did_not_choose() {
    let (app, user) = spawn_app_and_user().await;
    let rewe = provider(&app, &user, "REWE Markt GmbH").await;
    let food = app.create_category(&user, "Food", "DEBIT").await;
    let tag = app
        .create(&user, "/api/tags", &json!({"tagName": "shop"}))
        .await;
    // Chosen by the user: stays. Categorised by a rule: may change.
    let chosen = app.add(&user, "12.00", GROCERIES, "2026-10-01").await;
    let mut by_rule = Vec::new();
    rule(&app, &user, json!({"name": "Old", "position": 10, "conditions": [
        {"field": "payee", "op": "contains", "value": "rewe"}], "actions": {"categoryId": GROCERIES}})).await;
    for day in ["2026-10-02", "2026-10-03"] {
        let r = app
            .create_transaction(
                &user,
                &json!({"amount": "20.00", "date": day, "providerId": rewe}),
            )
            .await;
        by_rule.push(r.json::<Value>().await.unwrap());
    }
    let path = format!("/api/transactions/{}", chosen["id"]);
    let body = json!({"amount": "12.00", "categoryId": GROCERIES, "date": "2026-10-01", "providerId": rewe});
    assert_eq!(app.put(&user, &path, &body).await.status(), 200);
    let before = balance(&app, &user).await;
    assert_eq!(before, "-52.00");
    // A second rule in front now sends REWE to Food.
    rule(
        &app,
        &user,
        json!({"name": "New", "position": 0, "conditions": [
        {"field": "payee", "op": "contains", "value": "rewe"}], "actions": {"categoryId": food, "tagIds": [tag], "note": "weekly shop"}}),
    )
    .await;

    let dry = apply(&app, &user, "?dryRun=true", json!({"from": "2026-10-01"})).await;
    assert_eq!(
        (
            dry["examined"].as_u64(),
            dry["matched"].as_u64(),
            dry["changed"].as_u64()
        ),
        (Some(3), Some(3), Some(2))
    );
    assert_eq!(dry["changes"].as_array().unwrap().len(), 2);
    assert_eq!(dry["changes"][0]["to"]["categoryId"], food);
    let t: Value = app
        .get(&user, &format!("/api/transactions/{}", by_rule[0]["id"]))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(t["categoryId"], GROCERIES, "the dry run wrote nothing");

    let real = apply(&app, &user, "", json!({})).await;
    assert_eq!(real["changed"], 2);
    assert!(real.get("changes").is_none());
    for t in &by_rule {
        let now: Value = app
            .get(&user, &format!("/api/transactions/{}", t["id"]))
            .await
            .json()
            .await
            .unwrap();
        assert_eq!(
            (now["categoryId"].as_u64(), now["categorySource"].as_str()),
            (Some(food), Some("rule"))
        );
    }
    let kept: Value = app.get(&user, &path).await.json().await.unwrap();
    assert_eq!(kept["categoryId"], GROCERIES, "the user's choice stays");
    // Nor does the run add the rule's tag or note to what the user edited.
    assert_eq!((&kept["tagIds"], &kept["note"]), (&json!([]), &Value::Null));
    assert_eq!(
        balance(&app, &user).await,
        before,
        "the balance is unchanged"
    );
    // Monthly totals followed the move: Food holds the two rule-categorised rows.
    let months: Value = app
        .get(&user, "/api/insights/monthly?from=2026-10&to=2026-10")
        .await
        .json()
        .await
        .unwrap();
    let text = months.to_string();
    assert!(text.contains("40.00"), "{text}");
    // A second run finds nothing to change.
    let again = apply(&app, &user, "", json!({})).await;
    assert_eq!(again["changed"], 0);
}

#[tokio::test]
async fn bad_rules_name_the_field_and_pathological_patterns_answer_at_once() {
    let (app, user) = spawn_app_and_user().await;
    for (body, field) in [
        (
            json!({"name": "x", "conditions": [], "actions": {"note": "n"}}),
            "conditions",
        ),
        (
            json!({"name": "x", "conditions": [{"field": "payee", "op": "gt", "value": "1"}], "actions": {"note": "n"}}),
            "conditions[0].op",
        ),
        (
            json!({"name": "x", "conditions": [{"field": "note", "op": "matches", "value": "("}], "actions": {"note": "n"}}),
            "conditions[0].value",
        ),
        (
            json!({"name": "x", "conditions": [{"field": "note", "op": "contains", "value": "a"}], "actions": {}}),
            "actions",
        ),
        (
            json!({"name": "x", "conditions": [{"field": "note", "op": "contains", "value": "a"}], "actions": {"note": "n"}, "priority": 1}),
            "priority",
        ),
    ] {
        let problem = assert_problem(post(&app, &user, "/api/rules", body).await, 400).await;
        assert!(
            error_fields(&problem).contains(&field),
            "{field}: {problem}"
        );
    }
    let evil = rule(
        &app,
        &user,
        json!({"name": "Evil", "conditions": [
        {"field": "note", "op": "matches", "value": "(a+)+$"}], "actions": {"note": "n"}}),
    )
    .await;
    // A malformed replacement is 400 whatever its If-Match (a stale one included).
    let path = format!("/api/rules/{}", evil["id"]);
    let long_note = json!({"name": "Evil", "match": null, "conditions": [
        {"field": "note", "op": "contains", "value": "a"}], "actions": {"note": "n".repeat(1001)}});
    let r = app.put_if_match(&user, &path, "\"99\"", &long_note).await;
    let problem = assert_problem(r, 400).await;
    assert_eq!(error_fields(&problem), ["actions.note"], "{problem}");
    let long = format!("{}b", "a".repeat(999));
    let started = Instant::now();
    let t: Value = post(&app, &user, "/api/rules/test", json!({"note": long}))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(t["matched"], json!([]));
    eprintln!(
        "pathological pattern on 1,000 characters: {} ms",
        started.elapsed().as_millis()
    );
}

/// Patterns cost memory and time on every create without a category: a user's rules hold
/// at most 50 `matches` conditions in all (`409` beyond), other conditions are not
/// counted, and replacing a rule counts its new patterns instead of its old ones.
#[tokio::test]
async fn a_users_rules_hold_at_most_fifty_patterns() {
    let (app, user) = spawn_app_and_user().await;
    let patterns = |n: usize, tag: &str| -> Value {
        let conditions: Vec<Value> = (0..n)
            .map(|i| json!({"field": "payee", "op": "matches", "value": format!("^{tag}{i}\\b")}))
            .collect();
        json!({"name": tag, "match": "any", "conditions": conditions, "actions": {"note": tag}})
    };
    let mut ids = Vec::new();
    for k in 0..5 {
        ids.push(rule(&app, &user, patterns(10, &format!("shop{k}"))).await["id"].clone());
    }
    let r = post(&app, &user, "/api/rules", patterns(1, "one more")).await;
    let problem = assert_problem(r, 409).await;
    assert!(
        problem["detail"].as_str().unwrap().contains("50"),
        "{problem}"
    );
    let plain = json!({"name": "plain", "conditions": [
        {"field": "payee", "op": "contains", "value": "rewe"}], "actions": {"note": "n"}});
    let plain = rule(&app, &user, plain).await["id"].clone();
    let path = format!("/api/rules/{}", ids[0]);
    let r = app.put(&user, &path, &patterns(10, "replaced")).await;
    assert_eq!(r.status(), 200);
    let r = app
        .put(&user, &format!("/api/rules/{plain}"), &patterns(1, "grown"))
        .await;
    assert_problem(r, 409).await;
}

/// The 50-pattern cap holds under a race: concurrent creates, each of which finds room
/// when it reads, are counted on the profile in their own transactions, so at most 50
/// patterns are ever stored; a delete gives its patterns back.
#[tokio::test]
async fn concurrent_creates_never_pass_fifty_patterns() {
    let (app, user) = spawn_app_and_user().await;
    let patterns = |tag: String| -> Value {
        let conditions: Vec<Value> = (0..10)
            .map(|i| json!({"field": "payee", "op": "matches", "value": format!("^{tag}{i}\\b")}))
            .collect();
        json!({"name": tag, "match": "any", "conditions": conditions, "actions": {"note": "n"}})
    };
    let mut set = tokio::task::JoinSet::new();
    for k in 0..12 {
        let (client, url, token) = (
            app.client.clone(),
            app.url("/api/rules"),
            user.token.clone(),
        );
        let body = patterns(format!("shop{k}"));
        set.spawn(async move {
            let r = client.post(url).bearer_auth(token).json(&body).send().await;
            r.expect("request").status().as_u16()
        });
    }
    let statuses = set.join_all().await;
    assert!(
        statuses.iter().all(|s| [201, 409].contains(s)),
        "{statuses:?}"
    );
    let stored: Vec<Value> = app.get(&user, "/api/rules").await.json().await.unwrap();
    let count = |rules: &[Value]| -> usize {
        rules
            .iter()
            .map(|r| r["conditions"].as_array().unwrap().len())
            .sum()
    };
    assert_eq!(stored.len(), statuses.iter().filter(|s| **s == 201).count());
    assert_eq!(count(&stored), 50, "{statuses:?}");
    let r = post(&app, &user, "/api/rules", patterns("late".into())).await;
    assert!(assert_problem(r, 409).await["detail"]
        .as_str()
        .unwrap()
        .contains("50"));

    let path = format!("/api/rules/{}", stored[0]["id"]);
    let r = app.call(Method::DELETE, &path, Some(&user), None).await;
    assert_eq!(r.status(), 204);
    let r = post(&app, &user, "/api/rules", patterns("after".into())).await;
    assert_eq!(r.status(), 201);
}

#[tokio::test]
async fn another_users_rules_and_categories_stay_invisible() {
    let (app, owner) = spawn_app_and_user().await;
    let other = app.new_user().await;
    let theirs = app.create_category(&other, "Secret", "DEBIT").await;
    let body = json!({"name": "x", "conditions": [{"field": "note", "op": "contains", "value": "a"}],
        "actions": {"categoryId": theirs}});
    assert_problem(post(&app, &owner, "/api/rules", body).await, 404).await;
    let mine = rule(
        &app,
        &owner,
        json!({"name": "Mine", "conditions": [
        {"field": "note", "op": "contains", "value": "a"}], "actions": {"categoryId": SALARY}}),
    )
    .await;
    let path = format!("/api/rules/{}", mine["id"]);
    assert_problem(app.get(&other, &path).await, 404).await;
    assert_problem(
        app.call(Method::DELETE, &path, Some(&other), None).await,
        404,
    )
    .await;
    let theirs_list: Vec<Value> = app.get(&other, "/api/rules").await.json().await.unwrap();
    assert!(theirs_list.is_empty());
    // A rule's category whose type does not match is skipped: a CREDIT category for a debit.
    let t: Value = post(
        &app,
        &owner,
        "/api/rules/test",
        json!({"note": "a", "type": "DEBIT"}),
    )
    .await
    .json()
    .await
    .unwrap();
    assert_eq!(t["matched"], json!([mine["id"]]));
    assert_eq!(t["result"]["categoryId"], Value::Null);
    assert_eq!(
        app.call(Method::DELETE, &path, Some(&owner), None)
            .await
            .status(),
        204
    );
}

#[tokio::test]
async fn an_import_is_categorised_by_the_rules_in_order_and_the_rest_goes_to_uncategorized() {
    let (app, user) = spawn_app_and_user().await;
    let coffee = app.create_category(&user, "Coffee", "DEBIT").await;
    let food = app.create_category(&user, "Food", "DEBIT").await;
    rule(
        &app,
        &user,
        json!({"name": "Coffee", "stop": true, "conditions": [
        {"field": "payee", "op": "contains", "value": "starbucks"}],
        "actions": {"categoryId": coffee}}),
    )
    .await;
    // Would also match Starbucks, but the first rule stops; and it takes REWE.
    rule(
        &app,
        &user,
        json!({"name": "Food", "match": "any", "conditions": [
        {"field": "payee", "op": "contains", "value": "starbucks"},
        {"field": "payee", "op": "startsWith", "value": "rewe"}],
        "actions": {"categoryId": food, "note": "groceries"}}),
    )
    .await;
    // A German bank's CSV: the file names a category for the REWE row, the rule wins;
    // the payee padded with a space (as fixed-width exports write it) still starts with it.
    let file = "Buchungstag;Empfänger;Verwendungszweck;Betrag;Kategorie\n\
                13.11.2026;STARBUCKS STORE 12345;Kartenzahlung;-4,50;\n\
                14.11.2026;  REWE Markt GmbH;;-23,10;Lebensmittel\n\
                15.11.2026;Stadtwerke München;Abschlag;-80,00;\n";
    let r = app.upload(&user, "", "text/csv", file).await;
    assert_eq!(r.status(), 201, "{:?}", r.text().await);
    let report: Value = r.json().await.unwrap();
    assert_eq!(report["created"], 3);
    assert_eq!(report["uncategorized"], 1);
    let list: Vec<Value> = app
        .get(&user, "/api/transactions?limit=10")
        .await
        .json()
        .await
        .unwrap();
    let by_amount = |amount: &str| {
        let wanted: Value = amount.parse().unwrap();
        list.iter()
            .find(|t| t["amount"]["amount"] == wanted)
            .cloned()
            .unwrap()
    };
    let starbucks = by_amount("4.50");
    assert_eq!(
        (
            starbucks["categoryId"].as_u64(),
            starbucks["categorySource"].as_str()
        ),
        (Some(coffee), Some("rule"))
    );
    let rewe = by_amount("23.10");
    assert_eq!(
        (rewe["categoryId"].as_u64(), rewe["categorySource"].as_str()),
        (Some(food), Some("rule"))
    );
    assert_eq!(rewe["note"], "groceries");
    let utility = by_amount("80.00");
    assert_eq!(utility["categorySource"], "default");
    assert_eq!(balance(&app, &user).await, "-107.60");
}
