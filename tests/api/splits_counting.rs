//! Split transactions (issue 52) in the batch and in every count: each part counts in its
//! own category, and what a part uses cannot be deleted.

use serde_json::{json, Value};

use rust_decimal::Decimal;

use crate::helpers::{assert_problem, error_fields, pluck, spawn_app_and_user};
use crate::splits::{amounts, create, money, part, GIFTS, GROCERIES, HOUSEHOLD};

#[tokio::test]
async fn the_batch_creates_and_replaces_splits_and_answers_them() {
    let (app, user) = spawn_app_and_user().await;
    let plain = app.add_id(&user, "10.00", GROCERIES, "2026-03-01").await;
    let split = json!({"amount": "10", "date": "2026-03-01", "splits": [part("4", GROCERIES), part("6", GIFTS)]});
    let bad = json!({"amount": "10", "date": "2026-03-01", "splits": [part("4", GROCERIES), part("5", GIFTS)]});
    let ops = json!([
        {"op": "create", "body": split},
        {"op": "update", "id": plain, "body": split},
        {"op": "create", "body": bad},
    ]);
    let r = app.post_batch(&user, &ops).await;
    assert_eq!(r.status(), 200);
    let body: Value = r.json().await.unwrap();
    let results = body["results"].as_array().unwrap();
    assert_eq!(
        pluck::<_, Vec<_>>(results, "status", Value::as_u64),
        [201, 200, 400]
    );
    assert_eq!(
        amounts(&results[0]["body"]),
        [Decimal::new(4, 0), Decimal::new(6, 0)]
    );
    assert_eq!(results[1]["body"]["splits"][1]["categoryId"], GIFTS);
    assert_eq!(error_fields(&results[2]["body"]), ["body.splits"]);
}

#[tokio::test]
async fn each_part_counts_in_its_own_category_and_holds_what_it_uses() {
    let (app, user) = spawn_app_and_user().await;
    let (tag, provider, pets) = app.create_refs(&user, "gift", "Shop", "Pets").await;
    let body = json!({
        "amount": "100.00", "date": "2026-04-10", "providerId": provider,
        "splits": [
            {"amount": "60.00", "categoryId": GROCERIES},
            {"amount": "25.00", "categoryId": pets, "tagIds": [tag]},
            {"amount": "15.00", "categoryId": GROCERIES},
        ]
    });
    let t = create(&app, &user, &body).await;
    let id = t["id"].as_u64().unwrap();
    app.add(&user, "5.00", pets, "2026-04-11").await;
    let budget = json!({"amount": "50.00"});
    assert_eq!(
        app.put(&user, &format!("/api/budgets/2026-04/{pets}"), &budget)
            .await
            .status(),
        200
    );
    assert_eq!(
        app.put(&user, &format!("/api/budgets/2026-04/{GROCERIES}"), &budget)
            .await
            .status(),
        200
    );
    let months: Vec<Value> = app
        .get_json(&user, "/api/insights/monthly?from=2026-04&to=2026-04")
        .await;
    let cats = months[0]["categories"].as_array().unwrap();
    let cell = |c: u64| {
        cats.iter()
            .find(|x| x["categoryId"] == c)
            .expect("cell")
            .clone()
    };
    assert_eq!(money(&cell(GROCERIES)["total"]), Decimal::new(75, 0));
    assert_eq!(cell(GROCERIES)["count"], 1);
    assert_eq!(money(&cell(pets)["total"]), Decimal::new(30, 0));
    assert_eq!(cell(pets)["count"], 2);
    assert_eq!(money(&months[0]["expenses"]), Decimal::new(105, 0));
    let budgets: Vec<Value> = app.get_json(&user, "/api/budgets/2026-04").await;
    let spent = |c: u64| money(&budgets.iter().find(|b| b["categoryId"] == c).unwrap()["spent"]);
    assert_eq!(
        (spent(pets), spent(GROCERIES)),
        (Decimal::new(30, 0), Decimal::new(75, 0))
    );
    // The list filters find a split by any part's category or tag.
    let by_pets = app.listed(&user, &format!("?categoryId={pets}")).await;
    assert_eq!(by_pets.len(), 2);
    let by_tag = app.listed(&user, &format!("?tagId={tag}")).await;
    assert_eq!(pluck::<_, Vec<_>>(&by_tag, "id", Value::as_u64), [id]);
    assert!(app
        .listed(&user, &format!("?categoryId={HOUSEHOLD}"))
        .await
        .is_empty());
    let tags: Vec<Value> = app.get_json(&user, "/api/tags").await;
    assert_eq!(tags[0]["transactionCount"], 1);
    // What a part uses cannot be deleted; once the split is gone it can.
    assert_problem(app.delete(&user, &format!("/api/tags/{tag}")).await, 409).await;
    assert_problem(
        app.delete(&user, &format!("/api/providers/{provider}"))
            .await,
        409,
    )
    .await;
    let plain_pets = app.listed(&user, &format!("?categoryId={pets}")).await;
    for t in plain_pets.iter().filter(|t| t["id"] != id) {
        let other = t["id"].as_u64().unwrap();
        assert_eq!(app.delete_transaction(&user, other).await.status(), 204);
    }
    assert_problem(
        app.delete(&user, &format!("/api/categories/{pets}")).await,
        409,
    )
    .await;
    // Moving the part elsewhere releases the category; a spec-only edit keeps them.
    let moved = json!({"amount": "100.00", "date": "2026-04-10", "providerId": provider, "splits": [part("60", GROCERIES), part("40", HOUSEHOLD)]});
    assert_eq!(
        app.update_transaction(&user, id, &moved).await.status(),
        200
    );
    let months: Vec<Value> = app
        .get_json(&user, "/api/insights/monthly?from=2026-04&to=2026-04")
        .await;
    let cats = months[0]["categories"].as_array().unwrap();
    assert!(cats.iter().all(|c| c["categoryId"] != pets), "{cats:?}");
    assert_eq!(
        app.delete(&user, &format!("/api/tags/{tag}"))
            .await
            .status(),
        204
    );
    assert_eq!(app.delete_transaction(&user, id).await.status(), 204);
    assert_eq!(app.balance(&user).await, "0.00");
}

#[tokio::test]
async fn rules_never_change_a_splits_categories() {
    let (app, user) = spawn_app_and_user().await;
    let rule = json!({"name": "Market", "conditions": [{"field": "note", "op": "contains", "value": "market"}], "actions": {"categoryId": GIFTS}});
    let r = app.post(&user, "/api/rules", &rule).await;
    assert_eq!(r.status(), 201);
    // A create without categoryId: the parts decide, not the rules.
    let body = json!({"amount": "10", "date": "2026-05-01", "note": "market", "splits": [part("4", GROCERIES), part("6", HOUSEHOLD)]});
    let t = create(&app, &user, &body).await;
    assert_eq!(
        (t["categoryId"].as_u64(), t["categorySource"].as_str()),
        (Some(GROCERIES), Some("user"))
    );
    let plain = create(
        &app,
        &user,
        &json!({"amount": "3", "date": "2026-05-01", "note": "market"}),
    )
    .await;
    assert_eq!(plain["categoryId"], GIFTS);
    let report: Value = app
        .post(&user, "/api/rules/apply", &json!({}))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(report["changed"], 0, "{report}");
    let id = t["id"].as_u64().unwrap();
    let now: Value = app.get_transaction(&user, id).await.json().await.unwrap();
    assert_eq!(now["splits"], t["splits"]);
    assert_eq!(now["categoryId"], GROCERIES);
}

#[tokio::test]
async fn a_recurring_schedule_creates_its_occurrences_as_splits() {
    let (app, user) = spawn_app_and_user().await;
    let start = time::OffsetDateTime::now_utc().date() - time::Duration::days(70);
    let body = json!({
        "amount": "10.00", "categoryId": GROCERIES, "start": start.to_string(),
        "rrule": "FREQ=MONTHLY", "backfill": true,
        "splits": [part("4", GROCERIES), part("6", GIFTS)],
    });
    let r = app.post(&user, "/api/recurring", &body).await;
    assert_eq!(r.status(), 201);
    let schedule: Value = r.json().await.unwrap();
    assert_eq!(amounts(&schedule), [Decimal::new(4, 0), Decimal::new(6, 0)]);
    let today = time::OffsetDateTime::now_utc().date();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let job = shared::app::recurring::run_due(&app.state.store, today, deadline);
    let report = shared::store::on_behalf_of("recurring", job).await.unwrap();
    assert!(report.created >= 2, "{report:?}");
    let listed = app.listed(&user, "").await;
    assert!(listed.len() >= 2, "{listed:?}");
    for t in &listed {
        assert_eq!(t["splits"], schedule["splits"]);
    }
    let bad = json!({
        "amount": "10.00", "categoryId": GROCERIES, "start": start.to_string(),
        "rrule": "FREQ=MONTHLY", "splits": [part("4", GROCERIES), part("5", GIFTS)],
    });
    let p = assert_problem(app.post(&user, "/api/recurring", &bad).await, 400).await;
    assert_eq!(error_fields(&p), ["splits"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_category_deleted_while_parts_take_it_is_either_gone_or_in_use_never_both() {
    let (app, user) = spawn_app_and_user().await;
    let (app, user) = (std::sync::Arc::new(app), std::sync::Arc::new(user));
    for round in 0..3 {
        let pets = app
            .create_category(&user, &format!("Pets{round}"), "DEBIT")
            .await;
        let mut tasks = Vec::new();
        for _ in 0..6 {
            let (app, user) = (app.clone(), user.clone());
            let body = json!({"amount": "10", "date": "2026-06-01", "splits": [part("4", GROCERIES), part("6", pets)]});
            tasks.push(tokio::spawn(async move {
                app.create_transaction(&user, &body).await.status().as_u16()
            }));
        }
        let deleted = app
            .delete(&user, &format!("/api/categories/{pets}"))
            .await
            .status()
            .as_u16();
        let mut created = 0;
        for t in tasks {
            match t.await.unwrap() {
                201 => created += 1,
                s => assert_eq!(s, 400),
            }
        }
        let holding = app.listed(&user, &format!("?categoryId={pets}")).await;
        assert_eq!(holding.len(), created);
        match deleted {
            204 => assert_eq!(created, 0, "a deleted category holds no part"),
            409 => assert!(created > 0),
            s => panic!("delete answered {s}"),
        }
    }
}
