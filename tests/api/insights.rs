//! Monthly insights and budgets: the totals kept with every write equal a recomputation
//! from the listed transactions, and the endpoints check input, ownership and integrity.

use std::collections::BTreeMap;
use std::str::FromStr;
use std::sync::Arc;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use reqwest::Method;
use rust_decimal::Decimal;
use serde_json::{json, Value};

use crate::helpers::{assert_problem, pluck, spawn_app, spawn_app_and_user, TestApp, TestUser};

/// A money amount on the wire, exactly.
fn amount(money: &Value) -> Decimal {
    Decimal::from_str(&money["amount"].to_string()).expect("decimal amount")
}

async fn insights(app: &TestApp, user: &TestUser, from: &str, to: &str) -> Vec<Value> {
    let path = format!("/api/insights/monthly?from={from}&to={to}");
    let r = app.get(user, &path).await;
    assert_eq!(r.status(), 200);
    r.json().await.expect("json")
}

async fn budgets(app: &TestApp, user: &TestUser, month: &str) -> Vec<Value> {
    let path = format!("/api/budgets/{month}");
    let r = app.get(user, &path).await;
    assert_eq!(r.status(), 200);
    r.json().await.expect("json")
}

async fn put_budget(
    app: &TestApp,
    user: &TestUser,
    month: &str,
    category: u64,
    body: &Value,
) -> reqwest::Response {
    let path = format!("/api/budgets/{month}/{category}");
    app.put(user, &path, body).await
}

/// Per (month, category): (total, count), recomputed from the listed transactions.
type Recomputed = BTreeMap<(String, u64), (Decimal, u64)>;

async fn recompute(app: &TestApp, user: &TestUser) -> Recomputed {
    let r = app.list_transactions(user, "?limit=200").await;
    assert_eq!(r.status(), 200);
    assert!(r.headers().get("link").is_none(), "one page holds them all");
    let list: Vec<Value> = r.json().await.expect("json");
    let mut totals = Recomputed::new();
    for t in list {
        let month = t["date"].as_str().expect("date")[..7].to_owned();
        let category = t["categoryId"].as_u64().expect("category");
        let cell = totals.entry((month, category)).or_default();
        cell.0 += amount(&t["amount"]);
        cell.1 += 1;
    }
    totals
}

const CREDIT: [u64; 2] = [1, 2];

fn random_body(rng: &mut StdRng, categories: &[u64]) -> Value {
    let month = ["2025-11", "2025-12", "2026-01", "2026-02"][rng.random_range(0..4)];
    let day = rng.random_range(1..=28);
    let cents: u32 = rng.random_range(1..=500_000);
    json!({
        "amount": format!("{}.{:02}", cents / 100, cents % 100),
        "categoryId": categories[rng.random_range(0..categories.len())],
        "date": format!("{month}-{day:02}"),
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn every_months_insight_and_every_budget_equal_a_recomputation_after_random_concurrent_writes(
) {
    let app = Arc::new(spawn_app().await);
    let user = Arc::new(app.new_user().await);
    let pets = app.create_category(&user, "Pets", "DEBIT").await;
    let gigs = app.create_category(&user, "Gigs", "CREDIT").await;
    let categories = [1, 2, 4, 5, 8, pets, gigs];
    let budgeted = [("2025-12", 4), ("2026-01", pets), ("2026-02", 5)];
    for (month, category) in budgeted {
        let r = put_budget(&app, &user, month, category, &json!({"amount": "300.00"})).await;
        assert_eq!(r.status(), 200);
    }
    // Someone else's writes in the same months must not show.
    let other = app.new_user().await;
    app.add(&other, "999.99", 4, "2026-01-10").await;

    let mut rng = StdRng::seed_from_u64(13);
    let mut ids: Vec<u64> = Vec::new();
    for round in 0..12 {
        // Each round: up to 8 concurrent operations, each on a different transaction.
        let mut tasks = Vec::new();
        let mut busy = Vec::new();
        for _ in 0..8 {
            let op = if round < 3 || ids.len() < 8 {
                0
            } else {
                rng.random_range(0..4)
            };
            let body = random_body(&mut rng, &categories);
            let target = (op > 0)
                .then(|| ids[rng.random_range(0..ids.len())])
                .filter(|id| !busy.contains(id));
            let (app, user) = (app.clone(), user.clone());
            match (op, target) {
                (1 | 2, Some(id)) => {
                    busy.push(id);
                    tasks.push(tokio::spawn(async move {
                        let r = app.update_transaction(&user, id, &body).await;
                        assert_eq!(r.status(), 200);
                        None
                    }));
                }
                (3, Some(id)) => {
                    busy.push(id);
                    ids.retain(|i| *i != id);
                    tasks.push(tokio::spawn(async move {
                        assert_eq!(app.delete_transaction(&user, id).await.status(), 204);
                        None
                    }));
                }
                _ => tasks.push(tokio::spawn(async move {
                    let r = app.create_transaction(&user, &body).await;
                    assert_eq!(r.status(), 201);
                    r.json::<Value>().await.expect("json")["id"].as_u64()
                })),
            }
        }
        for t in tasks {
            ids.extend(t.await.expect("task"));
        }
    }

    let expected = recompute(&app, &user).await;
    let months = insights(&app, &user, "2025-10", "2026-03").await;
    let names: Vec<&str> = pluck(&months, "month", Value::as_str);
    assert_eq!(
        names,
        ["2025-10", "2025-11", "2025-12", "2026-01", "2026-02", "2026-03"]
    );
    for m in &months {
        let month = m["month"].as_str().unwrap();
        let (mut income, mut expenses, mut count) = (Decimal::ZERO, Decimal::ZERO, 0);
        let mut shown = BTreeMap::new();
        for c in m["categories"].as_array().unwrap() {
            let id = c["categoryId"].as_u64().unwrap();
            let total = amount(&c["total"]);
            let n = c["count"].as_u64().unwrap();
            assert_eq!(c["total"]["currency"]["code"], "EUR");
            let credit = CREDIT.contains(&id) || id == gigs;
            assert_eq!(c["type"], if credit { "CREDIT" } else { "DEBIT" });
            if credit {
                income += total;
            } else {
                expenses += total;
            }
            count += n;
            shown.insert(id, (total, n));
        }
        let wanted: BTreeMap<u64, (Decimal, u64)> = expected
            .iter()
            .filter(|((mm, _), _)| mm == month)
            .map(|((_, id), v)| (*id, *v))
            .collect();
        assert_eq!(shown, wanted, "categories of {month}");
        assert_eq!(amount(&m["income"]), income, "{month}");
        assert_eq!(amount(&m["expenses"]), expenses, "{month}");
        assert_eq!(amount(&m["net"]), income - expenses, "{month}");
        assert_eq!(m["count"].as_u64().unwrap(), count, "{month}");
        // Exactly the currency's decimals on the wire.
        assert_eq!(
            m["net"]["amount"]
                .to_string()
                .split('.')
                .nth(1)
                .map(str::len),
            Some(2)
        );
    }
    assert!(months[0]["categories"].as_array().unwrap().is_empty());
    assert_eq!(amount(&months[0]["net"]), Decimal::ZERO);

    for (month, category) in budgeted {
        let list = budgets(&app, &user, month).await;
        assert_eq!(list.len(), 1);
        let b = &list[0];
        assert_eq!(b["categoryId"].as_u64(), Some(category));
        let spent = expected
            .get(&(month.to_owned(), category))
            .map_or(Decimal::ZERO, |v| v.0);
        assert_eq!(amount(&b["spent"]), spent, "{month} {category}");
        assert_eq!(amount(&b["budgeted"]), Decimal::new(30000, 2));
        assert_eq!(amount(&b["remaining"]), Decimal::new(30000, 2) - spent);
    }
}

#[tokio::test]
async fn bad_ranges_months_and_amounts_are_400_problems() {
    let (app, user) = spawn_app_and_user().await;
    for query in [
        "from=2024-01&to=2027-01",
        "from=2026-02&to=2026-01",
        "from=2026-13&to=2026-12",
        "from=2026-1&to=2026-12",
        "from=2026-01",
        "from=2026-01&to=2026-02&extra=1",
    ] {
        let path = format!("/api/insights/monthly?{query}");
        let r = app.get(&user, &path).await;
        assert_problem(r, 400).await;
    }
    let ok = insights(&app, &user, "2024-01", "2026-12").await;
    assert_eq!(ok.len(), 36);

    let r = app.get(&user, "/api/budgets/2026-1").await;
    assert_problem(r, 400).await;
    for (month, category, body) in [
        ("11-2026", 4, json!({"amount": "10"})),
        ("2026-11", 4, json!({"amount": "-1"})),
        ("2026-11", 4, json!({"amount": -1})),
        ("2026-11", 4, json!({"amount": "10.001"})),
        ("2026-11", 4, json!({"amount": "ten"})),
        ("2026-11", 4, json!({"amount": 10, "note": "x"})),
        // A CREDIT category has no budget.
        ("2026-11", 1, json!({"amount": 10})),
        // Budgets are for the months a transaction may be dated in.
        ("0001-01", 4, json!({"amount": 10})),
        ("3000-01", 4, json!({"amount": 10})),
    ] {
        let r = put_budget(&app, &user, month, category, &body).await;
        let problem = assert_problem(r, 400).await;
        assert!(
            problem.to_string().len() < 2000,
            "no stack traces: {problem}"
        );
    }
    let r = put_budget(&app, &user, "2026-11", 4, &json!({"amount": 0})).await;
    assert_eq!(r.status(), 200);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["budgeted"]["amount"].to_string(), "0.00");

    let r = app
        .call(
            Method::GET,
            "/api/insights/monthly?from=2026-01&to=2026-01",
            None,
            None,
        )
        .await;
    assert_problem(r, 403).await;
}

#[tokio::test]
async fn another_users_category_is_404_and_users_never_see_each_others_totals() {
    let app = spawn_app().await;
    let (ann, bob) = (app.new_user().await, app.new_user().await);
    let bobs = app.create_category(&bob, "Bob's", "DEBIT").await;
    app.add(&bob, "50.00", bobs, "2026-03-05").await;
    let r = put_budget(&app, &bob, "2026-03", bobs, &json!({"amount": 100})).await;
    assert_eq!(r.status(), 200);

    let r = put_budget(&app, &ann, "2026-03", bobs, &json!({"amount": 100})).await;
    assert_problem(r, 404).await;
    let path = format!("/api/budgets/2026-03/{bobs}");
    let r = app.delete(&ann, &path).await;
    assert_problem(r, 404).await;
    let r = put_budget(&app, &ann, "2026-03", 999_999, &json!({"amount": 1})).await;
    assert_problem(r, 404).await;

    let months = insights(&app, &ann, "2026-03", "2026-03").await;
    assert_eq!(months[0]["count"], 0);
    assert!(budgets(&app, &ann, "2026-03").await.is_empty());
    let months = insights(&app, &bob, "2026-03", "2026-03").await;
    assert_eq!(months[0]["count"], 1);
    assert_eq!(amount(&months[0]["expenses"]), Decimal::new(5000, 2));
    let list = budgets(&app, &bob, "2026-03").await;
    assert_eq!(amount(&list[0]["remaining"]), Decimal::new(5000, 2));

    // Bob's budget is still there after Ann's attempts; deleting it twice is 204 then 404.
    let r = app.delete(&bob, &path).await;
    assert_eq!(r.status(), 204);
    let r = app.delete(&bob, &path).await;
    assert_problem(r, 404).await;
}

/// What the partition still holds of a category: its totals and budgets.
async fn leftovers(app: &TestApp, user: &TestUser, category: u64) -> usize {
    let out = app.query_partition(user.id).send().await.expect("query");
    out.items()
        .iter()
        .filter_map(|i| i.get("SK").and_then(|v| v.as_s().ok()))
        .filter(|sk| {
            (sk.starts_with("AGG#") && sk.ends_with(&format!("#U{category}")))
                || (sk.starts_with("BUDGET#") && sk.ends_with(&format!("#{category}")))
        })
        .count()
}

#[tokio::test]
async fn deleting_a_category_leaves_no_total_or_budget_of_it_behind() {
    let (app, user) = spawn_app_and_user().await;
    let pets = app.create_category(&user, "Pets", "DEBIT").await;
    let a = app.add(&user, "10.00", pets, "2026-01-05").await;
    let b = app.add(&user, "20.00", pets, "2026-02-05").await;
    for month in ["2026-01", "2026-03"] {
        let r = put_budget(&app, &user, month, pets, &json!({"amount": 40})).await;
        assert_eq!(r.status(), 200);
    }
    assert_eq!(leftovers(&app, &user, pets).await, 4);

    let path = format!("/api/categories/{pets}");
    let r = app.delete(&user, &path).await;
    assert_problem(r, 409).await;
    for t in [a, b] {
        let id = t["id"].as_u64().unwrap();
        assert_eq!(app.delete_transaction(&user, id).await.status(), 204);
    }
    let r = app.delete(&user, &path).await;
    assert_eq!(r.status(), 204);
    assert_eq!(leftovers(&app, &user, pets).await, 0);
    assert!(budgets(&app, &user, "2026-01").await.is_empty());
    // The budgets were uncounted: the currency may change again.
    let wallet = json!({"name": "Main", "initialBalance": 0, "currency": "USD"});
    let r = app.put(&user, "/api/wallet", &wallet).await;
    assert_eq!(r.status(), 200);
}

#[tokio::test]
async fn the_currency_cannot_change_while_budgets_exist() {
    let (app, user) = spawn_app_and_user().await;
    let r = put_budget(&app, &user, "2026-05", 4, &json!({"amount": "12.5"})).await;
    assert_eq!(r.status(), 200);
    // Replacing a budget keeps one budget.
    let r = put_budget(&app, &user, "2026-05", 4, &json!({"amount": 15})).await;
    assert_eq!(r.status(), 200);
    let usd = json!({"name": "Main", "initialBalance": 0, "currency": "USD"});
    let r = app.put(&user, "/api/wallet", &usd).await;
    let problem = assert_problem(r, 409).await;
    assert!(problem["detail"].as_str().unwrap().contains("budgets"));
    let r = app.delete(&user, "/api/budgets/2026-05/4").await;
    assert_eq!(r.status(), 204);
    let r = app.put(&user, "/api/wallet", &usd).await;
    assert_eq!(r.status(), 200);
    // Budgets now take the wallet's new currency's decimals.
    let r = put_budget(&app, &user, "2026-05", 4, &json!({"amount": "1.5"})).await;
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["budgeted"]["currency"]["code"], "USD");
}

#[tokio::test]
async fn a_budgeted_category_keeps_its_type_until_its_budgets_are_gone() {
    let (app, user) = spawn_app_and_user().await;
    let gym = app.create_category(&user, "Gym", "DEBIT").await;
    let r = put_budget(&app, &user, "2026-01", gym, &json!({"amount": "100"})).await;
    assert_eq!(r.status(), 200);
    let path = format!("/api/categories/{gym}");
    let credit = json!({"categoryName": "Gym", "type": "CREDIT"});
    let problem = assert_problem(app.put(&user, &path, &credit).await, 409).await;
    assert!(problem["detail"].as_str().unwrap().contains("budgets"));
    // A rename is no type change.
    let renamed = json!({"categoryName": "Fitness", "type": "DEBIT"});
    assert_eq!(app.put(&user, &path, &renamed).await.status(), 200);
    let r = app
        .delete(&user, &format!("/api/budgets/2026-01/{gym}"))
        .await;
    assert_eq!(r.status(), 204);
    assert_eq!(app.put(&user, &path, &credit).await.status(), 200);
}

#[tokio::test]
async fn a_renamed_category_shows_its_new_name() {
    let (app, user) = spawn_app_and_user().await;
    let pets = app.create_category(&user, "Pets", "DEBIT").await;
    app.add(&user, "7.25", pets, "2026-04-01").await;
    let r = put_budget(&app, &user, "2026-04", pets, &json!({"amount": 10})).await;
    assert_eq!(r.json::<Value>().await.unwrap()["categoryName"], "Pets");
    let rename = json!({"categoryName": "Animals", "type": "DEBIT"});
    let path = format!("/api/categories/{pets}");
    let r = app.put(&user, &path, &rename).await;
    assert_eq!(r.status(), 200);
    let months = insights(&app, &user, "2026-04", "2026-04").await;
    assert_eq!(months[0]["categories"][0]["categoryName"], "Animals");
    assert_eq!(
        budgets(&app, &user, "2026-04").await[0]["categoryName"],
        "Animals"
    );
    assert_eq!(
        amount(&budgets(&app, &user, "2026-04").await[0]["remaining"]),
        Decimal::new(275, 2)
    );
}

/// Budgets are capped per user (`MAX_BUDGETS` over all months, counted on the wallet in the
/// same transaction as each create): at the cap a new one is refused, a replacement is
/// not, and a delete makes room. The store's cap is set low here; the API answers 409.
#[tokio::test]
async fn budgets_are_capped_per_user_and_a_delete_makes_room() {
    use shared::domain::Month;
    use shared::store::budgets::Budget;
    use shared::store::{ConflictKind, StoreError};

    let (app, user) = spawn_app_and_user().await;
    let store = &app.state.store;
    let wallet = shared::app::wallet::get(store, user.id).await.unwrap();
    let groceries = shared::app::categories::get(store, user.id, 4)
        .await
        .unwrap();
    let budget = |month: &str| Budget {
        month: Month::parse(month).unwrap(),
        category_id: 4,
        category_global: true,
        amount: Decimal::from(10),
        updated_at: shared::domain::time::Timestamp::now(),
    };
    let put = |month: &'static str| {
        let b = budget(month);
        let (store, groceries) = (store.clone(), groceries.clone());
        async move {
            store
                .put_budget(user.id, &groceries, &b, wallet.currency, 2)
                .await
        }
    };
    put("2026-01").await.unwrap();
    put("2026-02").await.unwrap();
    let full = put("2026-03").await;
    assert!(
        matches!(full, Err(StoreError::Conflict(ConflictKind::LimitReached))),
        "{full:?}"
    );
    // Replacing one at the cap is no new budget.
    put("2026-02").await.unwrap();
    let r = app
        .call(Method::DELETE, "/api/budgets/2026-01/4", Some(&user), None)
        .await;
    assert_eq!(r.status(), 204);
    put("2026-03").await.unwrap();
    assert_eq!(budgets(&app, &user, "2026-03").await.len(), 1);
    assert!(budgets(&app, &user, "2026-01").await.is_empty());
}
