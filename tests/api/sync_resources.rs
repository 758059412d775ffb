//! Rules and recurring schedules in the change feed (`GET /api/sync`) and in the JSON
//! export: creates, updates and deletes in commit order with tombstones, the first sync's
//! snapshot, and never another user's.

use std::time::{Duration, Instant};

use reqwest::Method;
use serde_json::{json, Value};
use time::OffsetDateTime;

use crate::helpers::{spawn_app, urlencode, TestApp, TestUser};

/// Seeded global category 4 is Groceries (DEBIT).
const GROCERIES: u64 = 4;

fn coffee(name: &str) -> Value {
    json!({"name": name,
           "conditions": [{"field": "payee", "op": "contains", "value": "starbucks"}],
           "actions": {"categoryId": GROCERIES}})
}

fn rent(note: &str) -> Value {
    json!({"amount": "1200.00", "categoryId": GROCERIES, "note": note,
           "start": "2030-01-31", "rrule": "FREQ=MONTHLY;BYMONTHDAY=-1"})
}

/// Follows the feed from `cursor` until `hasMore` is false (pages of `limit`); returns
/// every change seen and leaves `cursor` at the last `nextCursor`.
async fn follow(
    app: &TestApp,
    user: &TestUser,
    cursor: &mut Option<String>,
    limit: usize,
) -> Vec<Value> {
    let mut changes = Vec::new();
    loop {
        let mut path = format!("/api/sync?limit={limit}");
        if let Some(c) = cursor {
            path.push_str(&format!("&cursor={}", urlencode(c)));
        }
        let r = app.get(user, &path).await;
        assert_eq!(r.status(), 200, "GET {path}");
        let page: Value = r.json().await.unwrap();
        changes.extend(page["changes"].as_array().unwrap().iter().cloned());
        *cursor = Some(page["nextCursor"].as_str().unwrap().to_owned());
        if !page["hasMore"].as_bool().unwrap() {
            return changes;
        }
    }
}

/// The changes of `entity`, as `(op, id, version)`.
fn of(changes: &[Value], entity: &str) -> Vec<(String, u64, u64)> {
    changes
        .iter()
        .filter(|c| c["entity"] == entity)
        .map(|c| {
            let op = c["op"].as_str().unwrap().to_owned();
            (
                op,
                c["id"].as_u64().unwrap(),
                c["version"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// The entity of each change, in order.
fn entities(changes: &[Value]) -> Vec<&str> {
    changes
        .iter()
        .map(|c| c["entity"].as_str().unwrap())
        .collect()
}

/// The `data` of the upsert of `(entity, id)` in `changes`.
fn data<'a>(changes: &'a [Value], entity: &str, id: u64) -> &'a Value {
    let change = changes
        .iter()
        .find(|c| c["entity"] == entity && c["id"] == id)
        .unwrap_or_else(|| panic!("no change of {entity} {id}"));
    &change["data"]
}

/// A `DELETE` that answers 204.
async fn delete(app: &TestApp, user: &TestUser, path: &str) {
    assert_eq!(app.delete(user, path).await.status(), 204, "DELETE {path}");
}

/// A `PUT` that answers 200.
async fn put(app: &TestApp, user: &TestUser, path: &str, body: Value) {
    assert_eq!(app.put(user, path, &body).await.status(), 200, "PUT {path}");
}

/// The JSON and the `ETag` version of a GET.
async fn get(app: &TestApp, user: &TestUser, path: &str) -> (Value, u64) {
    let r = app.get(user, path).await;
    assert_eq!(r.status(), 200, "GET {path}");
    let etag = r.headers()["etag"].to_str().unwrap().trim_matches('"');
    let version = etag.parse().unwrap();
    (r.json().await.unwrap(), version)
}

#[tokio::test]
async fn rules_and_schedules_are_in_the_feed_in_commit_order_with_tombstones() {
    let app = spawn_app().await;
    let user = app.new_user().await;
    let mut cursor = None;
    follow(&app, &user, &mut cursor, 200).await;

    // Created: each an upsert with the JSON its GET answers, in commit order.
    let rule = app.create(&user, "/api/rules", &coffee("Coffee")).await;
    let schedule = app.create(&user, "/api/recurring", &rent("Rent")).await;
    let changes = follow(&app, &user, &mut cursor, 200).await;
    assert_eq!(entities(&changes), ["rule", "recurring"]);
    let (rule_json, v) = get(&app, &user, &format!("/api/rules/{rule}")).await;
    assert_eq!((v, data(&changes, "rule", rule)), (1, &rule_json));
    let (schedule_json, v) = get(&app, &user, &format!("/api/recurring/{schedule}")).await;
    assert_eq!(
        (v, data(&changes, "recurring", schedule)),
        (1, &schedule_json)
    );

    // Updated, and an occurrence skipped (it moves the schedule's version).
    let path = format!("/api/rules/{rule}");
    put(&app, &user, &path, coffee("Cafe")).await;
    let path = format!("/api/recurring/{schedule}");
    put(&app, &user, &path, rent("Flat")).await;
    let skip = format!("/api/recurring/{schedule}/occurrences/2030-02-28");
    put(&app, &user, &skip, json!({"skip": true})).await;
    let changes = follow(&app, &user, &mut cursor, 200).await;
    // A later change of an item within a page replaces the earlier one.
    assert_eq!(of(&changes, "rule"), [("upsert".into(), rule, 2)]);
    assert_eq!(of(&changes, "recurring"), [("upsert".into(), schedule, 3)]);
    assert_eq!(changes.len(), 2);
    assert_eq!(data(&changes, "rule", rule)["name"], "Cafe");
    let (schedule_json, _) = get(&app, &user, &format!("/api/recurring/{schedule}")).await;
    assert_eq!(data(&changes, "recurring", schedule), &schedule_json);

    // Deleted: tombstones with the version deleted and no data, in commit order.
    delete(&app, &user, &format!("/api/recurring/{schedule}")).await;
    delete(&app, &user, &format!("/api/rules/{rule}")).await;
    let changes = follow(&app, &user, &mut cursor, 200).await;
    assert_eq!(entities(&changes), ["recurring", "rule"]);
    assert_eq!(of(&changes, "recurring"), [("delete".into(), schedule, 3)]);
    assert_eq!(of(&changes, "rule"), [("delete".into(), rule, 2)]);
    assert!(changes.iter().all(|c| c.get("data").is_none()));
    // A first sync no longer holds them.
    let snapshot = follow(&app, &user, &mut None, 200).await;
    assert!(of(&snapshot, "rule").is_empty() && of(&snapshot, "recurring").is_empty());
}

#[tokio::test]
async fn a_stale_if_match_deletes_nothing_and_leaves_no_tombstone() {
    let app = spawn_app().await;
    let user = app.new_user().await;
    let rule = app.create(&user, "/api/rules", &coffee("Coffee")).await;
    let schedule = app.create(&user, "/api/recurring", &rent("Rent")).await;
    let mut cursor = None;
    follow(&app, &user, &mut cursor, 200).await;
    for path in [
        format!("/api/rules/{rule}"),
        format!("/api/recurring/{schedule}"),
    ] {
        let r = app
            .request(Method::DELETE, &path, Some(&user))
            .header("if-match", "\"7\"")
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 412);
        assert_eq!(app.get(&user, &path).await.status(), 200);
    }
    assert!(follow(&app, &user, &mut cursor, 200).await.is_empty());
}

#[tokio::test]
async fn the_job_creating_an_occurrence_moves_the_schedule_in_the_feed() {
    let app = spawn_app().await;
    let user = app.new_user().await;
    let today = OffsetDateTime::now_utc().date();
    let start = today - time::Duration::days(1);
    let body = json!({"amount": "5.00", "categoryId": GROCERIES, "start": start.to_string(),
                      "rrule": "FREQ=DAILY;COUNT=1", "backfill": true});
    let schedule = app.create(&user, "/api/recurring", &body).await;
    let mut cursor = None;
    follow(&app, &user, &mut cursor, 200).await;
    let deadline = Instant::now() + Duration::from_secs(20);
    shared::app::recurring::run_due(&app.state.store, today, deadline)
        .await
        .unwrap();
    let changes = follow(&app, &user, &mut cursor, 200).await;
    assert_eq!(entities(&changes), ["transaction", "recurring", "wallet"]);
    let (schedule_json, version) = get(&app, &user, &format!("/api/recurring/{schedule}")).await;
    assert_eq!(
        of(&changes, "recurring"),
        [("upsert".into(), schedule, version)]
    );
    assert_eq!(version, 2);
    assert_eq!(data(&changes, "recurring", schedule), &schedule_json);
    assert_eq!(
        data(&changes, "transaction", changes[0]["id"].as_u64().unwrap())["recurringId"],
        schedule
    );
}

#[tokio::test]
async fn a_first_sync_holds_the_callers_rules_and_schedules_and_never_another_users() {
    let app = spawn_app().await;
    let (me, other) = (app.new_user().await, app.new_user().await);
    let mine = [
        app.create(&me, "/api/rules", &coffee("A")).await,
        app.create(&me, "/api/rules", &coffee("B")).await,
    ];
    let my_schedule = app.create(&me, "/api/recurring", &rent("Rent")).await;
    let theirs = app.create(&other, "/api/rules", &coffee("Theirs")).await;
    let their_schedule = app.create(&other, "/api/recurring", &rent("Theirs")).await;

    // Small pages: the snapshot's phases are crossed mid-page and at page ends.
    let mut cursor = None;
    let snapshot = follow(&app, &me, &mut cursor, 2).await;
    let rules: Vec<u64> = of(&snapshot, "rule").iter().map(|c| c.1).collect();
    let mut want = mine.to_vec();
    want.sort_unstable();
    let mut got = rules.clone();
    got.sort_unstable();
    assert_eq!(got, want);
    for id in mine {
        let (json, _) = get(&app, &me, &format!("/api/rules/{id}")).await;
        assert_eq!(data(&snapshot, "rule", id), &json);
    }
    let (json, _) = get(&app, &me, &format!("/api/recurring/{my_schedule}")).await;
    assert_eq!(
        of(&snapshot, "recurring"),
        [("upsert".into(), my_schedule, 1)]
    );
    assert_eq!(data(&snapshot, "recurring", my_schedule), &json);

    // The other user's changes never reach my feed.
    let path = format!("/api/rules/{theirs}");
    put(&app, &other, &path, coffee("Still theirs")).await;
    delete(&app, &other, &format!("/api/recurring/{their_schedule}")).await;
    assert!(follow(&app, &me, &mut cursor, 200).await.is_empty());
    let ids: Vec<u64> = snapshot.iter().filter_map(|c| c["id"].as_u64()).collect();
    assert!(!ids.contains(&theirs) && !ids.contains(&their_schedule));
    // Nor do they see mine.
    let theirs_seen = follow(&app, &other, &mut None, 200).await;
    assert_eq!(of(&theirs_seen, "rule").len(), 1);
    assert!(of(&theirs_seen, "recurring").is_empty());
}

#[tokio::test]
async fn the_json_export_holds_rules_in_order_and_schedules_with_their_changed_occurrences() {
    let app = spawn_app().await;
    let (me, other) = (app.new_user().await, app.new_user().await);
    let last = app.create(&me, "/api/rules", &coffee("Second")).await;
    let mut first = coffee("First");
    first["position"] = json!(0);
    let path = format!("/api/rules/{last}");
    let mut moved = coffee("Second");
    moved["position"] = json!(5);
    put(&app, &me, &path, moved).await;
    let first = app.create(&me, "/api/rules", &first).await;
    let schedule = app.create(&me, "/api/recurring", &rent("Rent")).await;
    let occurrence = |date: &str| format!("/api/recurring/{schedule}/occurrences/{date}");
    put(&app, &me, &occurrence("2030-02-28"), json!({"skip": true})).await;
    let change = json!({"date": "2030-03-29", "amount": "1250.00"});
    put(&app, &me, &occurrence("2030-03-31"), change).await;
    app.create(&other, "/api/rules", &coffee("Theirs")).await;
    app.create(&other, "/api/recurring", &rent("Theirs")).await;

    let r = app.get(&me, "/api/export?format=json").await;
    assert_eq!(r.status(), 200);
    let doc: Value = r.json().await.unwrap();
    let listed: Value = app.get(&me, "/api/rules").await.json().await.unwrap();
    assert_eq!(doc["rules"], listed);
    let ids: Vec<u64> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_u64().unwrap())
        .collect();
    assert_eq!(ids, [first, last]);

    let exported = doc["recurring"].as_array().unwrap();
    assert_eq!(exported.len(), 1);
    let mut schedule_json = exported[0].clone();
    let exceptions = schedule_json
        .as_object_mut()
        .unwrap()
        .remove("exceptions")
        .unwrap();
    let (got, _) = get(&app, &me, &format!("/api/recurring/{schedule}")).await;
    assert_eq!(schedule_json, got);
    let skipped = json!({"nominalDate": "2030-02-28", "skip": true, "date": null, "amount": null});
    assert_eq!(exceptions[0], skipped);
    let moved = &exceptions[1];
    assert_eq!(
        (&moved["nominalDate"], &moved["skip"]),
        (&json!("2030-03-31"), &json!(false))
    );
    assert_eq!(moved["date"], "2030-03-29");
    assert_eq!(
        moved["amount"]["amount"].to_string().trim_matches('"'),
        "1250.00"
    );
    assert_eq!(moved["amount"]["currency"], got["amount"]["currency"]);
    assert_eq!(exceptions.as_array().unwrap().len(), 2);

    // The other user's export holds theirs only.
    let r = app.get(&other, "/api/export?format=json").await;
    let theirs: Value = r.json().await.unwrap();
    assert_eq!(theirs["rules"].as_array().unwrap().len(), 1);
    assert_eq!(theirs["rules"][0]["name"], "Theirs");
    assert_eq!(theirs["recurring"][0]["exceptions"], json!([]));
}
