use aws_sdk_dynamodb::types::AttributeValue;
use serde_json::{json, Value};

use crate::helpers::{assert_problem, error_fields, spawn_app, spawn_app_and_user};

const SALARY: u64 = 1; // global CREDIT category
const GROCERIES: u64 = 4; // global DEBIT category

fn id(v: &Value) -> u64 {
    v["id"].as_u64().unwrap()
}

#[tokio::test]
async fn create_returns_201_the_transaction_its_location_and_derived_category_type() {
    let (app, user) = spawn_app_and_user().await;
    let r = app
        .create_transaction(&user, &json!({"amount": 12.5, "categoryId": GROCERIES, "date": "2026-03-04", "note": " Market "}))
        .await;
    assert_eq!(r.status(), 201);
    let location = r.headers()["location"].to_str().unwrap().to_owned();
    assert_eq!(r.headers()["etag"], "\"1\"");
    let body: Value = r.json().await.unwrap();
    assert_eq!(location, format!("/api/transactions/{}", body["id"]));
    assert!(id(&body) > 0 && id(&body) < (1 << 53));
    assert_eq!(body["amount"]["amount"].to_string(), "12.50");
    assert_eq!(
        body["amount"]["currency"],
        json!({"code": "EUR", "symbol": "€"})
    );
    assert_eq!(body["categoryType"], "DEBIT");
    assert_eq!(body["note"], "Market");
    assert_eq!(body["date"], "2026-03-04");
    assert_eq!(app.balance(&user).await, "-12.50");
}

#[tokio::test]
async fn a_tenth_plus_two_tenths_credits_the_balance_by_exactly_three_tenths() {
    let (app, user) = spawn_app_and_user().await;
    for amount in [json!(0.1), json!("0.2")] {
        let r = app
            .create_transaction(
                &user,
                &json!({"amount": amount, "categoryId": SALARY, "date": "2026-01-01"}),
            )
            .await;
        assert_eq!(r.status(), 201);
    }
    assert_eq!(app.balance(&user).await, "0.30");
    // Many small amounts never drift.
    for _ in 0..10 {
        app.add(&user, "0.01", GROCERIES, "2026-01-02").await;
    }
    assert_eq!(app.balance(&user).await, "0.20");
}

#[tokio::test]
async fn create_refuses_invalid_data_with_400_and_the_fields_at_fault() {
    let (app, user) = spawn_app_and_user().await;
    let cases = [
        (
            json!({"amount": 0, "categoryId": GROCERIES, "date": "2026-01-01"}),
            "amount",
        ),
        (
            json!({"amount": -3, "categoryId": GROCERIES, "date": "2026-01-01"}),
            "amount",
        ),
        (
            json!({"amount": "1.234", "categoryId": GROCERIES, "date": "2026-01-01"}),
            "amount",
        ),
        (
            json!({"amount": "abc", "categoryId": GROCERIES, "date": "2026-01-01"}),
            "amount",
        ),
        (
            json!({"amount": "10000000000000", "categoryId": GROCERIES, "date": "2026-01-01"}),
            "amount",
        ),
        (
            json!({"amount": 1, "categoryId": 999, "date": "2026-01-01"}),
            "categoryId",
        ),
        (
            json!({"amount": 1, "categoryId": -1, "date": "2026-01-01"}),
            "categoryId",
        ),
        (
            json!({"amount": 1, "categoryId": GROCERIES, "date": "2026-02-30"}),
            "date",
        ),
        (
            json!({"amount": 1, "categoryId": GROCERIES, "date": "2026-01-01", "note": "x".repeat(1001)}),
            "note",
        ),
        (
            json!({"amount": 1, "categoryId": GROCERIES, "date": "2026-01-01", "providerId": 77}),
            "providerId",
        ),
        (
            json!({"amount": 1, "categoryId": GROCERIES, "date": "2026-01-01", "tagIds": [5]}),
            "tagIds",
        ),
        (
            json!({"amount": 1, "categoryId": GROCERIES, "date": "2026-01-01", "currency": "USD"}),
            "currency",
        ),
        (
            json!({"amount": {"amount": 1, "currency": {"code": "USD"}}, "categoryId": GROCERIES, "date": "2026-01-01"}),
            "currency",
        ),
    ];
    for (body, field) in cases {
        let problem = assert_problem(app.create_transaction(&user, &body).await, 400).await;
        let fields = error_fields(&problem);
        assert!(
            fields.contains(&field),
            "{body}: expected an error on {field}, got {problem}"
        );
    }
    // Missing required fields and unknown fields are refused too.
    assert_problem(
        app.create_transaction(&user, &json!({"amount": 1, "date": "2026-01-01"}))
            .await,
        400,
    )
    .await;
    assert_problem(
        app.create_transaction(
            &user,
            &json!({"amount": 1, "categoryId": 4, "date": "2026-01-01", "userId": 1}),
        )
        .await,
        400,
    )
    .await;
    // Nothing was stored by any refused request.
    assert_eq!(app.balance(&user).await, "0.00");
    let list: Vec<Value> = app.listed(&user, "").await;
    assert!(list.is_empty());
}

#[tokio::test]
async fn bodies_over_64_kib_are_refused_with_413() {
    let (app, user) = spawn_app_and_user().await;
    let body =
        json!({"amount": 1, "categoryId": 4, "date": "2026-01-01", "note": "x".repeat(70_000)});
    assert_problem(app.create_transaction(&user, &body).await, 413).await;
}

#[tokio::test]
async fn get_update_and_delete_follow_the_transaction_and_keep_the_balance_exact() {
    let (app, user) = spawn_app_and_user().await;
    let created = app.add(&user, "40.00", GROCERIES, "2026-02-01").await;
    let txn_id = id(&created);

    let r = app.get_transaction(&user, txn_id).await;
    assert_eq!(r.status(), 200);
    assert_eq!(r.json::<Value>().await.unwrap(), created);

    let r = app
        .update_transaction(
            &user,
            txn_id,
            &json!({"amount": "100", "categoryId": SALARY, "date": "2026-02-02", "note": "bonus"}),
        )
        .await;
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["etag"], "\"2\"");
    let updated: Value = r.json().await.unwrap();
    assert_eq!(updated["categoryType"], "CREDIT");
    assert_eq!(updated["createdAt"], created["createdAt"]);
    assert_eq!(app.balance(&user).await, "100.00");

    // Update validates like create and changes nothing when refused.
    let bad = app
        .update_transaction(
            &user,
            txn_id,
            &json!({"amount": "-1", "categoryId": SALARY, "date": "2026-02-02"}),
        )
        .await;
    assert_problem(bad, 400).await;
    assert_eq!(app.balance(&user).await, "100.00");

    let r = app.delete_transaction(&user, txn_id).await;
    assert_eq!(r.status(), 204);
    assert!(r.text().await.unwrap().is_empty());
    assert_eq!(app.balance(&user).await, "0.00");
    assert_problem(app.get_transaction(&user, txn_id).await, 404).await;
    assert_problem(app.delete_transaction(&user, txn_id).await, 404).await;
    let body = json!({"amount": 1, "categoryId": SALARY, "date": "2026-02-02"});
    assert_problem(app.update_transaction(&user, txn_id, &body).await, 404).await;
}

#[tokio::test]
async fn unknown_or_malformed_ids_are_404() {
    let (app, user) = spawn_app_and_user().await;
    assert_problem(app.get_transaction(&user, 123_456).await, 404).await;
    let r = app.get(&user, "/api/transactions/abc").await;
    assert_problem(r, 404).await;
}

#[tokio::test]
async fn another_users_transaction_is_404_and_never_listed() {
    let app = spawn_app().await;
    let owner = app.new_user().await;
    let other = app.new_user().await;
    let txn = app.add(&owner, "9.99", GROCERIES, "2026-05-05").await;
    let txn_id = id(&txn);
    app.add(&other, "1.00", GROCERIES, "2026-05-05").await;

    assert_problem(app.get_transaction(&other, txn_id).await, 404).await;
    let body = json!({"amount": 1, "categoryId": SALARY, "date": "2026-01-01"});
    assert_problem(app.update_transaction(&other, txn_id, &body).await, 404).await;
    assert_problem(app.delete_transaction(&other, txn_id).await, 404).await;

    let listed: Vec<Value> = app.listed(&other, "").await;
    assert_eq!(listed.len(), 1);
    assert!(listed.iter().all(|t| t["id"] != txn["id"]));
    // The owner's data is untouched.
    assert_eq!(
        app.get_transaction(&owner, txn_id)
            .await
            .json::<Value>()
            .await
            .unwrap(),
        txn
    );
    assert_eq!(app.balance(&owner).await, "-9.99");
}

#[tokio::test]
async fn the_list_is_newest_first_and_pages_through_link_headers() {
    let (app, user) = spawn_app_and_user().await;
    for day in 1..=7 {
        app.add(
            &user,
            &format!("{day}.00"),
            GROCERIES,
            &format!("2026-04-{day:02}"),
        )
        .await;
    }
    let mut dates = Vec::new();
    let pages = app.pages(&user, "/api/transactions?limit=3").await;
    assert_eq!(pages.len(), 3);
    for page in pages {
        assert!(page.len() <= 3);
        dates.extend(page.iter().map(|t| t["date"].as_str().unwrap().to_owned()));
    }
    let expected: Vec<String> = (1..=7).rev().map(|d| format!("2026-04-{d:02}")).collect();
    assert_eq!(dates, expected);
}

#[tokio::test]
async fn the_list_filters_by_date_type_category_amount_and_note() {
    let (app, user) = spawn_app_and_user().await;
    let mk = |amount: &str, cat: u64, date: &str, note: &str| json!({"amount": amount, "categoryId": cat, "date": date, "note": note});
    for body in [
        mk("1500", SALARY, "2026-01-31", "January pay"),
        mk("23.40", GROCERIES, "2026-02-03", "Weekly shop"),
        mk("5.10", 8, "2026-02-10", "Coffee with Sam"),
        mk("1500", SALARY, "2026-02-28", "February pay"),
    ] {
        assert_eq!(app.create_transaction(&user, &body).await.status(), 201);
    }
    let notes = |q: &'static str| {
        let app = &app;
        let user = &user;
        async move {
            let r = app.list_transactions(user, q).await;
            assert_eq!(r.status(), 200, "{q}");
            let list: Vec<Value> = r.json().await.unwrap();
            list.iter()
                .map(|t| t["note"].as_str().unwrap().to_owned())
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(notes("?type=CREDIT").await, ["February pay", "January pay"]);
    assert_eq!(
        notes("?from=2026-02-01&to=2026-02-10").await,
        ["Coffee with Sam", "Weekly shop"]
    );
    assert_eq!(notes("?categoryId=4").await, ["Weekly shop"]);
    assert_eq!(
        notes("?minAmount=5.10&maxAmount=100").await,
        ["Coffee with Sam", "Weekly shop"]
    );
    assert_eq!(notes("?q=PAY&to=2026-01-31").await, ["January pay"]);
    assert!(notes("?from=2026-03-01&to=2026-02-01").await.is_empty());
    for bad in [
        "?type=OTHER",
        "?from=2026-13-01",
        "?limit=0",
        "?limit=201",
        "?minAmount=x",
        "?cursor=bogus",
        "?colour=red",
    ] {
        assert_problem(app.list_transactions(&user, bad).await, 400).await;
    }
    // A cursor taken with other dates lies outside this range: not this list's cursor (a
    // 400, where DynamoDB refused it as a start key and the caller got a 500).
    let r = app.list_transactions(&user, "?limit=1").await;
    let link = r.headers()["link"].to_str().unwrap().to_owned();
    let cursor = link.split("cursor=").nth(1).unwrap();
    let cursor = cursor.split(['&', '>']).next().unwrap();
    let shifted = format!("?limit=1&to=2026-01-31&cursor={cursor}");
    assert_problem(app.list_transactions(&user, &shifted).await, 400).await;
    let kept = format!("?limit=1&from=2026-01-01&cursor={cursor}");
    assert_eq!(app.list_transactions(&user, &kept).await.status(), 200);
}

#[tokio::test]
async fn if_match_with_a_stale_etag_is_412_and_changes_nothing() {
    let (app, user) = spawn_app_and_user().await;
    let txn = app.add(&user, "10.00", GROCERIES, "2026-01-01").await;
    let body = json!({"amount": "20.00", "categoryId": GROCERIES, "date": "2026-01-01"});
    let path = format!("/api/transactions/{}", txn["id"]);
    let r = app.put_if_match(&user, &path, "\"1\"", &body).await;
    assert_eq!(r.status(), 200);
    let r = app.put_if_match(&user, &path, "\"1\"", &body).await;
    assert_problem(r, 412).await;
    assert_eq!(app.balance(&user).await, "-20.00");
}

#[tokio::test]
async fn an_idempotency_key_replays_the_first_result_and_refuses_another_body() {
    let (app, user) = spawn_app_and_user().await;
    let send = |body| app.create_transaction_keyed(&user, "order-42", body);
    let body = json!({"amount": "7.00", "categoryId": GROCERIES, "date": "2026-01-01"});
    let first: Value = send(&body).await.json().await.unwrap();
    let again = send(&body).await;
    assert_eq!(again.status(), 201);
    assert_eq!(again.headers()["idempotent-replayed"], "true");
    assert_eq!(again.json::<Value>().await.unwrap(), first);
    assert_eq!(app.balance(&user).await, "-7.00");
    let other_body = json!({"amount": "8.00", "categoryId": GROCERIES, "date": "2026-01-01"});
    let other = send(&other_body).await;
    assert_problem(other, 422).await;
    assert_eq!(app.balance(&user).await, "-7.00");

    // Past its day the key is free again, even before DynamoDB's TTL deletes the record.
    let record = std::collections::HashMap::from([
        (
            "PK".to_owned(),
            AttributeValue::S(format!("USER#{}", user.id)),
        ),
        ("SK".to_owned(), AttributeValue::S("IDEM#order-42".into())),
    ]);
    let past = (time::OffsetDateTime::now_utc().unix_timestamp() - 1).to_string();
    app.state
        .store
        .client()
        .update_item()
        .table_name(app.state.store.table())
        .set_key(Some(record))
        .update_expression("SET expiresAt = :past")
        .expression_attribute_values(":past", AttributeValue::N(past))
        .send()
        .await
        .unwrap();
    let later_body = json!({"amount": "8.00", "categoryId": GROCERIES, "date": "2026-01-02"});
    let later = send(&later_body).await;
    assert_eq!(later.status(), 201);
    assert!(later.headers().get("idempotent-replayed").is_none());
    assert_eq!(app.balance(&user).await, "-15.00");
    assert_eq!(
        send(&body).await.status(),
        422,
        "the key is the new request's now"
    );
}
