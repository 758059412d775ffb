//! `POST /api/transactions/batch`: an offline queue of creates, updates and deletes, each
//! applied on its own (one failing undoes no other), in order, each idempotent with its key.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::dto::{TransactionRequest, TransactionResponse, ValidTransaction};
use crate::request_hash;
use shared::app::transactions::{self as service, Idempotency, IfMatch};
use shared::http::auth::AuthUser;
use shared::http::extract::Json;
use shared::http::{docs, ApiError, ApiResult, AppState, Problem};

/// Operations per batch.
pub const MAX_OPERATIONS: usize = 100;

#[derive(Debug, Deserialize, Serialize, ToSchema, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum OperationKind {
    Create,
    Update,
    Delete,
}

/// One queued change.
#[derive(Debug, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Operation {
    pub op: OperationKind,
    /// The transaction (update and delete).
    #[schema(minimum = 1, maximum = 9007199254740991.0)]
    pub id: Option<u64>,
    /// The `ETag` the change is based on (update and delete): `412` when stale.
    #[schema(max_length = 64)]
    pub if_match: Option<String>,
    /// As the `Idempotency-Key` header: a repeated key replays its first result.
    #[schema(min_length = 1, max_length = 255)]
    pub idempotency_key: Option<String>,
    /// The body of `POST` or `PUT /api/transactions` (create and update).
    #[schema(value_type = Option<TransactionRequest>)]
    pub body: Option<Value>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BatchRequest {
    /// 1 to 100 operations, applied in order.
    #[schema(min_items = 1, max_items = 100)]
    pub operations: Vec<Operation>,
}

/// The outcome of one operation.
#[derive(Debug, Serialize, ToSchema)]
pub struct OperationResult {
    /// The status the single request would have answered (201, 200, 204, 400, 404, 412...).
    pub status: u16,
    /// The transaction (create, update), a problem body (a failure), or absent (204).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub body: Option<Value>,
    /// The operation replayed an earlier one with the same idempotency key.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub replayed: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct BatchResponse {
    /// One result per operation, in order.
    pub results: Vec<OperationResult>,
}

/// Applies queued creates, updates and deletes of the caller's transactions, in order,
/// each on its own: one failing undoes no other, and the balance stays exact whatever
/// fails. Each result is what the single request would have answered. A repeated
/// `idempotencyKey` replays its first result.
#[utoipa::path(
    post,
    path = "/api/transactions/batch",
    tag = "transactions",
    security(("bearer" = [])),
    request_body = BatchRequest,
    responses(
        (status = 200, description = "One result per operation", body = BatchResponse),
        docs::CreateErrors,
    )
)]
pub async fn batch(
    State(state): State<AppState>,
    user: AuthUser,
    Json(request): Json<BatchRequest>,
) -> ApiResult<Json<BatchResponse>> {
    let n = request.operations.len();
    if !(1..=MAX_OPERATIONS).contains(&n) {
        return Err(ApiError::bad_request(format!(
            "operations must hold 1 to {MAX_OPERATIONS} operations"
        )));
    }
    let mut results = Vec::with_capacity(n);
    for (i, operation) in request.operations.into_iter().enumerate() {
        results.push(match apply(&state, user.id, operation).await {
            Ok(result) => result,
            Err(e) => failure(e, i),
        });
    }
    Ok(Json(BatchResponse { results }))
}

fn failure(e: ApiError, index: usize) -> OperationResult {
    let response = e.into_response();
    let status = response.status().as_u16();
    let body = response.extensions().get::<Problem>().map(|p| {
        let mut p = p.clone();
        p.path = format!("/api/transactions/batch#/operations/{index}");
        p.instance = p.path.clone();
        serde_json::to_value(p).unwrap_or(Value::Null)
    });
    OperationResult {
        status,
        body,
        replayed: false,
    }
}

fn key_of(operation: &Operation) -> ApiResult<Option<&str>> {
    match operation.idempotency_key.as_deref() {
        Some(k) if k.is_empty() || k.len() > 255 || !k.bytes().all(|b| b.is_ascii_graphic()) => {
            Err(ApiError::bad_request(
                "idempotencyKey must be 1 to 255 visible ASCII characters",
            ))
        }
        other => Ok(other),
    }
}

fn if_match(operation: &Operation) -> ApiResult<Option<IfMatch>> {
    let Some(text) = operation.if_match.as_deref().map(str::trim) else {
        return Ok(None);
    };
    if text.len() > 64 {
        return Err(ApiError::bad_request("ifMatch is at most 64 characters"));
    }
    if text == "*" {
        return Ok(Some(IfMatch::Any));
    }
    let text = text.strip_prefix("W/").unwrap_or(text);
    Ok(Some(IfMatch::Version(text.trim_matches('"').parse().ok())))
}

fn input(body: Option<&Value>) -> ApiResult<ValidTransaction> {
    let body =
        body.ok_or_else(|| ApiError::bad_request("body is required for create and update"))?;
    let request: TransactionRequest = serde_json::from_value(body.clone())
        .map_err(|e| ApiError::bad_request(format!("invalid body: {e}")))?;
    ValidTransaction::try_from(request)
}

fn id_of(operation: &Operation) -> ApiResult<u64> {
    operation
        .id
        .filter(|id| (1..=shared::domain::ids::MAX_SAFE_ID).contains(id))
        .ok_or_else(|| ApiError::bad_request("id is required for update and delete"))
}

fn transaction(
    status: StatusCode,
    t: &shared::store::transactions::Transaction,
    replayed: bool,
) -> ApiResult<OperationResult> {
    let body = serde_json::to_value(TransactionResponse::from(t))
        .map_err(|e| ApiError::Internal(e.into()))?;
    Ok(OperationResult {
        status: status.as_u16(),
        body: Some(body),
        replayed,
    })
}

async fn apply(state: &AppState, user_id: u64, operation: Operation) -> ApiResult<OperationResult> {
    let key = key_of(&operation)?;
    // The same key and operation replay; anything else under that key is refused.
    let hash = request_hash(&operation)?;
    let idempotency = key.map(|key| Idempotency {
        key,
        request_hash: &hash,
    });
    let store = &state.store;
    match operation.op {
        OperationKind::Create => {
            if operation.id.is_some() || operation.if_match.is_some() {
                return Err(ApiError::bad_request("a create takes no id or ifMatch"));
            }
            let input = input(operation.body.as_ref())?;
            let created = service::create(store, user_id, input, idempotency).await?;
            transaction(StatusCode::CREATED, &created.transaction, created.replayed)
        }
        OperationKind::Update => {
            let (id, expected) = (id_of(&operation)?, if_match(&operation)?);
            let input = input(operation.body.as_ref())?;
            let (t, replayed) =
                service::update(store, user_id, id, input, expected, idempotency).await?;
            transaction(StatusCode::OK, &t, replayed)
        }
        OperationKind::Delete => {
            if operation.body.is_some() {
                return Err(ApiError::bad_request("a delete takes no body"));
            }
            let (id, expected) = (id_of(&operation)?, if_match(&operation)?);
            let replayed = service::delete(store, user_id, id, expected, idempotency).await?;
            Ok(OperationResult {
                status: StatusCode::NO_CONTENT.as_u16(),
                body: None,
                replayed,
            })
        }
    }
}
