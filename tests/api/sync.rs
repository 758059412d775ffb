//! The change feed (`GET /api/sync`) and conditional requests on every resource.

use std::collections::BTreeMap;
use std::str::FromStr;

use reqwest::{Method, Response};
use rust_decimal::Decimal;
use serde_json::{json, Value};

use crate::helpers::{
    assert_problem, pluck, spawn_app, spawn_app_and_user, urlencode, TestApp, TestUser,
};

/// The response's status is one of `allowed`.
fn assert_status_in(r: &Response, allowed: &[u16]) {
    assert!(allowed.contains(&r.status().as_u16()), "{}", r.status());
}

/// A device: the state it rebuilt from the feed, and its cursor.
#[derive(Default)]
struct Device {
    cursor: Option<String>,
    /// (entity, id) → the JSON of GET.
    items: BTreeMap<(String, u64), Value>,
    /// (entity, id) of every change, in the order the pages brought them.
    order: Vec<(String, u64)>,
}

impl Device {
    /// A new device that has followed the whole feed.
    async fn synced(app: &TestApp, user: &TestUser, limit: usize) -> Self {
        let mut device = Device::default();
        device.sync(app, user, limit).await;
        device
    }

    /// Follows the feed until `hasMore` is false; returns the changes seen.
    async fn sync(&mut self, app: &TestApp, user: &TestUser, limit: usize) -> usize {
        let mut seen = 0;
        for _ in 0..10_000 {
            let mut path = format!("/api/sync?limit={limit}");
            if let Some(c) = &self.cursor {
                path.push_str(&format!("&cursor={}", urlencode(c)));
            }
            let r = app.get(user, &path).await;
            assert_eq!(r.status(), 200, "GET {path}");
            let page: Value = r.json().await.unwrap();
            for change in page["changes"].as_array().unwrap() {
                seen += 1;
                let key = (
                    change["entity"].as_str().unwrap().to_owned(),
                    change["id"].as_u64().unwrap(),
                );
                self.order.push(key.clone());
                match change["op"].as_str().unwrap() {
                    "upsert" => {
                        assert!(change["version"].as_u64().unwrap() >= 1);
                        self.items.insert(key, change["data"].clone());
                    }
                    "delete" => {
                        assert!(change.get("data").is_none());
                        self.items.remove(&key);
                    }
                    other => panic!("unknown op {other}"),
                }
            }
            self.cursor = Some(page["nextCursor"].as_str().unwrap().to_owned());
            if !page["hasMore"].as_bool().unwrap() {
                return seen;
            }
        }
        panic!("the feed never ended");
    }

    fn of(&self, entity: &str) -> BTreeMap<u64, Value> {
        self.items
            .iter()
            .filter(|((e, _), _)| e == entity)
            .map(|((_, id), v)| (*id, v.clone()))
            .collect()
    }
}

async fn get_json(app: &TestApp, user: &TestUser, path: &str) -> Value {
    let r = app.get(user, path).await;
    assert_eq!(r.status(), 200, "GET {path}");
    r.json().await.unwrap()
}

/// What the list endpoints say, keyed like a device's state.
async fn server_state(app: &TestApp, user: &TestUser) -> BTreeMap<(String, u64), Value> {
    let mut state = BTreeMap::new();
    let me = get_json(app, user, "/users/me").await;
    state.insert(("user".to_owned(), user.id), me);
    let wallet = get_json(app, user, "/api/wallet").await;
    state.insert(
        ("wallet".to_owned(), wallet["id"].as_u64().unwrap()),
        wallet,
    );
    for (entity, path) in [
        ("category", "/api/categories"),
        ("tag", "/api/tags"),
        ("provider", "/api/providers"),
    ] {
        for item in get_json(app, user, path).await.as_array().unwrap() {
            state.insert(
                (entity.to_owned(), item["id"].as_u64().unwrap()),
                item.clone(),
            );
        }
    }
    let mut path = "/api/transactions?limit=100".to_owned();
    loop {
        let r = app.get(user, &path).await;
        let next = r
            .headers()
            .get("link")
            .map(|v| v.to_str().unwrap().to_owned());
        for item in r.json::<Value>().await.unwrap().as_array().unwrap() {
            state.insert(
                ("transaction".to_owned(), item["id"].as_u64().unwrap()),
                item.clone(),
            );
        }
        match next {
            Some(link) => path = link[1..link.find('>').unwrap()].to_owned(),
            None => break,
        }
    }
    state
}

fn amount(v: &Value) -> Decimal {
    Decimal::from_str(v["amount"].to_string().trim_matches('"')).unwrap()
}

/// Two devices of one user make random creates, updates and deletes (deletes racing
/// updates included); after a final sync each device's state equals the server's,
/// field by field, and the balance equals the initial balance plus the signed sum.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_devices_converge_on_the_server_state_through_the_feed() {
    use rand::{Rng, SeedableRng};
    let (app, user) = spawn_app_and_user().await;
    let mut rng = rand::rngs::StdRng::seed_from_u64(0x5eed);
    let mut a = Device::synced(&app, &user, 7).await;
    let mut b = Device::synced(&app, &user, 50).await;
    let wallet = json!({"name": "Main", "initialBalance": "100.00", "currency": "EUR"});
    assert_eq!(app.put(&user, "/api/wallet", &wallet).await.status(), 200);

    for step in 0..120 {
        let device_ids: Vec<(String, u64)> = if step % 2 == 0 { &a } else { &b }
            .items
            .keys()
            .cloned()
            .collect();
        let pick = |entity: &str, rng: &mut rand::rngs::StdRng| {
            let ids: Vec<u64> = device_ids
                .iter()
                .filter(|(e, _)| e == entity)
                .map(|(_, id)| *id)
                .collect();
            (!ids.is_empty()).then(|| ids[rng.random_range(0..ids.len())])
        };
        let own_categories: Vec<u64> = if step % 2 == 0 { &a } else { &b }
            .of("category")
            .into_iter()
            .filter(|(_, c)| c["isGlobal"] == false)
            .map(|(id, _)| id)
            .collect();
        let own_category = |rng: &mut rand::rngs::StdRng| {
            (!own_categories.is_empty())
                .then(|| own_categories[rng.random_range(0..own_categories.len())])
        };
        match rng.random_range(0..13) {
            // An own category renamed while another request deletes it (refused while
            // transactions use it), or used by a new transaction meanwhile.
            10 => {
                if let Some(id) = own_category(&mut rng) {
                    let path = format!("/api/categories/{id}");
                    let rename = json!({"categoryName": format!("k{step}"), "type": "DEBIT"});
                    let use_it = json!({"amount": "2.00", "categoryId": id, "date": "2021-05-05"});
                    let (r1, r2, r3) = tokio::join!(
                        app.put(&user, &path, &rename),
                        app.delete(&user, &path),
                        app.create_transaction(&user, &use_it),
                    );
                    assert_status_in(&r1, &[200, 404]);
                    assert_status_in(&r2, &[204, 404, 409]);
                    assert_status_in(&r3, &[201, 400]);
                }
            }
            11 => {
                if let Some(id) = pick("provider", &mut rng) {
                    let body = json!({"providerName": format!("q{step}")});
                    let path = format!("/api/providers/{id}");
                    let r = app.put(&user, &path, &body).await;
                    assert_status_in(&r, &[200, 404]);
                }
            }
            12 => {
                if let Some(id) = own_category(&mut rng) {
                    let body = json!({"categoryName": format!("m{step}"), "type": "DEBIT"});
                    let path = format!("/api/categories/{id}");
                    let r = app.put(&user, &path, &body).await;
                    assert_status_in(&r, &[200, 404]);
                }
            }
            0 => {
                app.create(&user, "/api/tags", &json!({"tagName": format!("t{step}")}))
                    .await;
            }
            1 => {
                app.create(
                    &user,
                    "/api/providers",
                    &json!({"providerName": format!("p{step}")}),
                )
                .await;
            }
            2 => {
                let body = json!({"categoryName": format!("c{step}"), "type": "DEBIT"});
                app.create(&user, "/api/categories", &body).await;
            }
            3 => {
                // A rename racing a delete of the same tag: one of them wins, either way
                // the feed must end in the server's state.
                if let Some(id) = pick("tag", &mut rng) {
                    let path = format!("/api/tags/{id}");
                    let rename = json!({"tagName": format!("r{step}")});
                    let (r1, r2) =
                        tokio::join!(app.put(&user, &path, &rename), app.delete(&user, &path));
                    assert_status_in(&r1, &[200, 404, 409]);
                    assert_status_in(&r2, &[204, 404, 409]);
                }
            }
            4..=6 => {
                let category = if rng.random_bool(0.5) { 1 } else { 4 };
                let cents: i64 = rng.random_range(1..100_000);
                let body = json!({"amount": Decimal::new(cents, 2).to_string(), "categoryId": category,
                    "date": format!("20{:02}-0{}-1{}", rng.random_range(10..27), rng.random_range(1..10), rng.random_range(0..10))});
                assert_eq!(app.create_transaction(&user, &body).await.status(), 201);
            }
            7 | 8 => {
                if let Some(id) = pick("transaction", &mut rng) {
                    let body = json!({"amount": "3.33", "categoryId": 4, "date": "2019-02-03", "note": format!("edit {step}")});
                    let (r1, r2) = tokio::join!(app.update_transaction(&user, id, &body), async {
                        if rng_bool(step) {
                            Some(app.delete_transaction(&user, id).await)
                        } else {
                            None
                        }
                    });
                    assert_status_in(&r1, &[200, 404]);
                    if let Some(r2) = r2 {
                        assert_status_in(&r2, &[204, 404]);
                    }
                }
            }
            _ => {
                if let Some(id) = pick("provider", &mut rng) {
                    let r = app.delete(&user, &format!("/api/providers/{id}")).await;
                    assert!([204, 404].contains(&r.status().as_u16()));
                }
            }
        }
        // Each device syncs now and then, with its own page size.
        if step % 7 == 0 {
            a.sync(&app, &user, 7).await;
        }
        if step % 11 == 0 {
            b.sync(&app, &user, 50).await;
        }
    }
    a.sync(&app, &user, 7).await;
    b.sync(&app, &user, 50).await;
    let server = server_state(&app, &user).await;
    let count = |e: &str| server.keys().filter(|(k, _)| k == e).count();
    eprintln!(
        "server state: {} transactions, {} tags, {} providers, {} categories",
        count("transaction"),
        count("tag"),
        count("provider"),
        count("category")
    );
    assert!(count("transaction") >= 10 && count("tag") >= 1 && count("category") >= 10);
    assert_eq!(a.items, server, "device A differs from the server");
    assert_eq!(b.items, server, "device B differs from the server");

    let signed: Decimal = a
        .of("transaction")
        .values()
        .map(|t| {
            if t["categoryType"] == "DEBIT" {
                -amount(&t["amount"])
            } else {
                amount(&t["amount"])
            }
        })
        .sum();
    let wallet = a.of("wallet").into_values().next().unwrap();
    assert_eq!(
        amount(&wallet["amountBalance"]),
        Decimal::from_str("100.00").unwrap() + signed
    );
}

fn rng_bool(step: usize) -> bool {
    step.is_multiple_of(3)
}

#[tokio::test]
async fn an_edit_of_an_old_transaction_and_a_delete_reach_the_feed_in_commit_order() {
    let (app, user) = spawn_app_and_user().await;
    let old = app.add_id(&user, "12.00", 4, "2019-01-15").await;
    let mut device = Device::synced(&app, &user, 200).await;
    assert!(device.items.contains_key(&("transaction".to_owned(), old)));
    let quiet = device.sync(&app, &user, 200).await;
    assert_eq!(quiet, 0, "nothing changed: an incremental sync is empty");

    let edit = json!({"amount": "13.00", "categoryId": 4, "date": "2019-01-15", "note": "fixed"});
    assert_eq!(
        app.update_transaction(&user, old, &edit).await.status(),
        200
    );
    let newer = app.add_id(&user, "1.00", 1, "2026-11-01").await;
    assert_eq!(app.delete_transaction(&user, newer).await.status(), 204);

    let r = app.sync_from(&user, device.cursor.as_ref().unwrap()).await;
    let page: Value = r.json().await.unwrap();
    let changes = page["changes"].as_array().unwrap();
    let summary: Vec<(String, u64, String)> = changes
        .iter()
        .map(|c| {
            (
                c["entity"].as_str().unwrap().to_owned(),
                c["id"].as_u64().unwrap(),
                c["op"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    // The edit, then the create replaced by its delete, then the wallet they moved.
    assert_eq!(
        summary[0],
        ("transaction".to_owned(), old, "upsert".to_owned())
    );
    assert_eq!(
        summary[1],
        ("transaction".to_owned(), newer, "delete".to_owned())
    );
    assert_eq!(summary[2].0, "wallet");
    assert_eq!(changes[0]["data"]["note"], "fixed");
    assert_eq!(changes[0]["version"], 2);
    assert_eq!(page["hasMore"], false);
    let get = get_json(&app, &user, &format!("/api/transactions/{old}")).await;
    assert_eq!(changes[0]["data"], get, "data is exactly the JSON of GET");
}

#[tokio::test]
async fn the_feed_holds_global_changes_for_everyone_and_nothing_of_other_users() {
    let app = spawn_app().await;
    let admin = app.new_admin().await;
    let ann = app.new_user().await;
    let bob = app.new_user().await;
    let mut feed_ann = Device::synced(&app, &ann, 100).await;
    Device::synced(&app, &bob, 100).await;
    let globals_before = feed_ann.of("category").len();

    let body = json!({"categoryName": "Pets", "type": "DEBIT", "isGlobal": true});
    let global = app.create(&admin, "/api/categories", &body).await;
    app.create(&bob, "/api/tags", &json!({"tagName": "bob-only"}))
        .await;
    app.add(&bob, "9.99", 4, "2026-01-02").await;
    let mine = app
        .create(&ann, "/api/tags", &json!({"tagName": "ann-only"}))
        .await;

    feed_ann.sync(&app, &ann, 100).await;
    assert!(feed_ann
        .items
        .contains_key(&("category".to_owned(), global)));
    assert!(feed_ann.items.contains_key(&("tag".to_owned(), mine)));
    assert_eq!(feed_ann.of("category").len(), globals_before + 1);
    // A first sync after the change holds it too: the shard's head moved, so the global
    // categories a first page read before are read again.
    let fresh = Device::synced(&app, &ann, 100).await;
    assert!(fresh.items.contains_key(&("category".to_owned(), global)));
    assert_eq!(fresh.of("category"), feed_ann.of("category"));
    assert!(
        feed_ann.of("transaction").is_empty(),
        "Bob's transaction reached Ann"
    );
    assert_eq!(feed_ann.of("tag").len(), 1, "Bob's tag reached Ann");
    assert_eq!(feed_ann.of("user").len(), 1);

    // Bob's account goes: nothing of it ever reaches Ann.
    let r = app.delete_self(&bob).await;
    assert_eq!(r.status(), 204);
    assert_eq!(feed_ann.sync(&app, &ann, 100).await, 0);

    // A cursor is bound to its user.
    let r = app
        .sync_from(&admin, feed_ann.cursor.as_ref().unwrap())
        .await;
    assert_problem(r, 400).await;
}

#[tokio::test]
async fn an_expired_cursor_is_gone_and_a_forged_one_is_refused() {
    let (app, user) = spawn_app_and_user().await;
    let device = Device::synced(&app, &user, 100).await;
    let stale = device.cursor.clone().unwrap();
    for i in 0..3 {
        app.create(&user, "/api/tags", &json!({"tagName": format!("t{i}")}))
            .await;
    }
    // The table's TTL removes entries older than the retention: remove the first one.
    let store = &app.state.store;
    store
        .client()
        .delete_item()
        .table_name(store.table())
        .key(
            "PK",
            aws_sdk_dynamodb::types::AttributeValue::S(format!("USER#{}", user.id)),
        )
        .key(
            "SK",
            aws_sdk_dynamodb::types::AttributeValue::S(format!("CHG#{:016}", 1)),
        )
        .send()
        .await
        .unwrap();
    let r = app.sync_from(&user, &stale).await;
    let problem = assert_problem(r, 410).await;
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("without a cursor"),
        "{problem}"
    );
    // Starting again without a cursor works.
    let fresh = Device::synced(&app, &user, 100).await;
    assert_eq!(fresh.of("tag").len(), 3);

    for bad in ["nonsense", &stale[..stale.len() - 2]] {
        let r = app.sync_from(&user, bad).await;
        assert_problem(r, 400).await;
    }
    for limit in ["0", "501", "x"] {
        let r = app.get(&user, &format!("/api/sync?limit={limit}")).await;
        assert_problem(r, 400).await;
    }
}

/// DynamoDB ends a Query at 1 MB whatever its limit: a page of large changes (notes of
/// 1,000 three-byte characters) ends short, and must say that more is there; a global
/// change made after them waits for them, as the clocks ordered it.
#[tokio::test]
async fn a_page_cut_short_by_dynamodbs_1_mb_says_more_is_there() {
    let app = spawn_app().await;
    let (user, admin) = (app.new_user().await, app.new_admin().await);
    let mut device = Device::synced(&app, &user, 500).await;
    let note: String = "家計簿の長いメモ".chars().cycle().take(1000).collect();
    // 16 a batch: a request body holds at most 64 KB.
    for _ in 0..25 {
        let create = json!({"op": "create",
            "body": {"amount": "1.00", "categoryId": 4, "date": "2026-03-01", "note": note}});
        let results = batch(&app, &user, Value::Array(vec![create; 16])).await;
        assert!(results.iter().all(|r| r["status"] == 201));
    }
    let body = json!({"categoryName": "Later", "type": "DEBIT", "isGlobal": true});
    let later = app.create(&admin, "/api/categories", &body).await;
    device.order.clear();
    device.sync(&app, &user, 500).await;
    assert_eq!(
        device.of("transaction").len(),
        400,
        "every change reached the device"
    );
    let at = |entity: &str| device.order.iter().rposition(|(e, _)| e == entity);
    let category = device
        .order
        .iter()
        .position(|k| *k == ("category".into(), later));
    assert!(
        category > at("transaction"),
        "the later global category came before a transaction: {category:?}"
    );
}

/// Every versioned resource: GET gives an ETag, If-None-Match with it is 304, a PUT or
/// DELETE with a stale If-Match is 412 and changes nothing, a current one succeeds.
#[tokio::test]
async fn every_resource_answers_304_and_412() {
    let (app, user) = spawn_app_and_user().await;
    let (tag, provider, category) = app.create_refs(&user, "a", "b", "c").await;
    let txn = app.add_id(&user, "5.00", 4, "2026-02-02").await;
    let rule_body = |name: &str| {
        json!({"name": name, "conditions": [{"field": "payee", "op": "contains", "value": "x"}],
               "actions": {"categoryId": 4}})
    };
    let rule = crate::rules::rule(&app, &user, rule_body("r")).await["id"].clone();
    let schedule = |amount: &str| json!({"amount": amount, "categoryId": 4, "start": "2026-01-31", "rrule": "FREQ=MONTHLY"});
    let recurring = app
        .create(&user, "/api/recurring", &schedule("10.00"))
        .await;
    let resources = [
        (format!("/api/rules/{rule}"), rule_body("r2"), true),
        (
            format!("/api/recurring/{recurring}"),
            schedule("11.00"),
            true,
        ),
        (format!("/api/tags/{tag}"), json!({"tagName": "a2"}), true),
        (
            format!("/api/providers/{provider}"),
            json!({"providerName": "b2"}),
            true,
        ),
        (
            format!("/api/categories/{category}"),
            json!({"categoryName": "c2", "type": "DEBIT"}),
            true,
        ),
        (
            format!("/api/transactions/{txn}"),
            json!({"amount": "6.00", "categoryId": 4, "date": "2026-02-02"}),
            true,
        ),
        (
            "/api/wallet".to_owned(),
            json!({"name": "W", "initialBalance": 1, "currency": "EUR"}),
            false,
        ),
        (
            format!("/users/{}", user.id),
            json!({"firstName": "Ann"}),
            true,
        ),
    ];
    for (path, body, deletable) in resources {
        let r = app.get(&user, &path).await;
        assert_eq!(r.status(), 200, "{path}");
        let etag = r.headers()["etag"].to_str().unwrap().to_owned();
        let revalidate = || {
            app.request(Method::GET, &path, Some(&user))
                .header("If-None-Match", &etag)
                .send()
        };
        let cached = revalidate().await.unwrap();
        assert_eq!(cached.status(), 304, "{path}");
        assert_eq!(cached.headers()["etag"].to_str().unwrap(), etag);
        assert!(cached.bytes().await.unwrap().is_empty());

        let put = |tag: &str| {
            app.request(Method::PUT, &path, Some(&user))
                .header("If-Match", tag)
                .json(&body)
                .send()
        };
        assert_problem(put("\"999\"").await.unwrap(), 412).await;
        let r = app.get(&user, &path).await;
        assert_eq!(
            r.headers()["etag"].to_str().unwrap(),
            etag,
            "{path}: a 412 changed nothing"
        );
        let r = put(&etag).await.unwrap();
        assert_eq!(r.status(), 200, "{path}");
        let new_tag = r.headers()["etag"].to_str().unwrap().to_owned();
        assert_ne!(new_tag, etag, "{path}");
        // The old version is stale now, for a read too.
        let fresh = revalidate().await.unwrap();
        assert_eq!(fresh.status(), 200, "{path}");
        if deletable && !path.starts_with("/users/") {
            let delete = |tag: &str| {
                app.request(Method::DELETE, &path, Some(&user))
                    .header("If-Match", tag)
                    .send()
            };
            assert_problem(delete(&etag).await.unwrap(), 412).await;
            assert_eq!(delete(&new_tag).await.unwrap().status(), 204, "{path}");
        }
    }
    // A transaction write moves the wallet's version (its balance changed).
    let before = app.get(&user, "/api/wallet").await.headers()["etag"].clone();
    app.add(&user, "1.00", 4, "2026-02-03").await;
    let after = app.get(&user, "/api/wallet").await.headers()["etag"].clone();
    assert_ne!(before, after);
    // A stale If-Match on the user's deletion is refused too.
    let r = app
        .request(Method::DELETE, &format!("/users/{}", user.id), Some(&user))
        .header("If-Match", "\"1\"")
        .json(&json!({"currentPassword": crate::helpers::PASSWORD}))
        .send()
        .await
        .unwrap();
    assert_problem(r, 412).await;
}

async fn batch(app: &TestApp, user: &TestUser, operations: Value) -> Vec<Value> {
    let r = app.post_batch(user, &operations).await;
    assert_eq!(r.status(), 200);
    r.json::<Value>().await.unwrap()["results"]
        .as_array()
        .unwrap()
        .clone()
}

/// An offline queue: each operation stands alone, in order; a repeated batch replays its
/// results without applying anything twice; the balance is exact whatever failed.
#[tokio::test]
async fn a_batch_applies_each_operation_on_its_own_and_replays_by_key() {
    let app = spawn_app().await;
    let ann = app.new_user().await;
    let bob = app.new_user().await;
    let bobs = app.add_id(&bob, "1.00", 4, "2026-01-01").await;
    let kept = app.add_id(&ann, "10.00", 4, "2026-01-01").await;
    let gone = app.add_id(&ann, "20.00", 4, "2026-01-02").await;
    let ops = json!([
        {"op": "create", "idempotencyKey": "c1", "body": {"amount": "5.00", "categoryId": 1, "date": "2026-03-01"}},
        {"op": "create", "idempotencyKey": "c2", "body": {"amount": "1", "categoryId": 999999, "date": "2026-03-01"}},
        {"op": "update", "id": kept, "ifMatch": "\"7\"", "idempotencyKey": "u0", "body": {"amount": "99.00", "categoryId": 4, "date": "2026-01-01"}},
        {"op": "update", "id": kept, "ifMatch": "\"1\"", "idempotencyKey": "u1", "body": {"amount": "11.00", "categoryId": 4, "date": "2026-01-01"}},
        {"op": "delete", "id": gone, "idempotencyKey": "d1"},
        {"op": "delete", "id": bobs, "idempotencyKey": "d2"},
        {"op": "create", "body": {"amount": "2.50", "categoryId": 4, "date": "2026-03-02"}},
    ]);
    let results = batch(&app, &ann, ops.clone()).await;
    let statuses: Vec<u64> = pluck(&results, "status", Value::as_u64);
    assert_eq!(statuses, [201, 400, 412, 200, 204, 404, 201]);
    assert_eq!(results[1]["body"]["status"], 400);
    assert!(results[1]["body"]["errors"].is_array(), "{}", results[1]);
    assert_eq!(results[3]["body"]["amount"]["amount"].to_string(), "11.00");
    assert!(results.iter().all(|r| r.get("replayed").is_none()));
    // 5.00 credit - 11.00 - 2.50 debits.
    assert_eq!(app.balance(&ann).await, "-8.50");
    assert_eq!(
        app.get_transaction(&bob, bobs).await.status(),
        200,
        "Bob's transaction is untouched"
    );

    // The queue is sent again (the device never saw the answer): keys replay, nothing
    // is applied twice; the operation without a key creates again, as a new request would.
    let again = batch(&app, &ann, ops).await;
    let statuses: Vec<u64> = pluck(&again, "status", Value::as_u64);
    assert_eq!(statuses, [201, 400, 412, 200, 204, 404, 201]);
    for i in [0, 3, 4] {
        assert_eq!(again[i]["replayed"], true, "{i}: {}", again[i]);
    }
    assert_eq!(again[0]["body"]["id"], results[0]["body"]["id"]);
    assert_eq!(
        again[3]["body"], results[3]["body"],
        "an update replays its first result"
    );
    assert_eq!(app.balance(&ann).await, "-11.00");
    let list: Vec<Value> = app.listed(&ann, "?limit=100").await;
    assert_eq!(list.len(), 4);

    // A key reused for another operation is refused.
    let reuse = batch(
        &app,
        &ann,
        json!([{"op": "delete", "id": kept, "idempotencyKey": "u1"}]),
    )
    .await;
    assert_eq!(reuse[0]["status"], 422);

    let too_many: Vec<Value> = (0..101)
        .map(|_| json!({"op": "delete", "id": kept}))
        .collect();
    let r = app.post_batch(&ann, &json!(too_many)).await;
    assert_problem(r, 400).await;
    let r = app.post_batch(&ann, &json!([{"op": "merge"}])).await;
    assert_eq!(r.status(), 200);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["results"][0]["status"], 400, "{body}");
    // The batch path takes only POST (documented as 405 where it meets `/{id}`).
    for method in [Method::GET, Method::PUT, Method::DELETE] {
        let r = app
            .call(method, "/api/transactions/batch", Some(&ann), None)
            .await;
        assert_problem(r, 405).await;
    }
    // An operation that breaks the schema gets its own 400; the others are applied.
    let malformed = json!({"operations": [
        {"op": "create", "body": {"amount": "2.00", "categoryId": 4, "date": "2026-03-01"}},
        {"op": "create", "body": {"amount": "-1", "categoryId": 4, "date": "2026-03-01"}},
    ]});
    let r = app.post(&ann, "/api/transactions/batch", &malformed).await;
    assert_eq!(r.status(), 200);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["results"][0]["status"], 201, "{body}");
    let problem = &body["results"][1]["body"];
    assert_eq!(body["results"][1]["status"], 400, "{body}");
    assert_eq!(problem["errors"][0]["field"], "body.amount", "{problem}");
    assert_eq!(app.balance(&ann).await, "-13.00");
}

/// A local table of the layout before heads moved onto wallets (`USER#<id>`, `FEED`):
/// the local server's upgrade moves the head onto the wallet, and writes and syncs go on
/// from there without a change lost or repeated.
#[tokio::test]
async fn the_local_upgrade_moves_a_feed_head_onto_the_wallet() {
    use aws_sdk_dynamodb::types::AttributeValue::{N, S};
    let (app, user) = spawn_app_and_user().await;
    let first = app.add(&user, "1.00", 4, "2026-08-01").await;
    let mut device = Device::synced(&app, &user, 50).await;
    let store = &app.state.store;
    let pk = format!("USER#{}", user.id);
    let head = store
        .feed_head(shared::store::feed::Feed::User(user.id))
        .await
        .unwrap();
    assert!(head >= 1);
    // The head as the earlier layout kept it.
    let put = store.client().put_item().table_name(store.table());
    put.item("PK", S(pk.clone()))
        .item("SK", S("FEED".into()))
        .item("seq", N(head.to_string()))
        .send()
        .await
        .unwrap();
    let strip = store.client().update_item().table_name(store.table());
    strip
        .key("PK", S(pk.clone()))
        .key("SK", S("WALLET".into()))
        .update_expression("REMOVE seq")
        .send()
        .await
        .unwrap();
    assert_eq!(local::upgrade::move_heads(store).await.unwrap(), 1);
    assert_eq!(
        local::upgrade::move_heads(store).await.unwrap(),
        0,
        "nothing left to move"
    );
    // A start of the local server records the layout once and scans no more.
    assert_eq!(local::upgrade::run(store).await.unwrap(), 0);
    let (pk_marker, sk_marker) = local::upgrade::MARKER;
    assert!(store.get(pk_marker, sk_marker).await.unwrap().is_some());
    assert!(store.get(&pk, "FEED").await.unwrap().is_none());
    let feed = shared::store::feed::Feed::User(user.id);
    assert_eq!(store.feed_head(feed).await.unwrap(), head);

    // The device's cursor goes on from the same sequence: it gets the new change.
    let second = app.add(&user, "2.00", 4, "2026-08-02").await;
    assert!(device.sync(&app, &user, 50).await >= 1);
    for t in [&first, &second] {
        let key = ("transaction".to_owned(), t["id"].as_u64().unwrap());
        assert_eq!(device.items.get(&key), Some(t));
    }
    assert_eq!(store.feed_head(feed).await.unwrap(), head + 1);
}

/// A first sync rebuilds what the lists say whatever its page size, also when a page ends
/// right after the profile, the wallet or the global categories (a first page takes the
/// profile and the wallet from the heads it reads and the global categories from the
/// cache; a later page reads them again).
#[tokio::test]
async fn a_first_sync_rebuilds_the_same_state_whatever_its_page_size() {
    let (app, user) = spawn_app_and_user().await;
    app.create_refs(&user, "a", "b", "c").await;
    app.add(&user, "2.50", 4, "2026-08-01").await;
    let expected = server_state(&app, &user).await;
    // Every size up to past the whole state, so that a first page ends at each phase's
    // edge (it asks a phase for what is left after the phases it already has).
    let size = expected.len();
    for limit in (1..=size + 2).chain([200]) {
        let device = Device::synced(&app, &user, limit).await;
        assert_eq!(device.items, expected, "page size {limit}");
        assert_eq!(device.of("wallet").len(), 1, "page size {limit}");
    }
}

/// A first page skips the phases the profile's counters say were empty, but only on a
/// profile counted since registration: one older than the counters (here a tag, a provider
/// and a category made, then counters that say none, as when counting began after they
/// were made and as many were deleted since) has every phase read, whatever the page size.
#[tokio::test]
async fn a_first_sync_trusts_no_counter_of_a_profile_older_than_its_counters() {
    let (app, user) = spawn_app_and_user().await;
    app.create_refs(&user, "a", "b", "c").await;
    app.add(&user, "2.50", 4, "2026-08-01").await;
    app.age_profile(&user).await;
    let expected = server_state(&app, &user).await;
    for entity in ["tag", "provider"] {
        assert_eq!(expected.keys().filter(|(e, _)| e == entity).count(), 1);
    }
    for limit in [1, 3, 200] {
        let device = Device::synced(&app, &user, limit).await;
        assert_eq!(device.items, expected, "page size {limit}");
    }
}

/// A first page sizes the phases after the counted ones by the counters it read with the
/// heads; when those say more than a phase holds by the time it is read (deleted since),
/// the page is filled in a next round or ends short with a cursor, and nothing is lost.
#[tokio::test]
async fn a_first_sync_whose_counters_say_more_than_is_left_loses_nothing() {
    let (app, user) = spawn_app_and_user().await;
    app.create_refs(&user, "a", "b", "c").await;
    for i in 0..3 {
        app.add(&user, "2.50", 4, &format!("2026-08-0{}", i + 1))
            .await;
    }
    let counters = "SET categoryCount = :n, tagCount = :n, providerCount = :n";
    app.update_profile(&user, counters, 190).await;
    let expected = server_state(&app, &user).await;
    assert_eq!(
        expected.keys().filter(|(e, _)| e == "transaction").count(),
        3
    );
    for limit in [1, 3, 50, 200, 500] {
        let device = Device::synced(&app, &user, limit).await;
        assert_eq!(device.items, expected, "page size {limit}");
    }
}

/// Tags, providers and categories made while devices begin their first syncs (each a new
/// user's, whose first page skips those phases while they are empty) reach every device:
/// what the first page skipped was written after the heads it read, so the feed has it.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn labels_made_during_first_syncs_reach_every_device() {
    let (app, user) = spawn_app_and_user().await;
    let writes = async {
        for i in 0..12 {
            let (tag, provider, category) = (format!("t{i}"), format!("p{i}"), format!("c{i}"));
            app.create_refs(&user, &tag, &provider, &category).await;
            if i % 3 == 2 {
                let tags: Value = get_json(&app, &user, "/api/tags").await;
                let id = tags[0]["id"].as_u64().unwrap();
                let r = app.delete(&user, &format!("/api/tags/{id}")).await;
                assert_eq!(r.status(), 204);
            }
        }
    };
    let devices = async {
        let mut devices = Vec::new();
        for round in 0..12 {
            devices.push(Device::synced(&app, &user, 1 + round % 4).await);
        }
        devices
    };
    let ((), mut devices) = tokio::join!(writes, devices);
    let expected = server_state(&app, &user).await;
    assert_eq!(expected.keys().filter(|(e, _)| e == "tag").count(), 8);
    for (i, device) in devices.iter_mut().enumerate() {
        device.sync(&app, &user, 50).await;
        assert_eq!(device.items, expected, "device {i}");
    }
}
