//! References between transactions and categories, tags and providers stay valid, also
//! when deletes race with creates.

use std::sync::Arc;

use serde_json::json;

use crate::helpers::{assert_problem, spawn_app, spawn_app_and_user};

#[tokio::test]
async fn a_transaction_cannot_use_another_users_category_tag_or_provider() {
    let app = spawn_app().await;
    let owner = app.new_user().await;
    let other = app.new_user().await;
    let (tag, provider, category) = app.create_refs(&owner, "mine", "Mine", "Mine").await;
    for body in [
        json!({"amount": 1, "categoryId": category, "date": "2026-01-01"}),
        json!({"amount": 1, "categoryId": 4, "date": "2026-01-01", "tagIds": [tag]}),
        json!({"amount": 1, "categoryId": 4, "date": "2026-01-01", "providerId": provider}),
    ] {
        assert_problem(app.create_transaction(&other, &body).await, 400).await;
    }
    assert_eq!(app.balance(&other).await, "0.00");
}

#[tokio::test]
async fn categories_tags_and_providers_in_use_cannot_be_deleted_until_released() {
    let (app, user) = spawn_app_and_user().await;
    let (tag, provider, category) = app.create_refs(&user, "food", "Market", "Food").await;
    let body = json!({"amount": "3.00", "categoryId": category, "date": "2026-01-01", "tagIds": [tag], "providerId": provider});
    let txn = app.create(&user, "/api/transactions", &body).await;
    for path in [
        format!("/api/tags/{tag}"),
        format!("/api/providers/{provider}"),
        format!("/api/categories/{category}"),
    ] {
        let problem = assert_problem(app.delete(&user, &path).await, 409).await;
        assert!(
            problem["detail"].as_str().unwrap().contains("transactions"),
            "{problem}"
        );
    }
    // Changing the category's type would flip the sign of its transactions.
    let flip = json!({"categoryName": "Food", "type": "CREDIT"});
    let category_path = format!("/api/categories/{category}");
    assert_problem(app.put(&user, &category_path, &flip).await, 409).await;
    // Releasing the references (update to other ones, then delete) makes deletion possible.
    let plain = json!({"amount": "3.00", "categoryId": 4, "date": "2026-01-01"});
    assert_eq!(
        app.update_transaction(&user, txn, &plain).await.status(),
        200
    );
    for path in [
        format!("/api/tags/{tag}"),
        format!("/api/providers/{provider}"),
        format!("/api/categories/{category}"),
    ] {
        assert_eq!(app.delete(&user, &path).await.status(), 204, "{path}");
    }
    assert_eq!(app.balance(&user).await, "-3.00");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_delete_racing_a_create_never_leaves_a_dangling_reference() {
    let app = Arc::new(spawn_app().await);
    let user = Arc::new(app.new_user().await);
    let (mut created, mut deleted) = (0, 0);
    for round in 0..30 {
        let tag = app
            .create(
                &user,
                "/api/tags",
                &json!({"tagName": format!("race {round}")}),
            )
            .await;
        let (a, u) = (app.clone(), user.clone());
        let create = tokio::spawn(async move {
            let body =
                json!({"amount": "1.00", "categoryId": 4, "date": "2026-01-01", "tagIds": [tag]});
            a.create_transaction(&u, &body).await.status().as_u16()
        });
        let (a, u) = (app.clone(), user.clone());
        let delete = tokio::spawn(async move {
            a.delete(&u, &format!("/api/tags/{tag}"))
                .await
                .status()
                .as_u16()
        });
        let (c, d) = (create.await.unwrap(), delete.await.unwrap());
        let tag_exists = app.get(&user, &format!("/api/tags/{tag}")).await.status() == 200;
        match (c, d) {
            (201, 409) => {
                assert!(tag_exists);
                created += 1;
            }
            (400, 204) => {
                assert!(!tag_exists);
                deleted += 1;
            }
            other => panic!("round {round}: inconsistent outcome {other:?}"),
        }
    }
    // Every transaction listed references a tag that exists.
    let list: Vec<serde_json::Value> = app.listed(&user, "?limit=200").await;
    assert_eq!(list.len(), created);
    for t in &list {
        for tag in t["tagIds"].as_array().unwrap() {
            assert_eq!(
                app.get(&user, &format!("/api/tags/{tag}")).await.status(),
                200
            );
        }
    }
    println!("races: {created} creates won, {deleted} deletes won");
}

/// The store refuses a replace or delete based on a version that moved meanwhile (a
/// request that read the transaction just before another changed it), and moves nothing:
/// not the transaction, not the balance.
#[tokio::test]
async fn a_write_based_on_a_version_that_moved_meanwhile_is_refused_and_moves_nothing() {
    use shared::store::{ConflictKind, StoreError};
    let (app, user) = spawn_app_and_user().await;
    let id = app.add_id(&user, "10.00", 4, "2026-03-01").await;
    let store = &app.state.store;
    let read_before = store.get_transaction(user.id, id).await.unwrap().unwrap();
    let body = json!({"amount": "20.00", "categoryId": 4, "date": "2026-03-01"});
    assert_eq!(app.update_transaction(&user, id, &body).await.status(), 200);
    assert_eq!(app.balance(&user).await, "-20.00");

    let now = "2026-03-02T00:00:00";
    let mut stale = read_before.clone();
    stale.version += 1;
    let replaced = store
        .replace_transaction(&read_before, &stale, None, None, now)
        .await;
    assert!(
        matches!(replaced, Err(StoreError::Conflict(ConflictKind::Changed))),
        "{replaced:?}"
    );
    let removed = store
        .remove_transaction(&read_before, None, None, now)
        .await;
    assert!(
        matches!(removed, Err(StoreError::Conflict(ConflictKind::Changed))),
        "{removed:?}"
    );
    assert_eq!(app.balance(&user).await, "-20.00");
    let current: serde_json::Value = app.get_transaction(&user, id).await.json().await.unwrap();
    assert_eq!(
        current["amount"]["amount"].to_string(),
        "20.00",
        "{current}"
    );
}
