//! Authorization matrix: every protected endpoint × {owner, other user, admin, anonymous}.
//! Each cell gets fresh objects owned by the owner, so destructive cells do not interfere.

use reqwest::Method;
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
    let r = app
        .call(Method::PUT, &path, Some(owner), Some(&budget))
        .await;
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

/// `{u}` is the owner's user id, `{t}` transaction, `{tag}`, `{p}` provider, `{c}` own
/// category; expected statuses are for [owner, other, admin, anonymous].
fn rows() -> Vec<Row> {
    let txn = json!({"amount": "2.00", "categoryId": 4, "date": "2026-01-02"});
    let cat = json!({"categoryName": "Renamed", "type": "DEBIT"});
    vec![
        (Method::GET, "/users", None, [403, 403, 200, 403]),
        (Method::GET, "/users/me", None, [200, 200, 200, 403]),
        (Method::GET, "/users/{u}", None, [200, 404, 200, 403]),
        (
            Method::PUT,
            "/users/{u}",
            Some(json!({"firstName": "New"})),
            [200, 404, 200, 403],
        ),
        (
            Method::GET,
            "/users/{u}/picture",
            None,
            [200, 404, 200, 403],
        ),
        (
            Method::DELETE,
            "/users/{u}/picture",
            None,
            [204, 404, 204, 403],
        ),
        (Method::GET, "/api/wallet", None, [200, 200, 200, 403]),
        (
            Method::PUT,
            "/api/wallet",
            Some(json!({"name": "W", "initialBalance": 0, "currency": "EUR"})),
            [200, 200, 200, 403],
        ),
        (
            Method::POST,
            "/api/transactions",
            Some(txn.clone()),
            [201, 201, 201, 403],
        ),
        (
            Method::POST,
            "/api/transactions",
            Some(
                json!({"amount": 1, "categoryId": "{c}", "date": "2026-01-01", "tagIds": ["{tag}"], "providerId": "{p}"}),
            ),
            [201, 400, 400, 403],
        ),
        (Method::GET, "/api/transactions", None, [200, 200, 200, 403]),
        (
            Method::GET,
            "/api/transactions/{t}",
            None,
            [200, 404, 404, 403],
        ),
        (
            Method::PUT,
            "/api/transactions/{t}",
            Some(txn.clone()),
            [200, 404, 404, 403],
        ),
        (
            Method::DELETE,
            "/api/transactions/{t}",
            None,
            [204, 404, 404, 403],
        ),
        (Method::GET, "/api/categories", None, [200, 200, 200, 403]),
        (
            Method::POST,
            "/api/categories",
            Some(json!({"categoryName": "Mine", "type": "CREDIT"})),
            [201, 201, 201, 403],
        ),
        (
            Method::POST,
            "/api/categories",
            Some(json!({"categoryName": "All", "type": "CREDIT", "isGlobal": true})),
            [403, 403, 201, 403],
        ),
        (
            Method::GET,
            "/api/categories/{c}",
            None,
            [200, 404, 404, 403],
        ),
        (Method::GET, "/api/categories/4", None, [200, 200, 200, 403]),
        (
            Method::PUT,
            "/api/categories/{c}",
            Some(cat.clone()),
            [200, 404, 404, 403],
        ),
        (
            Method::PUT,
            "/api/categories/12",
            Some(json!({"categoryName": "Other expenses", "type": "DEBIT"})),
            [403, 403, 200, 403],
        ),
        (
            Method::DELETE,
            "/api/categories/{c}",
            None,
            [204, 404, 404, 403],
        ),
        (
            Method::DELETE,
            "/api/categories/12",
            None,
            [403, 403, 409, 403],
        ),
        (
            Method::GET,
            "/api/insights/monthly?from=2026-01&to=2026-02",
            None,
            [200, 200, 200, 403],
        ),
        (
            Method::GET,
            "/api/budgets/2026-01",
            None,
            [200, 200, 200, 403],
        ),
        (
            Method::PUT,
            "/api/budgets/2026-01/{c}",
            Some(json!({"amount": "7.50"})),
            [200, 404, 404, 403],
        ),
        (
            Method::PUT,
            "/api/budgets/2026-01/4",
            Some(json!({"amount": 3})),
            [200, 200, 200, 403],
        ),
        (
            Method::DELETE,
            "/api/budgets/2026-01/{c}",
            None,
            [204, 404, 404, 403],
        ),
        (Method::GET, "/api/tags", None, [200, 200, 200, 403]),
        (
            Method::POST,
            "/api/tags",
            Some(json!({"tagName": "{n}"})),
            [201, 201, 201, 403],
        ),
        (Method::GET, "/api/tags/{tag}", None, [200, 404, 404, 403]),
        (
            Method::PUT,
            "/api/tags/{tag}",
            Some(json!({"tagName": "{n}"})),
            [200, 404, 404, 403],
        ),
        (
            Method::DELETE,
            "/api/tags/{tag}",
            None,
            [204, 404, 404, 403],
        ),
        (Method::GET, "/api/providers", None, [200, 200, 200, 403]),
        (
            Method::POST,
            "/api/providers",
            Some(json!({"providerName": "{n}"})),
            [201, 201, 201, 403],
        ),
        (
            Method::GET,
            "/api/providers/{p}",
            None,
            [200, 404, 404, 403],
        ),
        (
            Method::PUT,
            "/api/providers/{p}",
            Some(json!({"providerName": "{n}"})),
            [200, 404, 404, 403],
        ),
        (
            Method::DELETE,
            "/api/providers/{p}",
            None,
            [204, 404, 404, 403],
        ),
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

#[tokio::test]
async fn every_endpoint_allows_exactly_the_expected_callers() {
    let app = spawn_app().await;
    let owner = app.new_user().await;
    let other = app.new_user().await;
    let admin = app.new_admin().await;
    let mut failures = Vec::new();
    let mut cells = 0;
    for (method, path, body, expected) in rows() {
        for (i, caller) in [Some(&owner), Some(&other), Some(&admin), None]
            .into_iter()
            .enumerate()
        {
            let objects = owned(&app, &owner).await;
            let url = fill(path, &objects);
            let b = body.as_ref().map(|b| fill_body(b, &objects));
            let status = app
                .call(method.clone(), &url, caller, b.as_ref())
                .await
                .status()
                .as_u16();
            cells += 1;
            if status != expected[i] {
                let who = ["owner", "other", "admin", "anonymous"][i];
                failures.push(format!(
                    "{method} {path} as {who}: expected {}, got {status}",
                    expected[i]
                ));
            }
        }
    }
    // Deleting a user: a fresh victim per cell.
    for (i, expected) in [204u16, 404, 204, 403].into_iter().enumerate() {
        let victim = app.new_user().await;
        let caller = [Some(&victim), Some(&other), Some(&admin), None][i];
        let status = app
            .call(
                Method::DELETE,
                &format!("/users/{}", victim.id),
                caller,
                Some(&json!({"currentPassword": PASSWORD})),
            )
            .await
            .status()
            .as_u16();
        cells += 1;
        if status != expected {
            failures.push(format!(
                "DELETE /users/{{id}} as caller {i}: expected {expected}, got {status}"
            ));
        }
    }
    // Setting a picture: the owner and an admin may.
    for (i, expected) in [204u16, 404, 204, 403].into_iter().enumerate() {
        let caller = [Some(&owner), Some(&other), Some(&admin), None][i];
        let path = format!("/users/{}/picture", owner.id);
        let status = app
            .call_raw(Method::PUT, &path, caller, "image/png", png())
            .await
            .status()
            .as_u16();
        cells += 1;
        if status != expected {
            failures.push(format!(
                "PUT /users/{{id}}/picture as caller {i}: expected {expected}, got {status}"
            ));
        }
    }
    println!(
        "authorization matrix: {cells} cells, {} failures",
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(cells, (rows().len() + 2) * 4);
}
