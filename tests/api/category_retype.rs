//! A category's type change and a budget or rule naming it, at the same moment: one
//! conditional write decides, so neither ends on a category of the other type; one after
//! the other, the type change is `409` naming what holds on to the category.

use serde_json::json;

use crate::helpers::{assert_problem, spawn_app_and_user};

const ROUNDS: usize = 16;

#[tokio::test]
async fn a_type_change_racing_a_new_budget_or_rule_never_leaves_them_on_the_wrong_type() {
    let (app, user) = spawn_app_and_user().await;
    let (mut retyped, mut named) = (0, 0);
    for round in 0..ROUNDS {
        let id = app
            .create_category(&user, &format!("Race {round}"), "DEBIT")
            .await;
        let path = format!("/api/categories/{id}");
        let flip = json!({"categoryName": format!("Race {round}"), "type": "CREDIT"});
        let budget = format!("/api/budgets/2026-11/{id}");
        let rule = json!({"name": format!("Race {round}"),
            "conditions": [{"field": "note", "op": "contains", "value": format!("race{round}")}],
            "actions": {"categoryId": id}});
        let amount = json!({"amount": "300.00"});
        let (t, b, r) = tokio::join!(
            app.put(&user, &path, &flip),
            app.put(&user, &budget, &amount),
            app.post(&user, "/api/rules", &rule),
        );
        let (t, b, r) = (t.status(), b.status(), r.status());
        assert!(
            [200, 409].contains(&t.as_u16()),
            "round {round}: type change {t}"
        );
        // What the store holds afterwards, not only what was answered.
        let category: serde_json::Value = app.get_json(&user, &path).await;
        let budgets: Vec<serde_json::Value> = app.get_json(&user, "/api/budgets/2026-11").await;
        let budgeted = budgets.iter().any(|x| x["categoryId"] == id);
        let rules: Vec<serde_json::Value> = app.get_json(&user, "/api/rules").await;
        let ruled = rules.iter().any(|x| x["actions"]["categoryId"] == id);
        assert_eq!(budgeted, b.is_success(), "round {round}: budget {b}");
        assert_eq!(ruled, r.is_success(), "round {round}: rule {r}");
        if category["type"] == "CREDIT" {
            assert_eq!(t, 200);
            assert!(
                !budgeted && !ruled,
                "round {round}: {b} {r} on a CREDIT category"
            );
            retyped += 1;
        } else {
            assert_eq!(category["type"], "DEBIT");
            assert!(
                budgeted || ruled,
                "round {round}: refused with nothing named ({t})"
            );
            named += 1;
        }
    }
    assert_eq!(retyped + named, ROUNDS);
}

#[tokio::test]
async fn a_budget_or_a_rule_made_first_refuses_the_type_change_naming_itself() {
    let (app, user) = spawn_app_and_user().await;
    let id = app.create_category(&user, "Pets", "DEBIT").await;
    let path = format!("/api/categories/{id}");
    let flip = json!({"categoryName": "Pets", "type": "CREDIT"});
    let budget = format!("/api/budgets/2026-11/{id}");
    let put = app.put(&user, &budget, &json!({"amount": "50.00"})).await;
    assert!(put.status().is_success(), "{}", put.status());
    let problem = assert_problem(app.put(&user, &path, &flip).await, 409).await;
    assert!(
        problem["detail"].as_str().unwrap().contains("budgets"),
        "{problem}"
    );
    assert_eq!(app.delete(&user, &budget).await.status(), 204);

    let rule = json!({"name": "Vet", "conditions": [{"field": "note", "op": "contains",
        "value": "vet"}], "actions": {"categoryId": id}});
    let rule_id = app.create(&user, "/api/rules", &rule).await;
    let problem = assert_problem(app.put(&user, &path, &flip).await, 409).await;
    let detail = problem["detail"].as_str().unwrap();
    assert!(detail.contains(&format!("rule {rule_id}")), "{problem}");
    let gone = app.delete(&user, &format!("/api/rules/{rule_id}")).await;
    assert_eq!(gone.status(), 204);
    assert_eq!(app.put(&user, &path, &flip).await.status(), 200);
    // And a budget of a CREDIT category is refused.
    let refused = app.put(&user, &budget, &json!({"amount": "50.00"})).await;
    assert_eq!(refused.status(), 400);
}
