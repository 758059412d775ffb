//! What all users share is split into shards (`store::keys::SHARDS`): the users index and
//! the global categories with their change feed. Users of different shards see the same
//! thing, admins list everyone, and seeding makes (and upgrades to) the copies.

use std::collections::BTreeSet;

use aws_sdk_dynamodb::types::AttributeValue;
use serde_json::{json, Value};
use shared::store::keys::{global_pk, shard_of, GLOBAL_PK, SHARDS};
use shared::store::Store;

use crate::helpers::{assert_problem, spawn_app, spawn_app_and_user, TestApp, TestUser};

fn attr(v: &str) -> AttributeValue {
    AttributeValue::S(v.to_owned())
}

async fn delete_item(store: &Store, pk: &str, sk: &str) {
    store
        .client()
        .delete_item()
        .table_name(store.table())
        .key("PK", attr(pk))
        .key("SK", attr(sk))
        .send()
        .await
        .unwrap();
}

/// Every user of the admin list, following its `Link` pages.
async fn list_all(app: &TestApp, admin: &TestUser, limit: usize) -> Vec<u64> {
    let mut seen = Vec::new();
    for page in app.pages(admin, &format!("/users?limit={limit}")).await {
        assert!(page.len() <= limit);
        seen.extend(page.iter().map(|u| u["id"].as_u64().unwrap()));
    }
    seen
}

/// Two users of different shards.
async fn users_of_two_shards(app: &TestApp) -> (TestUser, TestUser) {
    let first = app.new_user().await;
    loop {
        let other = app.new_user().await;
        if shard_of(other.id) != shard_of(first.id) {
            return (first, other);
        }
    }
}

#[tokio::test]
async fn the_admin_list_pages_through_every_shard() {
    let app = spawn_app().await;
    let admin = app.new_admin().await;
    let mut ids = vec![admin.id];
    for _ in 0..11 {
        ids.push(app.new_user().await.id);
    }
    let shards: BTreeSet<u64> = ids.iter().map(|id| shard_of(*id)).collect();
    assert!(shards.len() >= 4, "12 users in {} shards", shards.len());

    let mut expected = ids.clone();
    expected.sort_unstable();
    for limit in [1, 2, 5, 50] {
        assert_eq!(
            list_all(&app, &admin, limit).await,
            expected,
            "limit {limit}"
        );
    }
}

/// Follows the feed to its end from `cursor`; returns the changes and the last cursor.
async fn sync_to_end(
    app: &TestApp,
    user: &TestUser,
    mut cursor: Option<String>,
) -> (Vec<Value>, String) {
    let mut changes = Vec::new();
    loop {
        let mut path = "/api/sync?limit=500".to_owned();
        if let Some(c) = &cursor {
            let c: String = form_urlencoded::byte_serialize(c.as_bytes()).collect();
            path.push_str(&format!("&cursor={c}"));
        }
        let page: Value = app.get_json(user, &path).await;
        changes.extend(page["changes"].as_array().unwrap().iter().cloned());
        let next = page["nextCursor"].as_str().unwrap().to_owned();
        if !page["hasMore"].as_bool().unwrap() {
            return (changes, next);
        }
        cursor = Some(next);
    }
}

#[tokio::test]
async fn a_global_category_created_and_renamed_by_an_admin_reaches_users_of_every_shard() {
    let app = spawn_app().await;
    let admin = app.new_admin().await;
    let (ann, bob) = users_of_two_shards(&app).await;
    let (_, ann_cursor) = sync_to_end(&app, &ann, None).await;
    let (_, bob_cursor) = sync_to_end(&app, &bob, None).await;

    let gifts = app
        .create(
            &admin,
            "/api/categories",
            &json!({"categoryName": "Gifts", "type": "CREDIT", "isGlobal": true}),
        )
        .await;
    let rename = json!({"categoryName": "Presents", "type": "CREDIT"});
    let path = format!("/api/categories/{gifts}");
    let r = app.put(&admin, &path, &rename).await;
    assert_eq!(r.status(), 200);

    for (user, cursor) in [(&ann, ann_cursor), (&bob, bob_cursor)] {
        let list: Vec<Value> = app.get_json(user, "/api/categories").await;
        let found = list.iter().find(|c| c["id"] == gifts).expect("listed");
        assert_eq!(found["categoryName"], "Presents");
        let (changes, _) = sync_to_end(&app, user, Some(cursor)).await;
        let change = changes
            .iter()
            .find(|c| c["entity"] == "category" && c["id"] == gifts)
            .expect("the change reaches the user's shard feed");
        assert_eq!(change["data"]["categoryName"], "Presents");
        // And the user can use it.
        let body = json!({"amount": "5.00", "categoryId": gifts, "date": "2026-08-01"});
        assert_eq!(app.create_transaction(user, &body).await.status(), 201);
    }
    // Every copy is at the same version.
    let store = &app.state.store;
    for pk in std::iter::once(GLOBAL_PK.to_owned()).chain((0..SHARDS).map(global_pk)) {
        let copies = store.list_categories_in(&pk).await.unwrap();
        let copy = copies.iter().find(|c| c.id == gifts).expect(&pk);
        assert_eq!((copy.name.as_str(), copy.version), ("Presents", 2), "{pk}");
    }
}

/// Global categories cannot be deleted (nor change type), so a write does not check the
/// copy again (2 write units saved per write); a copy that is missing all the same (an
/// operator's hand in the table) is refused by the references the write reads.
#[tokio::test]
async fn a_transaction_cannot_take_a_global_category_whose_copy_is_missing() {
    let (app, user) = spawn_app_and_user().await;
    let admin = app.new_admin().await;
    let body = json!({"amount": "5.00", "categoryId": 4, "date": "2026-08-01"});
    assert_eq!(app.create_transaction(&user, &body).await.status(), 201);
    let r = app.delete(&admin, "/api/categories/4").await;
    assert_problem(r, 409).await;

    delete_item(&app.state.store, &global_pk(shard_of(user.id)), "CAT#4").await;
    assert_eq!(app.create_transaction(&user, &body).await.status(), 400);
    assert_eq!(app.balance(&user).await, "-5.00");
}

#[tokio::test]
async fn seeding_is_idempotent_and_adds_new_defaults_only() {
    let app = spawn_app().await;
    let store = &app.state.store;
    let admin = app.new_admin().await;
    // Seeding runs at each deployment: the first was at the table's creation.
    let february = "2026-02-01T00:00:00";
    // An admin's edit survives seeding again.
    let rename = json!({"categoryName": "Food", "type": "DEBIT"});
    let r = app.put(&admin, "/api/categories/4", &rename).await;
    assert_eq!(r.status(), 200);
    store.seed_global_categories(february).await.unwrap();
    assert!(store.global_categories_seeded().await.unwrap());
    for shard in 0..SHARDS {
        let copies = store.list_categories_in(&global_pk(shard)).await.unwrap();
        assert_eq!(copies.len(), 14);
        assert_eq!(copies[3].name, "Food");
    }

    // A deployment seeded before the two `Uncategorized` defaults were added: its markers
    // count 12 defaults and its shards lack the two. It is not "seeded" until they
    // are written, and seeding again writes them and nothing else.
    for pk in std::iter::once(GLOBAL_PK.to_owned()).chain((0..SHARDS).map(global_pk)) {
        for id in [13, 14] {
            delete_item(store, &pk, &format!("CAT#{id}")).await;
        }
    }
    for shard in 0..SHARDS {
        let marker = store.client().put_item().table_name(store.table());
        marker
            .item("PK", attr(&global_pk(shard)))
            .item("SK", attr("SEEDED"))
            .item("shards", AttributeValue::N(SHARDS.to_string()))
            .item("defaults", AttributeValue::N("12".into()))
            .send()
            .await
            .unwrap();
    }
    assert!(!store.global_categories_seeded().await.unwrap());
    store.seed_global_categories(february).await.unwrap();
    assert!(store.global_categories_seeded().await.unwrap());
    for shard in 0..SHARDS {
        let copies = store.list_categories_in(&global_pk(shard)).await.unwrap();
        let names: Vec<&str> = copies.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names.len(), 14);
        assert_eq!(&names[12..], ["Uncategorized", "Uncategorized"]);
        assert_eq!(copies[3].name, "Food", "an admin's edit is left alone");
    }
}
