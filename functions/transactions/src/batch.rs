//! `POST /api/transactions/batch`: an offline queue of creates, updates and deletes, each
//! applied on its own (one failing undoes no other), in order, each idempotent with its key.

use axum::http::StatusCode;
use axum::response::IntoResponse;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::dto::{TransactionRequest, TransactionResponse};
use crate::{is_idempotency_key, Keyed};
use pf_app as app;
use pf_app::transactions::{IfMatch, RulesOnce, TransactionDraft};
use pf_domain::money::{MAX_AMOUNT_EXCLUSIVE, OUT_OF_RANGE};
use pf_http::auth::Caller;
use pf_http::extract::{parse_if_match, Json};
use pf_http::{docs, ApiError, ApiResult, AppState, FieldError, Problem};

/// Operations per batch.
pub const MAX_OPERATIONS: usize = 100;

/// The members an [`Operation`] may have.
const OPERATION_MEMBERS: [&str; 5] = ["op", "id", "ifMatch", "idempotencyKey", "body"];

#[derive(Debug, Deserialize, Serialize, ToSchema, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum OperationKind {
    Create,
    Update,
    Delete,
}

/// One queued change. Each operation is read on its own, after the envelope: one that
/// breaks this schema, also with a member not listed here, is no `400` of the whole batch
/// but its own `400` result naming the field (so the schema is not closed).
#[derive(Debug, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Operation {
    pub op: OperationKind,
    /// The transaction (update and delete).
    #[schema(value_type = Option<u64>, minimum = 1, maximum = 9007199254740991.0)]
    pub id: Option<Value>,
    /// The `ETag` the change is based on (update and delete): `412` when stale.
    #[schema(max_length = 64)]
    pub if_match: Option<String>,
    /// Like the `Idempotency-Key` header (1 to 255 visible ASCII characters, kept 24 h): the
    /// same operation again replays its result. A key names the whole operation as sent
    /// here, so one first sent as a header is another request here (`422`).
    #[schema(min_length = 1, max_length = 255, pattern = "^[!-~]{1,255}$")]
    pub idempotency_key: Option<String>,
    /// The body of `POST` or `PUT /api/transactions` (create and update).
    #[schema(value_type = Option<TransactionRequest>)]
    pub body: Option<Value>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BatchRequest {
    /// 1 to 100 operations, applied in order. Each is read on its own: one that is
    /// malformed gets its own `400` result and the others are applied.
    #[schema(min_items = 1, max_items = 100, value_type = Vec<Operation>)]
    pub operations: Vec<Value>,
}

/// The outcome of one operation.
#[derive(Debug, Serialize, ToSchema)]
pub struct OperationResult {
    /// The status the single request would have answered (201, 200, 204, 400, 404, 412...).
    pub status: u16,
    /// The transaction (create, update), a problem body (a failure), or absent (204).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Object)]
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
/// `idempotencyKey` replays its first result. An operation that breaks this document's
/// schema (a malformed body, id or key) gets its own `400` result (a problem naming its
/// fields) and the others are applied; only a malformed envelope (no array of 1 to 100
/// operations) makes the whole batch `400`, nothing applied. Operations the function has
/// no time left for are `503` results, not applied: send them again.
#[utoipa::path(
    post,
    path = "/api/transactions/batch",
    request_body = BatchRequest,
    responses(
        (status = 200, description = "One result per operation", body = BatchResponse),
        docs::CreateErrors,
    )
)]
pub async fn batch(
    me: Caller,
    Json(request): Json<BatchRequest>,
) -> ApiResult<Json<BatchResponse>> {
    let n = request.operations.len();
    if !(1..=MAX_OPERATIONS).contains(&n) {
        return Err(ApiError::bad_request(format!(
            "operations must hold 1 to {MAX_OPERATIONS} operations"
        )));
    }
    let mut results = Vec::with_capacity(n);
    // The caller's rules, loaded by the first create without a category, for all of them.
    let rules = RulesOnce::default();
    for (i, operation) in request.operations.into_iter().enumerate() {
        let outcome = match check(operation) {
            // Near the invocation's end, what is left is answered unapplied, in time.
            Ok(_) if pf_app::out_of_time() => Err(ApiError::NotNow(
                "not applied: the batch ran out of time before it; send it again".into(),
            )),
            Ok(c) => apply(&me.state, me.id, c, &rules).await,
            Err(errors) => Err(ApiError::validation(errors)),
        };
        results.push(outcome.unwrap_or_else(|e| failure(e, i)));
    }
    Ok(Json(BatchResponse { results }))
}

/// An operation whose fields passed parsing.
struct Checked {
    op: OperationKind,
    id: Option<u64>,
    if_match: Option<IfMatch>,
    input: Option<TransactionDraft>,
    /// The operation's key, and the hash that tells a repeat from another operation.
    keyed: Keyed,
}

/// Parses one operation: every field that breaks the schema is reported (an operation
/// that is no operation object at all is reported as a whole).
fn check(operation: Value) -> Result<Checked, Vec<FieldError>> {
    // The operation's own 400, as `deny_unknown_fields` would answer it, without a closed
    // schema in the document (see `Operation`).
    if let Some(members) = operation.as_object() {
        let unknown: Vec<FieldError> = members
            .keys()
            .filter(|k| !OPERATION_MEMBERS.contains(&k.as_str()))
            .map(|k| FieldError::new(k.clone(), "unknown member"))
            .collect();
        if !unknown.is_empty() {
            return Err(unknown);
        }
    }
    let operation: Operation = serde_json::from_value(operation)
        .map_err(|e| vec![FieldError::new("operation", format!("invalid: {e}"))])?;
    let mut errors = Vec::new();
    let mut keyed =
        Keyed::new(None, &operation).map_err(|_| vec![FieldError::new("body", "unreadable")])?;
    let id = match operation.id.as_ref().map(pf_http::ids::parse_id) {
        Some(Ok(id)) => Some(id),
        Some(Err(e)) => {
            errors.push(FieldError::new("id", e));
            None
        }
        None => None,
    };
    keyed.key = match operation.idempotency_key {
        Some(k) if !is_idempotency_key(&k) => {
            errors.push(FieldError::new(
                "idempotencyKey",
                "must be 1 to 255 visible ASCII characters",
            ));
            None
        }
        other => other,
    };
    let if_match = match operation.if_match.as_deref().map(parse_if_match) {
        Some(Err(e)) => {
            errors.push(FieldError::new("ifMatch", e));
            None
        }
        Some(Ok(m)) => Some(m),
        None => None,
    };
    let input = match operation.body.filter(|b| !b.is_null()) {
        Some(body) => match serde_json::from_value::<TransactionRequest>(body) {
            Ok(request) => match TransactionDraft::try_from(request) {
                // The document bounds amounts below 10^13, as the single request does.
                Ok(input) if input.amount >= MAX_AMOUNT_EXCLUSIVE => {
                    errors.push(FieldError::new("body.amount", OUT_OF_RANGE));
                    None
                }
                Ok(input) => Some(input),
                Err(ApiError::BadRequest {
                    errors: fields,
                    message,
                }) if fields.is_empty() => {
                    errors.push(FieldError::new("body", message));
                    None
                }
                Err(ApiError::BadRequest { errors: fields, .. }) => {
                    errors.extend(
                        fields
                            .into_iter()
                            .map(|f| FieldError::new(format!("body.{}", f.field), f.message)),
                    );
                    None
                }
                Err(e) => {
                    errors.push(FieldError::new("body", e.to_string()));
                    None
                }
            },
            Err(e) => {
                errors.push(FieldError::new("body", format!("invalid: {e}")));
                None
            }
        },
        None => None,
    };
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(Checked {
        op: operation.op,
        id,
        if_match,
        input,
        keyed,
    })
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

fn id_of(c: &Checked) -> ApiResult<u64> {
    c.id.ok_or_else(|| ApiError::bad_request("id is required for update and delete"))
}

fn input_of(c: &mut Checked) -> ApiResult<TransactionDraft> {
    c.input
        .take()
        .ok_or_else(|| ApiError::bad_request("body is required for create and update"))
}

fn transaction(
    status: StatusCode,
    t: &pf_domain::Transaction,
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

async fn apply(
    state: &AppState,
    user_id: u64,
    mut c: Checked,
    rules: &RulesOnce,
) -> ApiResult<OperationResult> {
    // The same key and operation replay; anything else under that key is refused.
    let keyed = std::mem::take(&mut c.keyed);
    let idempotency = keyed.idempotency();
    let store = &state.store;
    match c.op {
        OperationKind::Create => {
            if c.id.is_some() || c.if_match.is_some() {
                return Err(ApiError::bad_request("a create takes no id or ifMatch"));
            }
            let input = input_of(&mut c)?;
            let created =
                app::transactions::create(store, user_id, input, idempotency, rules).await?;
            transaction(StatusCode::CREATED, &created.transaction, created.replayed)
        }
        OperationKind::Update => {
            let id = id_of(&c)?;
            let input = input_of(&mut c)?;
            let (t, replayed) =
                app::transactions::update(store, user_id, id, input, c.if_match, idempotency)
                    .await?;
            transaction(StatusCode::OK, &t, replayed)
        }
        OperationKind::Delete => {
            if c.input.is_some() {
                return Err(ApiError::bad_request("a delete takes no body"));
            }
            let id = id_of(&c)?;
            let replayed =
                app::transactions::delete(store, user_id, id, c.if_match, idempotency).await?;
            Ok(OperationResult {
                status: StatusCode::NO_CONTENT.as_u16(),
                body: None,
                replayed,
            })
        }
    }
}
