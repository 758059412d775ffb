//! Authorization matrix: every protected endpoint × {owner, other user, admin, anonymous}.
//! Each cell gets fresh objects owned by the owner, so destructive cells do not interfere.

use reqwest::{Method, Response};
use serde_json::{json, Value};

use crate::helpers::{png, spawn_app, TestApp, TestUser, PASSWORD};

/// Objects owned by one user, created fresh for a cell.
struct Owned {
    user_id: u64,
    txn: u64,
    tag: u64,
    provider: u64,
    category: u64,
}

async fn owned(app: &TestApp, owner: &TestUser) -> Owned {
    let n = rand::random::<u32>();
    let (t, p, c) = (format!("t{n}"), format!("p{n}"), format!("c{n}"));
    let (tag, provider, category) = app.create_refs(owner, &t, &p, &c).await;
    let txn = app
        .create(
            owner,
            "/api/transactions",
            &json!({"amount": 1, "categoryId": 4, "date": "2026-01-01"}),
        )
        .await;
    let budget = json!({"amount": 5});
    let path = format!("/api/budgets/2026-01/{category}");
    let r = app.put(owner, &path, &budget).await;
    assert_eq!(r.status(), 200);
    assert_eq!(
        app.put_picture(owner, owner.id, "image/png", png())
            .await
            .status(),
        204
    );
    Owned {
        user_id: owner.id,
        txn,
        tag,
        provider,
        category,
    }
}

type Row = (Method, &'static str, Option<Value>, [u16; 4]);

fn get(path: &'static str, expected: [u16; 4]) -> Row {
    (Method::GET, path, None, expected)
}

fn delete(path: &'static str, expected: [u16; 4]) -> Row {
    (Method::DELETE, path, None, expected)
}

fn put(path: &'static str, body: Value, expected: [u16; 4]) -> Row {
    (Method::PUT, path, Some(body), expected)
}

fn post(path: &'static str, body: Value, expected: [u16; 4]) -> Row {
    (Method::POST, path, Some(body), expected)
}

/// `{u}` is the owner's user id, `{t}` transaction, `{tag}`, `{p}` provider, `{c}` own
/// category; expected statuses are for [owner, other, admin, anonymous].
fn rows() -> Vec<Row> {
    let first_name = json!({"firstName": "New"});
    let wallet = json!({"name": "W", "initialBalance": 0, "currency": "EUR"});
    let txn = json!({"amount": "2.00", "categoryId": 4, "date": "2026-01-02"});
    let with_refs = json!({"amount": 1, "categoryId": "{c}", "date": "2026-01-01", "tagIds": ["{tag}"], "providerId": "{p}"});
    let mine = json!({"categoryName": "Mine", "type": "CREDIT"});
    let global = json!({"categoryName": "All", "type": "CREDIT", "isGlobal": true});
    let cat = json!({"categoryName": "Renamed", "type": "DEBIT"});
    let other_expenses = json!({"categoryName": "Other expenses", "type": "DEBIT"});
    let monthly = "/api/insights/monthly?from=2026-01&to=2026-02";
    let (budget, budget_4) = (json!({"amount": "7.50"}), json!({"amount": 3}));
    let tag = json!({"tagName": "{n}"});
    let provider = json!({"providerName": "{n}"});
    vec![
        get("/users", [403, 403, 200, 403]),
        get("/users/me", [200, 200, 200, 403]),
        get("/users/{u}", [200, 404, 200, 403]),
        put("/users/{u}", first_name, [200, 404, 200, 403]),
        get("/users/{u}/picture", [200, 404, 200, 403]),
        delete("/users/{u}/picture", [204, 404, 204, 403]),
        get("/api/wallet", [200, 200, 200, 403]),
        put("/api/wallet", wallet, [200, 200, 200, 403]),
        post("/api/transactions", txn.clone(), [201, 201, 201, 403]),
        post("/api/transactions", with_refs, [201, 400, 400, 403]),
        get("/api/transactions", [200, 200, 200, 403]),
        get("/api/transactions/{t}", [200, 404, 404, 403]),
        put("/api/transactions/{t}", txn, [200, 404, 404, 403]),
        delete("/api/transactions/{t}", [204, 404, 404, 403]),
        get("/api/categories", [200, 200, 200, 403]),
        post("/api/categories", mine, [201, 201, 201, 403]),
        post("/api/categories", global, [403, 403, 201, 403]),
        get("/api/categories/{c}", [200, 404, 404, 403]),
        get("/api/categories/4", [200, 200, 200, 403]),
        put("/api/categories/{c}", cat, [200, 404, 404, 403]),
        put("/api/categories/12", other_expenses, [403, 403, 200, 403]),
        delete("/api/categories/{c}", [204, 404, 404, 403]),
        delete("/api/categories/12", [403, 403, 409, 403]),
        get(monthly, [200, 200, 200, 403]),
        get("/api/budgets/2026-01", [200, 200, 200, 403]),
        put("/api/budgets/2026-01/{c}", budget, [200, 404, 404, 403]),
        put("/api/budgets/2026-01/4", budget_4, [200, 200, 200, 403]),
        delete("/api/budgets/2026-01/{c}", [204, 404, 404, 403]),
        get("/api/tags", [200, 200, 200, 403]),
        post("/api/tags", tag.clone(), [201, 201, 201, 403]),
        get("/api/tags/{tag}", [200, 404, 404, 403]),
        put("/api/tags/{tag}", tag, [200, 404, 404, 403]),
        delete("/api/tags/{tag}", [204, 404, 404, 403]),
        get("/api/providers", [200, 200, 200, 403]),
        post("/api/providers", provider.clone(), [201, 201, 201, 403]),
        get("/api/providers/{p}", [200, 404, 404, 403]),
        put("/api/providers/{p}", provider, [200, 404, 404, 403]),
        delete("/api/providers/{p}", [204, 404, 404, 403]),
    ]
}

fn fill(text: &str, o: &Owned) -> String {
    text.replace("{u}", &o.user_id.to_string())
        .replace("{t}", &o.txn.to_string())
        .replace("{tag}", &o.tag.to_string())
        .replace("{p}", &o.provider.to_string())
        .replace("{c}", &o.category.to_string())
        .replace("{n}", &format!("n{}", rand::random::<u32>()))
}

/// Placeholders in bodies become numbers where they stand alone as strings.
fn fill_body(body: &Value, o: &Owned) -> Value {
    let text = fill(&body.to_string(), o);
    let mut v: Value = serde_json::from_str(&text).unwrap();
    for key in ["categoryId", "providerId"] {
        if let Some(s) = v
            .get(key)
            .and_then(Value::as_str)
            .and_then(|s| s.parse::<u64>().ok())
        {
            v[key] = json!(s);
        }
    }
    if let Some(tags) = v.get_mut("tagIds").and_then(Value::as_array_mut) {
        for t in tags.iter_mut() {
            if let Some(n) = t.as_str().and_then(|s| s.parse::<u64>().ok()) {
                *t = json!(n);
            }
        }
    }
    v
}

/// The cells called so far, and a line for each that answered otherwise than expected.
#[derive(Default)]
struct Tally {
    cells: usize,
    failures: Vec<String>,
}

impl Tally {
    fn record(&mut self, cell: String, response: &Response, expected: u16) {
        self.cells += 1;
        let status = response.status().as_u16();
        if status != expected {
            self.failures
                .push(format!("{cell}: expected {expected}, got {status}"));
        }
    }
}

#[tokio::test]
async fn every_endpoint_allows_exactly_the_expected_callers() {
    let app = spawn_app().await;
    let (owner, other) = (app.new_user().await, app.new_user().await);
    let admin = app.new_admin().await;
    let mut tally = Tally::default();
    for (method, path, body, expected) in rows() {
        for (i, caller) in [Some(&owner), Some(&other), Some(&admin), None]
            .into_iter()
            .enumerate()
        {
            let objects = owned(&app, &owner).await;
            let url = fill(path, &objects);
            let b = body.as_ref().map(|b| fill_body(b, &objects));
            let r = app.call(method.clone(), &url, caller, b.as_ref()).await;
            let who = ["owner", "other", "admin", "anonymous"][i];
            tally.record(format!("{method} {path} as {who}"), &r, expected[i]);
        }
    }
    // Deleting a user: a fresh victim per cell.
    for (i, expected) in [204u16, 404, 204, 403].into_iter().enumerate() {
        let victim = app.new_user().await;
        let caller = [Some(&victim), Some(&other), Some(&admin), None][i];
        let path = format!("/users/{}", victim.id);
        let body = json!({"currentPassword": PASSWORD});
        let r = app.call(Method::DELETE, &path, caller, Some(&body)).await;
        tally.record(format!("DELETE /users/{{id}} as caller {i}"), &r, expected);
    }
    // Setting a picture: the owner and an admin may.
    for (i, expected) in [204u16, 404, 204, 403].into_iter().enumerate() {
        let caller = [Some(&owner), Some(&other), Some(&admin), None][i];
        let path = format!("/users/{}/picture", owner.id);
        let r = app
            .call_raw(Method::PUT, &path, caller, "image/png", png())
            .await;
        let cell = format!("PUT /users/{{id}}/picture as caller {i}");
        tally.record(cell, &r, expected);
    }
    let Tally { cells, failures } = tally;
    println!(
        "authorization matrix: {cells} cells, {} failures",
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(cells, (rows().len() + 2) * 4);
}
