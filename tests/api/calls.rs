//! Each transaction endpoint makes the DynamoDB calls the README (Storage) promises,
//! counted by the SDK interceptor: reads one round trip, lists one Query, writes one TransactWriteItems
//! after one BatchGetItem (or GetItem) of what they depend on; and a caller's token costs
//! one `GetItem` of their session epoch at most every 5 s per instance.

use std::collections::BTreeMap;
use std::future::Future;

use serde_json::json;

use crate::helpers::{spawn_app_and_user, TestApp, TestUser};

/// What `f` gives and the DynamoDB calls made while it ran, by operation.
async fn calls_during<T>(app: &TestApp, f: impl Future<Output = T>) -> (T, BTreeMap<String, u64>) {
    let before = app.state.store.calls().snapshot();
    let out = f.await;
    let after = app.state.store.calls().snapshot();
    let made = after
        .into_iter()
        .filter_map(|(op, n)| {
            let d = n - before.get(&op).copied().unwrap_or(0);
            (d > 0).then_some((op, d))
        })
        .collect();
    (out, made)
}

/// Makes `user` known to the instance, as anyone is after their first request: the
/// `Caller` read their session epoch just now (one `GetItem` of the profile's, which a
/// caller's requests then skip for 5 s; see `a_callers_session_epoch_is_read_once_in_five_seconds`).
async fn warm(app: &TestApp, user: &TestUser) {
    app.state.store.forget_session_epoch(user.id);
    assert_eq!(app.get(user, "/api/wallet").await.status(), 200);
}

/// What a request of a known `user` (see [`warm`]) gives and the DynamoDB calls it made.
async fn calls_as<T>(
    app: &TestApp,
    user: &TestUser,
    f: impl Future<Output = T>,
) -> (T, BTreeMap<String, u64>) {
    warm(app, user).await;
    calls_during(app, f).await
}

/// The DynamoDB calls of a request of a known `user` that succeeds.
async fn calls_of(
    app: &TestApp,
    user: &TestUser,
    f: impl Future<Output = reqwest::Response>,
) -> BTreeMap<String, u64> {
    let (r, made) = calls_as(app, user, f).await;
    assert!(r.status().is_success(), "{}", r.status());
    made
}

fn ops(list: &[(&str, u64)]) -> BTreeMap<String, u64> {
    list.iter().map(|(k, v)| (k.to_string(), *v)).collect()
}

#[tokio::test]
async fn each_transaction_endpoint_makes_its_budgeted_dynamodb_calls() {
    let (app, user) = spawn_app_and_user().await;
    let body = json!({"amount": "5.00", "categoryId": 4, "date": "2026-08-01"});

    let create = calls_of(&app, &user, app.create_transaction(&user, &body)).await;
    assert_eq!(
        create,
        ops(&[("BatchGetItem", 1), ("TransactWriteItems", 1)])
    );

    let id = app.add_id(&user, "6.00", 4, "2026-08-02").await;
    assert_eq!(
        calls_of(&app, &user, app.get_transaction(&user, id)).await,
        ops(&[("GetItem", 1)])
    );
    assert_eq!(
        calls_of(&app, &user, app.list_transactions(&user, "?type=DEBIT")).await,
        ops(&[("Query", 1)])
    );
    assert_eq!(
        calls_of(&app, &user, app.update_transaction(&user, id, &body)).await,
        ops(&[("BatchGetItem", 1), ("TransactWriteItems", 1)])
    );
    assert_eq!(
        calls_of(&app, &user, app.delete_transaction(&user, id)).await,
        ops(&[("BatchGetItem", 1), ("TransactWriteItems", 1)])
    );
    let wallet = app.get(&user, "/api/wallet");
    assert_eq!(calls_of(&app, &user, wallet).await, ops(&[("GetItem", 1)]));
    // Never a Scan anywhere.
    assert!(!app.state.store.calls().snapshot().contains_key("Scan"));
}

#[tokio::test]
async fn the_recurring_job_finds_due_schedules_with_one_index_query_per_shard() {
    let (app, user) = spawn_app_and_user().await;
    let today = time::OffsetDateTime::now_utc().date();
    let body = json!({"amount": "5.00", "categoryId": 4, "start": today.to_string(),
                      "rrule": "FREQ=DAILY"});
    let create = calls_of(&app, &user, app.post(&user, "/api/recurring", &body)).await;
    // The references (as a transaction reads them), the count of schedules, the feed's
    // head, and the put with its change entry in one transaction.
    assert_eq!(
        create,
        ops(&[
            ("BatchGetItem", 1),
            ("GetItem", 1),
            ("Query", 1),
            ("TransactWriteItems", 1)
        ])
    );
    let list = calls_of(&app, &user, app.get(&user, "/api/recurring")).await;
    assert_eq!(list, ops(&[("Query", 1)]));

    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let run = shared::app::recurring::run_due(&app.state.store, today, deadline);
    let (report, job) = calls_during(&app, run).await;
    assert_eq!(report.unwrap().created, 1);
    // One Query of the due-date index per shard (no Scan), then per due schedule: its
    // item, the references and one TransactWriteItems per occurrence.
    let shards = shared::store::keys::SHARDS;
    assert_eq!(
        job,
        ops(&[
            ("BatchGetItem", 1),
            ("GetItem", 1),
            ("Query", shards),
            ("TransactWriteItems", 1)
        ])
    );
    assert!(!app.state.store.calls().snapshot().contains_key("Scan"));
}

/// A sync page from a cursor reads what a list page reads: one `Query` of the user's feed
/// (the entries carry the transactions their writes put) and the two feed heads (the
/// user's is their wallet, sent with the page) at the same time; the shard's feed only
/// when a global category changed; never the changed items again.
#[tokio::test]
async fn a_sync_page_reads_its_entries_not_the_items_again() {
    let (app, user) = spawn_app_and_user().await;
    // A first sync, to its end.
    let first = app.get(&user, "/api/sync?limit=500").await;
    let mut page: serde_json::Value = first.json().await.unwrap();
    while page["hasMore"] == true {
        let next = page["nextCursor"].as_str().unwrap();
        page = app.sync_from(&user, next).await.json().await.unwrap();
    }
    let cursor = page["nextCursor"].as_str().unwrap().to_owned();
    let mut ids = Vec::new();
    for day in 1..=30 {
        let t = app
            .add(&user, "2.50", 4, &format!("2026-08-{day:02}"))
            .await;
        ids.push(t["id"].as_u64().unwrap());
    }
    let edit = json!({"amount": "7.25", "categoryId": 4, "date": "2026-08-03", "note": "edited"});
    assert_eq!(
        app.update_transaction(&user, ids[2], &edit).await.status(),
        200
    );
    assert_eq!(app.delete_transaction(&user, ids[5]).await.status(), 204);

    let (r, made) = calls_as(&app, &user, app.sync_from(&user, &cursor)).await;
    assert_eq!(r.status(), 200);
    let page: serde_json::Value = r.json().await.unwrap();
    assert_eq!(made, ops(&[("Query", 1), ("BatchGetItem", 1)]));

    // 28 transactions as they are now, the deleted one's tombstone, then the wallet.
    let changes = page["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 31);
    let edited = changes
        .iter()
        .find(|c| c["id"] == ids[2] && c["entity"] == "transaction")
        .unwrap();
    assert_eq!(edited["data"]["note"], "edited");
    assert_eq!(edited["data"]["amount"]["amount"].to_string(), "7.25");
    let gone = changes.iter().find(|c| c["id"] == ids[5]).unwrap();
    assert_eq!(
        (gone["op"].as_str(), gone.get("data")),
        (Some("delete"), None)
    );
    let get = app.get_transaction(&user, ids[2]).await;
    let get: serde_json::Value = get.json().await.unwrap();
    assert_eq!(edited["data"], get, "data is exactly the JSON of GET");
    let wallet = changes.last().unwrap();
    assert_eq!(wallet["entity"], "wallet");
    assert_eq!(
        wallet["data"]["amountBalance"]["amount"].to_string(),
        "-77.25"
    );
}

/// A first sync page reads the two feed heads with the user's wallet (their head) and
/// profile as of one moment (one `TransactGetItems`), then one `Query` a phase, but none
/// for the phases the profile's counters say were empty then; the shard's global
/// categories only until a first page read them under the same head. A profile whose
/// counters do not count from registration (older than them) has every phase read.
#[tokio::test]
async fn a_first_sync_page_reads_the_heads_then_one_query_a_phase_that_holds_any() {
    let (app, user) = spawn_app_and_user().await;
    let sync = || app.get(&user, "/api/sync?limit=500");
    let (r, first) = calls_as(&app, &user, sync()).await;
    assert_eq!(r.status(), 200);
    let page: serde_json::Value = r.json().await.unwrap();
    // Global categories and transactions; no own categories, tags, providers, rules or
    // schedules yet.
    assert_eq!(first, ops(&[("TransactGetItems", 1), ("Query", 2)]));
    let (r, again) = calls_as(&app, &user, sync()).await;
    let same: serde_json::Value = r.json().await.unwrap();
    assert_eq!(again, ops(&[("TransactGetItems", 1), ("Query", 1)]));
    assert_eq!(same["changes"], page["changes"]);
    let changes = page["changes"].as_array().unwrap();
    for entity in ["user", "wallet"] {
        assert_eq!(changes.iter().filter(|c| c["entity"] == entity).count(), 1);
    }

    // A tag and a provider: their two phases are read; deleted again, skipped again.
    let tag = app
        .create(&user, "/api/tags", &json!({"tagName": "t"}))
        .await;
    app.create(&user, "/api/providers", &json!({"providerName": "p"}))
        .await;
    let (_, made) = calls_as(&app, &user, sync()).await;
    assert_eq!(made, ops(&[("TransactGetItems", 1), ("Query", 3)]));
    assert_eq!(
        app.delete(&user, &format!("/api/tags/{tag}"))
            .await
            .status(),
        204
    );
    let (_, made) = calls_as(&app, &user, sync()).await;
    assert_eq!(made, ops(&[("TransactGetItems", 1), ("Query", 2)]));

    // A profile from before the counters counted from registration: every phase.
    app.age_profile(&user).await;
    let (_, made) = calls_as(&app, &user, sync()).await;
    // Own categories, tags, providers, transactions, rules and schedules.
    assert_eq!(made, ops(&[("TransactGetItems", 1), ("Query", 6)]));
}

#[tokio::test]
async fn an_import_reads_the_wallet_once_and_each_list_of_names_once() {
    let (app, user) = spawn_app_and_user().await;
    app.create(&user, "/api/tags", &json!({"tagName": "food"}))
        .await;
    app.create(
        &user,
        "/api/providers",
        &json!({"providerName": "Corner Shop"}),
    )
    .await;
    let file = "Date,Amount,Category,Payee,Tags\n\
                2026-03-01,-12.50,Groceries,Corner Shop,food\n\
                2026-03-02,-7.25,groceries,corner shop,Food\n";
    let post = app.upload(&user, "", "text/csv", file.as_bytes().to_vec());
    let made = calls_of(&app, &user, post).await;
    // The wallet (once: read before the file, for its currency) and the change feed's
    // head; global and own categories, providers, tags and rules; the rows' import ids;
    // one write of both rows.
    assert_eq!(
        made,
        ops(&[
            ("GetItem", 2),
            ("Query", 5),
            ("BatchGetItem", 1),
            ("TransactWriteItems", 1)
        ])
    );
}

#[tokio::test]
async fn a_create_left_to_rules_and_provider_reads_each_once_and_a_batch_loads_rules_once() {
    let (app, user) = spawn_app_and_user().await;
    let rule = json!({"name": "Never", "conditions": [{"field": "note", "op": "contains", "value": "zzz"}],
                      "actions": {"categoryId": 4}});
    app.create(&user, "/api/rules", &rule).await;
    let shop = json!({"providerName": "REWE", "defaultCategoryId": 4});
    let shop = app.create(&user, "/api/providers", &shop).await;
    let body = json!({"amount": "5.00", "date": "2026-08-01", "providerId": shop});
    // The provider once (the rules' payee and its default), the rules, the references,
    // the write.
    let create = calls_of(&app, &user, app.create_transaction(&user, &body)).await;
    let one = [
        ("GetItem", 1),
        ("Query", 1),
        ("BatchGetItem", 1),
        ("TransactWriteItems", 1),
    ];
    assert_eq!(create, ops(&one));
    let create = json!({"op": "create", "body": body});
    let operations = json!([create, create, create]);
    let made = calls_of(&app, &user, app.post_batch(&user, &operations)).await;
    let three = one.map(|(op, n)| (op, if op == "Query" { n } else { 3 * n }));
    assert_eq!(made, ops(&three));
}

/// The `Caller` reads the caller's session epoch (one `GetItem` of it alone) on their first
/// request to an instance, then not again for 5 s: a point read stays one round trip.
#[tokio::test]
async fn a_callers_session_epoch_is_read_once_in_five_seconds() {
    let (app, user) = spawn_app_and_user().await;
    let id = app.add_id(&user, "6.00", 4, "2026-08-02").await;
    app.state.store.forget_session_epoch(user.id);
    let cold = calls_during(&app, app.get_transaction(&user, id)).await.1;
    assert_eq!(cold, ops(&[("GetItem", 2)]));
    let warm = calls_during(&app, app.get_transaction(&user, id)).await.1;
    assert_eq!(warm, ops(&[("GetItem", 1)]));
    let list = calls_during(&app, app.list_transactions(&user, "")).await.1;
    assert_eq!(list, ops(&[("Query", 1)]));
}
