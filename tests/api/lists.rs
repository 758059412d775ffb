//! Every list paged like the transactions (`limit`, sealed `cursor`, `Link: rel="next"`),
//! the caps on what one user may own (configurable, atomic under concurrent creates, also
//! for the importer), a batch whose malformed operation gets its own 400, and the
//! provider's default category between the rules and a 400.

use std::collections::HashSet;

use serde_json::{json, Value};
use shared::config::Limits;

use crate::helpers::{
    assert_problem, next_link, pluck, spawn_app, spawn_app_with, TestApp, TestUser,
};

const GROCERIES: u64 = 4;
const SALARY: u64 = 1;

/// Every page of a list at `limit`, following `Link`: the ids in order and the number of
/// pages. Each page is a bare JSON array of at most `limit` items.
async fn walk(app: &TestApp, user: &TestUser, path: &str, limit: u32) -> (Vec<u64>, usize) {
    let sep = if path.contains('?') { '&' } else { '?' };
    let mut next = Some(format!("{path}{sep}limit={limit}"));
    let (mut ids, mut pages) = (Vec::new(), 0);
    while let Some(page) = next.take() {
        let r = app.get(user, &page).await;
        assert_eq!(r.status(), 200, "{page}");
        next = next_link(&r);
        let items: Vec<Value> = r.json().await.expect("a bare JSON array");
        assert!(items.len() <= limit as usize, "{page}");
        ids.extend(items.iter().map(|i| i["id"].as_u64().expect("id")));
        pages += 1;
        assert!(pages < 100, "the walk does not end");
    }
    (ids, pages)
}

/// The walk at `limit` yields every item of the whole list exactly once, in its order.
async fn assert_walks(app: &TestApp, user: &TestUser, path: &str, expected: usize) {
    let (all, pages) = walk(app, user, path, 200).await;
    assert_eq!((all.len(), pages), (expected, 1), "{path}: {all:?}");
    for limit in [1, 2, 3] {
        let (ids, pages) = walk(app, user, path, limit).await;
        assert_eq!(ids, all, "{path} at limit {limit}");
        assert!(pages >= expected.div_ceil(limit as usize), "{path}");
        let unique: HashSet<_> = ids.iter().collect();
        assert_eq!(unique.len(), ids.len(), "{path}: an item twice");
    }
}

/// `limit` out of range and a tampered or foreign cursor are 400 naming the parameter.
async fn assert_paging_refusals(app: &TestApp, user: &TestUser, path: &str, foreign: &str) {
    for limit in ["0", "201", "x"] {
        let r = app.get(user, &format!("{path}?limit={limit}")).await;
        let problem = assert_problem(r, 400).await;
        assert_eq!(problem["errors"][0]["field"], "limit", "{path} {limit}");
    }
    let first = app.get(user, &format!("{path}?limit=1")).await;
    let next = next_link(&first).expect("a second page");
    let cursor = next.split("cursor=").nth(1).unwrap();
    let mut tampered = cursor.to_owned();
    let last = tampered.pop().unwrap();
    tampered.push(if last == 'A' { 'B' } else { 'A' });
    for bad in [tampered.as_str(), "abc", foreign] {
        let r = app.get(user, &format!("{path}?cursor={bad}")).await;
        let problem = assert_problem(r, 400).await;
        assert_eq!(problem["errors"][0]["field"], "cursor", "{path} {bad}");
    }
}

/// A cursor sealed for `path` (its second page's).
async fn cursor_of(app: &TestApp, user: &TestUser, path: &str) -> String {
    let r = app.get(user, &format!("{path}?limit=1")).await;
    let next = next_link(&r).expect("a second page");
    next.split("cursor=").nth(1).unwrap().to_owned()
}

#[tokio::test]
async fn every_list_pages_with_limit_cursor_and_link() {
    let app = spawn_app().await;
    let user = app.new_user().await;
    let other = app.new_user().await;
    for i in 0..5 {
        app.create(&user, "/api/tags", &json!({"tagName": format!("tag {i}")}))
            .await;
        let provider = json!({"providerName": format!("payee {i}")});
        app.create(&user, "/api/providers", &provider).await;
        let category = json!({"categoryName": format!("own {i}"), "type": "DEBIT"});
        app.create(&user, "/api/categories", &category).await;
        let rule = json!({"name": format!("r{i}"), "position": 4 - i % 2,
            "conditions": [{"field": "note", "op": "contains", "value": format!("n{i}")}],
            "actions": {"note": "x"}});
        app.create(&user, "/api/rules", &rule).await;
        let schedule = json!({"amount": "10.00", "categoryId": GROCERIES,
            "start": "2030-01-01", "rrule": "FREQ=MONTHLY"});
        app.create(&user, "/api/recurring", &schedule).await;
    }
    // Another user's items never show.
    app.create(&other, "/api/tags", &json!({"tagName": "theirs"}))
        .await;
    let globals: Vec<Value> = app.get_json(&user, "/api/categories?limit=200").await;
    let global_count = globals.iter().filter(|c| c["isGlobal"] == true).count();
    let global_debits = globals
        .iter()
        .filter(|c| c["isGlobal"] == true && c["type"] == "DEBIT")
        .count();
    assert!(global_count >= 14);

    for (path, count) in [
        ("/api/tags", 5),
        ("/api/providers", 5),
        ("/api/categories", global_count + 5),
        ("/api/categories?type=DEBIT", global_debits + 5),
        ("/api/rules", 5),
        ("/api/recurring", 5),
    ] {
        assert_walks(&app, &user, path, count).await;
    }
    // Categories: the global ones first, then the caller's own.
    let (ids, _) = walk(&app, &user, "/api/categories", 4).await;
    let own_from = ids.len() - 5;
    let firsts: Vec<u64> = pluck(&globals, "id", Value::as_u64);
    assert_eq!(&ids[..own_from], &firsts[..own_from]);
    assert!(globals[own_from..].iter().all(|c| c["isGlobal"] == false));
    // Rules in run order: position, then creation.
    let rules: Vec<Value> = app.get_json(&user, "/api/rules?limit=200").await;
    let order: Vec<&str> = pluck(&rules, "name", Value::as_str);
    assert_eq!(order, ["r1", "r3", "r0", "r2", "r4"]);

    let paths = [
        "/api/tags",
        "/api/providers",
        "/api/categories",
        "/api/rules",
        "/api/recurring",
    ];
    for (i, path) in paths.iter().enumerate() {
        // A cursor of another list, and one of another user for this list.
        let foreign = cursor_of(&app, &user, paths[(i + 1) % paths.len()]).await;
        assert_paging_refusals(&app, &user, path, &foreign).await;
    }
    let theirs = cursor_of(&app, &user, "/api/tags").await;
    let r = app.get(&other, &format!("/api/tags?cursor={theirs}")).await;
    assert_eq!(assert_problem(r, 400).await["errors"][0]["field"], "cursor");
}

#[tokio::test]
async fn the_link_keeps_the_filter_and_the_limit() {
    let app = spawn_app().await;
    let user = app.new_user().await;
    let r = app.get(&user, "/api/categories?type=CREDIT&limit=2").await;
    let next = next_link(&r).expect("more credit categories");
    assert!(
        next.starts_with("/api/categories?type=CREDIT&limit=2&cursor="),
        "{next}"
    );
    let (ids, _) = walk(&app, &user, "/api/categories?type=CREDIT", 1).await;
    let credits: Vec<Value> = app.get_json(&user, "/api/categories?type=CREDIT").await;
    assert!(credits.iter().all(|c| c["type"] == "CREDIT"));
    assert_eq!(ids.len(), credits.len());
}

/// `PUT` of `body` to `path` as `user`, expecting 200: the body answered.
async fn put_json(app: &TestApp, user: &TestUser, path: &str, body: &Value) -> Value {
    let r = app.put(user, path, body).await;
    assert_eq!(r.status(), 200, "PUT {path} {body}");
    r.json().await.expect("json")
}

/// `POST`s of `bodies` to `path` as `user`, all at once: their statuses.
async fn concurrently(app: &TestApp, user: &TestUser, path: &str, bodies: Vec<Value>) -> Vec<u16> {
    let mut set = tokio::task::JoinSet::new();
    for body in bodies {
        let (client, url, token) = (app.client.clone(), app.url(path), user.token.clone());
        set.spawn(async move {
            let r = client.post(url).bearer_auth(token).json(&body).send().await;
            r.expect("request").status().as_u16()
        });
    }
    set.join_all().await
}

/// All but the last of `bodies` posted at once: exactly `cap` are created, the others
/// are 409; the last, posted after them, is 409 with a detail that names the cap.
async fn assert_capped(
    app: &TestApp,
    user: &TestUser,
    path: &str,
    bodies: impl Iterator<Item = Value>,
    cap: usize,
    detail: &str,
) {
    let mut bodies: Vec<Value> = bodies.collect();
    let last = bodies.pop().unwrap();
    let statuses = concurrently(app, user, path, bodies).await;
    let created = statuses.iter().filter(|s| **s == 201).count();
    let refused = statuses.iter().filter(|s| **s == 409).count();
    let expected = (cap, statuses.len() - cap);
    assert_eq!((created, refused), expected, "{path} {statuses:?}");
    let problem = assert_problem(app.post(user, path, &last).await, 409).await;
    let text = problem["detail"].as_str().unwrap();
    assert!(text.contains(detail), "{path}: {problem}");
}

/// `POST` of `body` to `path` as `user`: the status.
async fn status_of(app: &TestApp, user: &TestUser, path: &str, body: Value) -> u16 {
    app.post(user, path, &body).await.status().as_u16()
}

#[tokio::test]
async fn caps_on_what_one_user_owns_hold_under_concurrent_creates() {
    let limits = Limits {
        providers: 4,
        tags: 3,
        categories: 2,
    };
    let app = spawn_app_with(|c| c.limits = limits).await;
    let user = app.new_user().await;
    // Creates at once: exactly the cap succeeds, the rest are 409 naming it.
    let tags = (0..11).map(|i| json!({"tagName": format!("t{i}")}));
    assert_capped(&app, &user, "/api/tags", tags, 3, "limit of 3 tags").await;
    let categories = (0..5).map(|i| json!({"categoryName": format!("c{i}"), "type": "DEBIT"}));
    let detail = "limit of 2 own categories";
    assert_capped(&app, &user, "/api/categories", categories, 2, detail).await;
    let providers = (0..7).map(|i| json!({"providerName": format!("p{i}")}));
    let detail = "limit of 4 providers";
    assert_capped(&app, &user, "/api/providers", providers, 4, detail).await;
    let listed: Vec<Value> = app.get_json(&user, "/api/providers").await;
    assert_eq!(listed.len(), 4);
    // A delete frees a place.
    let id = listed[0]["id"].as_u64().unwrap();
    assert_eq!(
        app.delete(&user, &format!("/api/providers/{id}"))
            .await
            .status(),
        204
    );
    assert_eq!(
        status_of(
            &app,
            &user,
            "/api/providers",
            json!({"providerName": "again"})
        )
        .await,
        201
    );
    // The cap is per user.
    let other = app.new_user().await;
    assert_eq!(
        status_of(&app, &other, "/api/tags", json!({"tagName": "t0"})).await,
        201
    );
}

#[tokio::test]
async fn an_import_past_the_provider_cap_reports_those_rows_and_imports_the_rest() {
    let limits = Limits {
        providers: 2,
        ..Limits::default()
    };
    let app = spawn_app_with(|c| c.limits = limits).await;
    let user = app.new_user().await;
    let file = "date,amount,category,provider\n\
                2026-11-01,-1.00,Groceries,Alpha\n\
                2026-11-02,-2.00,Groceries,Beta\n\
                2026-11-03,-3.00,Groceries,Gamma\n\
                2026-11-04,-4.00,Groceries,Alpha\n\
                2026-11-05,-5.00,Groceries,\n";
    let r = app.upload(&user, "", "text/csv", file).await;
    assert_eq!(r.status(), 201);
    let report: Value = r.json().await.unwrap();
    assert_eq!(report["created"], 4, "{report}");
    let errors = report["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1, "{report}");
    assert_eq!(
        (&errors[0]["row"], &errors[0]["field"]),
        (&json!(3), &json!("provider"))
    );
    assert!(
        errors[0]["message"]
            .as_str()
            .unwrap()
            .contains("limit of 2 providers"),
        "{report}"
    );
    let providers: Vec<Value> = app.get_json(&user, "/api/providers").await;
    assert_eq!(providers.len(), 2);
}

#[tokio::test]
async fn a_batch_applies_the_operations_beside_a_malformed_one() {
    let app = spawn_app().await;
    let user = app.new_user().await;
    let create = |amount: &str| json!({"op": "create", "body": {"amount": amount, "categoryId": GROCERIES, "date": "2026-11-01"}});
    let operations = json!([
        create("1.00"),
        {"op": "create", "body": {"amount": "abc", "categoryId": GROCERIES, "date": "2026-11-01"}},
        42,
        {"op": "fly"},
        {"op": "create", "body": {"amount": "2.00", "categoryId": GROCERIES, "date": "2026-11-01"}, "extra": 1},
        create("3.00"),
    ]);
    let r = app.post_batch(&user, &operations).await;
    assert_eq!(r.status(), 200);
    let body: Value = r.json().await.unwrap();
    let statuses: Vec<u64> = pluck(body["results"].as_array().unwrap(), "status", Value::as_u64);
    assert_eq!(statuses, [201, 400, 400, 400, 400, 201]);
    let problem = &body["results"][1]["body"];
    assert_eq!(problem["errors"][0]["field"], "body.amount", "{problem}");
    assert_eq!(problem["instance"], "/api/transactions/batch#/operations/1");
    assert_eq!(
        body["results"][2]["body"]["errors"][0]["field"],
        "operation"
    );
    // An unknown member is that operation's own 400 naming it (the document's operation
    // schema is open for that reason: the batch reads each operation on its own).
    let unknown = &body["results"][4]["body"]["errors"][0];
    assert_eq!(
        (&unknown["field"], &unknown["message"]),
        (&json!("extra"), &json!("unknown member"))
    );
    assert_eq!(app.balance(&user).await, "-4.00");

    // The envelope itself malformed: the whole batch is 400, nothing applied.
    let too_many: Vec<Value> = (0..101).map(|_| create("1.00")).collect();
    for envelope in [
        json!({"operations": {}}),
        json!({"operations": too_many}),
        json!({"operations": []}),
        json!([]),
    ] {
        let r = app.post(&user, "/api/transactions/batch", &envelope).await;
        assert_problem(r, 400).await;
    }
    assert_eq!(app.balance(&user).await, "-4.00");
}

#[tokio::test]
async fn a_create_without_category_takes_a_rule_then_the_providers_default_else_400() {
    let app = spawn_app().await;
    let user = app.new_user().await;
    let other = app.new_user().await;
    let theirs = app.create_category(&other, "Theirs", "DEBIT").await;
    // The default category must be one the caller sees.
    for missing in [theirs, 999_999_999] {
        let body = json!({"providerName": "Shop", "defaultCategoryId": missing});
        assert_problem(app.post(&user, "/api/providers", &body).await, 404).await;
    }
    let bad = app
        .post(
            &user,
            "/api/providers",
            &json!({"providerName": "Shop", "defaultCategoryId": 0}),
        )
        .await;
    assert_eq!(
        assert_problem(bad, 400).await["errors"][0]["field"],
        "defaultCategoryId"
    );

    let shop = app
        .create(
            &user,
            "/api/providers",
            &json!({"providerName": "Shop", "defaultCategoryId": GROCERIES}),
        )
        .await;
    let read: Value = app.get_json(&user, &format!("/api/providers/{shop}")).await;
    assert_eq!(read["defaultCategoryId"], GROCERIES);
    let plain = app
        .create(&user, "/api/providers", &json!({"providerName": "Plain"}))
        .await;
    let read: Value = app
        .get_json(&user, &format!("/api/providers/{plain}"))
        .await;
    assert_eq!(read["defaultCategoryId"], Value::Null);
    // The JSON export keeps it.
    let doc: Value = app.get_json(&user, "/api/export?format=json").await;
    let exported = doc["providers"].as_array().unwrap();
    let of =
        |id: u64| exported.iter().find(|p| p["id"] == id).unwrap()["defaultCategoryId"].clone();
    assert_eq!((of(shop), of(plain)), (json!(GROCERIES), Value::Null));

    let txn = |provider: u64, note: &str| json!({"amount": "5.00", "date": "2026-11-01", "providerId": provider, "note": note});
    // The provider's default.
    let r = app.create_transaction(&user, &txn(shop, "bread")).await;
    assert_eq!(r.status(), 201);
    let t: Value = r.json().await.unwrap();
    assert_eq!(
        (&t["categoryId"], &t["categorySource"], &t["categoryType"]),
        (&json!(GROCERIES), &json!("provider"), &json!("DEBIT"))
    );
    // A rule comes first; the default sets a credit's type just as well.
    app.create(&user, "/api/rules", &json!({"name": "Pay", "conditions": [{"field": "note", "op": "equals", "value": "pay"}], "actions": {"categoryId": SALARY}}))
        .await;
    let t: Value = app
        .create_transaction(&user, &txn(shop, "pay"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        (&t["categoryId"], &t["categorySource"], &t["categoryType"]),
        (&json!(SALARY), &json!("rule"), &json!("CREDIT"))
    );
    // A categoryId in the request always wins.
    let mut named = txn(shop, "pay");
    named["categoryId"] = json!(9);
    let t: Value = app
        .create_transaction(&user, &named)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        (&t["categoryId"], &t["categorySource"]),
        (&json!(9), &json!("user"))
    );
    // No rule and no default: 400 naming categoryId.
    let r = app.create_transaction(&user, &txn(plain, "bread")).await;
    assert_eq!(
        assert_problem(r, 400).await["errors"][0]["field"],
        "categoryId"
    );
    // The batch's creates take the same chain.
    let batch = json!({"operations": [{"op": "create", "body": txn(shop, "bread")}, {"op": "create", "body": txn(plain, "bread")}]});
    let body: Value = app
        .post(&user, "/api/transactions/batch", &batch)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(body["results"][0]["body"]["categorySource"], "provider");
    assert_eq!(body["results"][1]["status"], 400);

    // An update without the member keeps the default; null clears it.
    let path = format!("/api/providers/{shop}");
    let kept: Value = app
        .put(&user, &path, &json!({"providerName": "Shop & co"}))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(kept["defaultCategoryId"], GROCERIES);
    let with_default = |id: Value| json!({"providerName": "Shop", "defaultCategoryId": id});
    let r = app.put(&user, &path, &with_default(json!(theirs))).await;
    assert_problem(r, 404).await;
    let cleared = put_json(&app, &user, &path, &with_default(Value::Null)).await;
    assert_eq!(cleared["defaultCategoryId"], Value::Null);
    let r = app.create_transaction(&user, &txn(shop, "bread")).await;
    assert_eq!(
        assert_problem(r, 400).await["errors"][0]["field"],
        "categoryId"
    );
    let set = put_json(&app, &user, &path, &with_default(json!(SALARY))).await;
    assert_eq!(set["defaultCategoryId"], SALARY);
}

/// Rules (200) and recurring schedules (100) are counted like the other caps: in the
/// same transaction as each create and delete, so creates at once at the edge of the cap
/// never pass it, and a delete gives its place back.
#[tokio::test]
async fn rules_and_schedules_caps_hold_under_concurrent_creates() {
    let app = spawn_app().await;
    let user = app.new_user().await;
    let rule = |i: usize| {
        json!({"name": format!("r{i}"), "conditions": [{"field": "payee", "op": "contains", "value": format!("shop {i}")}],
               "actions": {"note": "shop"}})
    };
    let schedule = |i: usize| {
        json!({"amount": format!("{}.00", 10 + i), "categoryId": GROCERIES, "start": "2030-01-01",
               "rrule": "FREQ=MONTHLY"})
    };
    for (path, body, cap, detail) in [
        (
            "/api/rules",
            &rule as &dyn Fn(usize) -> Value,
            200,
            "at most 200 rules",
        ),
        ("/api/recurring", &schedule, 100, "at most 100 recurring"),
    ] {
        // Up to 4 below the cap, 20 at a time.
        let mut made = 0;
        while made < cap - 4 {
            let n = (cap - 4 - made).min(20);
            let statuses =
                concurrently(&app, &user, path, (made..made + n).map(body).collect()).await;
            assert!(statuses.iter().all(|s| *s == 201), "{path} {statuses:?}");
            made += n;
        }
        let rest = (made..made + 11).map(body);
        assert_capped(&app, &user, path, rest, 4, detail).await;
        // A delete frees one place.
        let r = app.get(&user, &format!("{path}?limit=1")).await;
        let first: Vec<Value> = r.json().await.unwrap();
        let at = format!("{path}/{}", first[0]["id"]);
        assert_eq!(app.delete(&user, &at).await.status(), 204);
        assert_eq!(status_of(&app, &user, path, body(999)).await, 201, "{path}");
        assert_eq!(
            status_of(&app, &user, path, body(1000)).await,
            409,
            "{path}"
        );
    }
}
