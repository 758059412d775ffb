//! Wallet, categories, tags, providers and pictures through their endpoints.

use aws_sdk_dynamodb::types::AttributeValue;
use serde_json::{json, Value};

use crate::helpers::{assert_problem, png, spawn_app_and_user};

#[tokio::test]
async fn the_wallet_takes_a_name_an_initial_balance_and_a_currency_while_empty() {
    let (app, user) = spawn_app_and_user().await;
    let put = |body: Value| {
        let (app, user) = (&app, &user);
        async move { app.put(user, "/api/wallet", &body).await }
    };
    let r = put(json!({"name": "Daily", "initialBalance": "1000", "currency": "JPY"})).await;
    assert_eq!(r.status(), 200);
    let w: Value = r.json().await.unwrap();
    assert_eq!(w["currency"], json!({"code": "JPY", "symbol": "¥"}));
    assert_eq!(w["amountBalance"]["amount"].to_string(), "1000");
    assert_problem(
        put(json!({"name": "Daily", "initialBalance": "10.5", "currency": "JPY"})).await,
        400,
    )
    .await;
    assert_problem(
        put(json!({"name": "Daily", "initialBalance": "1", "currency": "XXX"})).await,
        400,
    )
    .await;
    assert_problem(
        put(json!({"name": "Daily", "initialBalance": "1", "currency": "EUR", "id": 3})).await,
        400,
    )
    .await;

    // Transactions are in the wallet's currency; then the currency is fixed.
    let body = json!({"amount": {"amount": 500, "currency": {"code": "JPY"}}, "categoryId": 4, "date": "2026-01-01"});
    assert_eq!(app.create_transaction(&user, &body).await.status(), 201);
    assert_problem(
        app.create_transaction(
            &user,
            &json!({"amount": 1, "currency": "EUR", "categoryId": 4, "date": "2026-01-01"}),
        )
        .await,
        400,
    )
    .await;
    assert_eq!(app.balance(&user).await, "500");
    assert_problem(
        put(json!({"name": "Daily", "initialBalance": "0", "currency": "EUR"})).await,
        409,
    )
    .await;
    let r = put(json!({"name": "Renamed", "initialBalance": 2000, "currency": "JPY"})).await;
    assert_eq!(r.status(), 200);
    assert_eq!(app.balance(&user).await, "1500");
}

#[tokio::test]
async fn categories_are_global_plus_own_and_only_admins_touch_global_ones() {
    let (app, user) = spawn_app_and_user().await;
    let admin = app.new_admin().await;
    let own = app
        .create(
            &user,
            "/api/categories",
            &json!({"categoryName": "Pets", "icon": "paw", "color": "#a1b2c3", "type": "DEBIT"}),
        )
        .await;
    let list: Vec<Value> = app.get_json(&user, "/api/categories").await;
    assert_eq!(list.len(), 15);
    assert_eq!(list.iter().filter(|c| c["isGlobal"] == true).count(), 14);
    let pets = list.iter().find(|c| c["id"] == own).unwrap();
    assert_eq!(pets["color"], "#A1B2C3");
    let other_list: Vec<Value> = app.get_json(&admin, "/api/categories").await;
    assert_eq!(other_list.len(), 14);

    let global = json!({"categoryName": "Gifts", "type": "CREDIT", "isGlobal": true});
    assert_problem(app.post(&user, "/api/categories", &global).await, 403).await;
    let gifts = app.create(&admin, "/api/categories", &global).await;
    let gifts_path = format!("/api/categories/{gifts}");
    assert_eq!(app.get(&user, &gifts_path).await.status(), 200);
    let rename = json!({"categoryName": "Presents", "type": "CREDIT"});
    assert_problem(app.put(&user, &gifts_path, &rename).await, 403).await;
    assert_eq!(app.put(&admin, &gifts_path, &rename).await.status(), 200);
    let flip = json!({"categoryName": "Presents", "type": "DEBIT"});
    assert_problem(app.put(&admin, &gifts_path, &flip).await, 409).await;
    assert_problem(app.delete(&admin, &gifts_path).await, 409).await;

    for bad in [
        json!({"categoryName": "", "type": "DEBIT"}),
        json!({"categoryName": "X", "type": "BOTH"}),
        json!({"categoryName": "X", "type": "DEBIT", "color": "red"}),
        json!({"categoryName": "X", "type": "DEBIT", "icon": "<script>"}),
    ] {
        assert_problem(app.post(&user, "/api/categories", &bad).await, 400).await;
    }
    // An unused own category may change type.
    let flip_own = json!({"categoryName": "Pets", "type": "CREDIT"});
    assert_eq!(
        app.put(&user, &format!("/api/categories/{own}"), &flip_own)
            .await
            .status(),
        200
    );
    let credits: Vec<Value> = app.get_json(&user, "/api/categories?type=CREDIT").await;
    assert!(
        credits.iter().all(|c| c["type"] == "CREDIT") && credits.iter().any(|c| c["id"] == own)
    );
}

#[tokio::test]
async fn tags_and_providers_are_unique_per_user_ignoring_case() {
    let (app, user) = spawn_app_and_user().await;
    let other = app.new_user().await;
    for (path, field) in [("/api/tags", "tagName"), ("/api/providers", "providerName")] {
        let id = app.create(&user, path, &json!({field: "Holiday"})).await;
        assert_problem(app.post(&user, path, &json!({field: "HOLIDAY"})).await, 409).await;
        // Another user may use the same name.
        app.create(&other, path, &json!({field: "holiday"})).await;
        let second = app.create(&user, path, &json!({field: "Work"})).await;
        let item = format!("{path}/{second}");
        assert_problem(app.put(&user, &item, &json!({field: "holiday"})).await, 409).await;
        let r = app.put(&user, &item, &json!({field: "Office"})).await;
        assert_eq!(r.status(), 200);
        assert_eq!(r.json::<Value>().await.unwrap()[field], "Office");
        // The old name is free again.
        app.create(&user, path, &json!({field: "work"})).await;
        let list: Vec<Value> = app.get_json(&user, path).await;
        let names: Vec<&str> = list.iter().map(|t| t[field].as_str().unwrap()).collect();
        assert_eq!(names, ["Holiday", "Office", "work"]);
        assert_problem(
            app.post(&user, path, &json!({field: "x", "id": 5})).await,
            400,
        )
        .await;
        assert_problem(app.post(&user, path, &json!({field: " "})).await, 400).await;
        assert_problem(
            app.post(&user, path, &json!({field: "x".repeat(101)}))
                .await,
            400,
        )
        .await;
        assert_eq!(
            app.delete(&user, &format!("{path}/{id}")).await.status(),
            204
        );
        assert_problem(app.get(&user, &format!("{path}/{id}")).await, 404).await;
    }
}

/// An own category's name is unique per user and type, ignoring case (its reservation is
/// written with it): a duplicate is `409`, a rename moves the name and a delete frees it. A
/// category stored before the reservations (none for it) still keeps its name taken.
#[tokio::test]
async fn own_category_names_are_unique_per_user_and_type_ignoring_case() {
    let (app, user) = spawn_app_and_user().await;
    let other = app.new_user().await;
    let path = "/api/categories";
    let debit = |name: &str| json!({"categoryName": name, "type": "DEBIT"});
    let pets = app.create(&user, path, &debit("Pets")).await;
    assert_problem(app.post(&user, path, &debit("PETS")).await, 409).await;
    assert_problem(app.post(&user, path, &debit(" pets ")).await, 409).await;
    // Another type or another user may use it; so may a global category's name.
    let credit = json!({"categoryName": "pets", "type": "CREDIT"});
    let pets_in = app.create(&user, path, &credit).await;
    app.create(&other, path, &debit("pets")).await;
    app.create(&user, path, &debit("Groceries")).await;

    // A rename (or a change of type) onto a taken name is refused; one off it frees it.
    let dogs = app.create(&user, path, &debit("Dogs")).await;
    let dogs_path = format!("{path}/{dogs}");
    assert_problem(app.put(&user, &dogs_path, &debit("pets")).await, 409).await;
    let flip = json!({"categoryName": "Dogs", "type": "CREDIT"});
    assert_eq!(app.put(&user, &dogs_path, &flip).await.status(), 200);
    app.create(&user, path, &debit("dogs")).await;
    assert_problem(
        app.put(
            &user,
            &format!("{path}/{pets_in}"),
            &json!({"categoryName": "DOGS", "type": "CREDIT"}),
        )
        .await,
        409,
    )
    .await;
    let pets_path = format!("{path}/{pets}");
    assert_eq!(
        app.put(&user, &pets_path, &debit("Cats")).await.status(),
        200
    );
    let again = app.create(&user, path, &debit("Pets")).await;
    assert_eq!(
        app.delete(&user, &format!("{path}/{again}")).await.status(),
        204
    );
    app.create(&user, path, &debit("pets")).await;

    // Stored before the reservations: its name is taken all the same (read from the list).
    let old = app.create(&user, path, &debit("Vet")).await;
    app.state
        .store
        .client()
        .delete_item()
        .table_name(app.state.store.table())
        .key("PK", AttributeValue::S(format!("USER#{}", user.id)))
        .key("SK", AttributeValue::S("CATNAME#DEBIT#vet".into()))
        .send()
        .await
        .unwrap();
    assert_problem(app.post(&user, path, &debit("VET")).await, 409).await;
    let cats = format!("{path}/{pets}");
    assert_problem(app.put(&user, &cats, &debit("vet")).await, 409).await;
    // It keeps working: a rename, then its old name is free.
    let old_path = format!("{path}/{old}");
    assert_eq!(
        app.put(&user, &old_path, &debit("Vet bills"))
            .await
            .status(),
        200
    );
    app.create(&user, path, &debit("vet")).await;
    assert_eq!(app.delete(&user, &old_path).await.status(), 204);
}

/// Two renames of one tag at once: one wins, the other is `409` (without `If-Match` too),
/// and no name is left reserved by nothing: every name the tag does not hold is free.
#[tokio::test]
async fn concurrent_renames_of_a_tag_leave_no_name_reserved_by_nothing() {
    let (app, user) = spawn_app_and_user().await;
    for round in 0..5 {
        let tag = app
            .create(&user, "/api/tags", &json!({"tagName": format!("x{round}")}))
            .await;
        let path = format!("/api/tags/{tag}");
        let (a, b) = (format!("a{round}"), format!("b{round}"));
        let (to_a, to_b) = (json!({"tagName": a}), json!({"tagName": b}));
        let (ra, rb) = tokio::join!(app.put(&user, &path, &to_a), app.put(&user, &path, &to_b));
        let statuses = [ra.status().as_u16(), rb.status().as_u16()];
        assert!(statuses.contains(&200), "{statuses:?}");
        assert!(
            statuses.iter().all(|s| [200, 409].contains(s)),
            "{statuses:?}"
        );
        let now: Value = app.get(&user, &path).await.json().await.unwrap();
        for name in [a, b, format!("x{round}")] {
            if now["tagName"] != name.as_str() {
                let r = app
                    .post(&user, "/api/tags", &json!({"tagName": name}))
                    .await;
                assert_eq!(r.status(), 201, "{name} is free (the tag is {now})");
            }
        }
    }
}

#[tokio::test]
async fn a_profile_picture_is_checked_by_its_bytes_and_bounded() {
    let (app, user) = spawn_app_and_user().await;
    assert_eq!(
        app.put_picture(&user, user.id, "image/png", png())
            .await
            .status(),
        204
    );
    let r = app.get(&user, &format!("/users/{}/picture", user.id)).await;
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["content-type"], "image/png");
    assert_eq!(r.headers()["x-content-type-options"], "nosniff");
    assert_eq!(r.bytes().await.unwrap().to_vec(), png());

    assert_problem(
        app.put_picture(&user, user.id, "image/jpeg", png()).await,
        415,
    )
    .await;
    assert_problem(
        app.put_picture(
            &user,
            user.id,
            "image/png",
            b"<svg onload=alert(1)>".to_vec(),
        )
        .await,
        415,
    )
    .await;
    assert_problem(
        app.put_picture(&user, user.id, "image/gif", b"GIF89a".to_vec())
            .await,
        415,
    )
    .await;
    let mut big = png();
    big.resize(256 * 1024 + 1, 0);
    assert_problem(app.put_picture(&user, user.id, "image/png", big).await, 413).await;
    let mut just_fits = png();
    just_fits.resize(256 * 1024, 0);
    assert_eq!(
        app.put_picture(&user, user.id, "image/png", just_fits)
            .await
            .status(),
        204
    );

    assert_eq!(
        app.delete(&user, &format!("/users/{}/picture", user.id))
            .await
            .status(),
        204
    );
    assert_problem(
        app.get(&user, &format!("/users/{}/picture", user.id)).await,
        404,
    )
    .await;
}
