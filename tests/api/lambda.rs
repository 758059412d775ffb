//! Real API Gateway HTTP API (v2) events through the Lambda adapter of the functions,
//! exactly as `lambda_http::run` hands them over in AWS.

use lambda_http::request::LambdaRequest;
use lambda_http::{Adapter, Context, LambdaEvent, Service};
use serde_json::Value;
use shared::http::AppState;
use utoipa_axum::router::OpenApiRouter;

use crate::helpers::{fresh_state, spawn_app_and_user};

/// Sends one event through a function's router (of its documented routes, `api`) and
/// returns the Lambda response as JSON.
async fn call(api: OpenApiRouter<AppState>, state: &AppState, event: &str) -> Value {
    invoke(shared::http::router(api, state.clone()), event).await
}

/// Sends one event through a router and returns the Lambda response as JSON.
async fn invoke(router: axum::Router, event: &str) -> Value {
    let payload: LambdaRequest = serde_json::from_str(event).expect("event parses");
    let mut adapter = Adapter::from(shared::http::with_fallback(router));
    let response = adapter
        .call(LambdaEvent::new(payload, Context::default()))
        .await
        .expect("infallible");
    serde_json::to_value(&response).expect("response serializes")
}

fn body_json(response: &Value) -> Value {
    serde_json::from_str(response["body"].as_str().expect("text body")).expect("json body")
}

#[tokio::test]
async fn a_base64_registration_event_through_the_auth_function_creates_the_user() {
    let state = fresh_state().await;
    let event = include_str!("../fixtures/apigw_v2_register.json");
    let response = call(auth_fn::api(), &state, event).await;
    assert_eq!(response["statusCode"], 201, "{response}");
    assert_eq!(body_json(&response)["email"], "lambda@example.com");
    assert!(state
        .store
        .find_user_by_email("lambda@example.com")
        .await
        .unwrap()
        .is_some());
}

#[tokio::test]
async fn list_and_get_events_through_the_transactions_function_see_only_the_callers_data() {
    let (app, user) = spawn_app_and_user().await;
    let debit = app.add(&user, "3.50", 4, "2026-06-01").await;
    app.add(&user, "900", 1, "2026-06-02").await;
    let other = app.new_user().await;
    app.add(&other, "1.00", 4, "2026-06-03").await;

    let event = include_str!("../fixtures/apigw_v2_list_transactions.json")
        .replace("{{TOKEN}}", &user.token);
    let response = call(transactions_fn::api(), &app.state, &event).await;
    assert_eq!(response["statusCode"], 200, "{response}");
    let list = body_json(&response);
    assert_eq!(list.as_array().unwrap().len(), 1);
    assert_eq!(list[0]["id"], debit["id"]);

    let get = include_str!("../fixtures/apigw_v2_get_transaction.json")
        .replace("{{TOKEN}}", &user.token)
        .replace("{{ID}}", &debit["id"].to_string());
    let response = call(transactions_fn::api(), &app.state, &get).await;
    assert_eq!(response["statusCode"], 200, "{response}");
    assert_eq!(body_json(&response)["amount"]["amount"].to_string(), "3.50");

    let forbidden = get.replace(&user.token, &other.token);
    let response = call(transactions_fn::api(), &app.state, &forbidden).await;
    assert_eq!(response["statusCode"], 404, "{response}");
}

#[tokio::test]
async fn a_fresh_deployment_seeds_the_global_categories_at_cold_start() {
    // A table with nothing in it, as right after `sam deploy`.
    let seeded = fresh_state().await;
    let table = format!("fresh-{}", rand::random::<u64>());
    let store =
        shared::store::Store::connect(&table, seeded.config.dynamodb_endpoint.as_deref()).await;
    store.ensure_table().await.unwrap();
    assert!(!store.global_categories_seeded().await.unwrap());
    let state = shared::http::AppState {
        store: store.clone(),
        ..seeded
    };

    let router =
        shared::lambda::with_global_categories(transactions_fn::api(), state.clone()).await;
    assert!(store.global_categories_seeded().await.unwrap());
    let (user, _) = store
        .create_user(shared::store::users::NewUser {
            email: "first@example.com".into(),
            normalized_email: "first@example.com".into(),
            first_name: "F".into(),
            last_name: "U".into(),
            password_hash: "x".into(),
            now: "2026-01-01T00:00:00".into(),
        })
        .await
        .unwrap();
    let token = state.tokens.issue(user.id, user.role, 0, 0).unwrap();
    let event =
        include_str!("../fixtures/apigw_v2_list_transactions.json").replace("{{TOKEN}}", &token);
    let response = invoke(router, &event).await;
    assert_eq!(response["statusCode"], 200, "{response}");
    assert_eq!(
        store
            .list_categories_in(shared::store::keys::GLOBAL_PK)
            .await
            .unwrap()
            .len(),
        shared::store::categories::GLOBAL_CATEGORIES.len()
    );
}

#[tokio::test]
async fn a_base64_csv_import_event_through_the_imports_function_creates_the_rows() {
    let (app, user) = spawn_app_and_user().await;
    let event =
        include_str!("../fixtures/apigw_v2_import_csv.json").replace("{{TOKEN}}", &user.token);
    let response = call(imports_fn::api(), &app.state, &event).await;
    assert_eq!(response["statusCode"], 201, "{response}");
    let report = body_json(&response);
    assert_eq!(
        (&report["rows"], &report["created"]),
        (&2.into(), &2.into()),
        "{report}"
    );
    assert_eq!(app.balance(&user).await, "896.50");
}

/// A batch nearing its invocation's end answers the operations it has not begun `503`,
/// unapplied, instead of running past the deadline and being cut off with none answered
/// (here the deadline has come before the first one).
#[tokio::test]
async fn a_batch_out_of_time_answers_what_is_left_unapplied() {
    use tower::ServiceExt;
    let (app, user) = spawn_app_and_user().await;
    let create = serde_json::json!({"op": "create",
        "body": {"amount": "1.00", "categoryId": 4, "date": "2026-03-01"}});
    let body = serde_json::json!({"operations": [create.clone(), create]});
    let request = http::Request::post("/api/transactions/batch")
        .header("authorization", format!("Bearer {}", user.token))
        .header("content-type", "application/json")
        .body(axum::body::Body::from(body.to_string()))
        .unwrap();
    let router = shared::http::router(transactions_fn::api(), app.state.clone());
    let deadline = std::time::Instant::now();
    let response = shared::store::retry::within(deadline, router.oneshot(request))
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
        .await
        .unwrap();
    let answer: Value = serde_json::from_slice(&bytes).unwrap();
    let statuses: Vec<u64> = answer["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["status"].as_u64().unwrap())
        .collect();
    assert_eq!(statuses, [503, 503]);
    let detail = answer["results"][1]["body"]["detail"].as_str().unwrap();
    assert!(detail.contains("send it again"), "{answer}");
    let listed: Vec<Value> = app.get_json(&user, "/api/transactions").await;
    assert!(listed.is_empty(), "{listed:?}");
}
