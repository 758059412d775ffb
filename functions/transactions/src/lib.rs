//! Transaction endpoints (`/api/transactions`) and the wallet balance they move.

pub mod dto;

use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use sha2::{Digest, Sha256};
use utoipa_axum::{router::OpenApiRouter, routes};

use dto::{ListQuery, TransactionRequest, TransactionResponse, ValidTransaction};
use shared::domain::time::now_local_date_time;
use shared::domain::{ids::new_id, Currency, Money, MoneyError};
use shared::http::auth::AuthUser;
use shared::http::extract::{Json, Path, Query};
use shared::http::{docs, finish, ApiError, ApiResult, AppState, FieldError};
use shared::store::transactions::{ListError, RefKeys, Refs, TransactionRecord, TxnWriteError};

/// The routes with their documentation: a route cannot exist without it.
pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(read, update, remove))
}

pub fn router(state: AppState) -> Router {
    finish(api().split_for_parts().0, state)
}

/// Attempts at a write that lost a race (id clash or concurrent edit) before giving up.
const WRITE_ATTEMPTS: usize = 5;

fn etag(t: &TransactionRecord) -> HeaderValue {
    HeaderValue::from_str(&format!("\"{}\"", t.version))
        .unwrap_or_else(|_| HeaderValue::from_static("\"0\""))
}

fn respond(status: StatusCode, t: &TransactionRecord, location: bool) -> ApiResult<Response> {
    let body = TransactionResponse::try_from(t)?;
    let mut response = (status, Json(body)).into_response();
    response.headers_mut().insert(header::ETAG, etag(t));
    if location {
        if let Ok(v) = HeaderValue::from_str(&format!("/api/transactions/{}", t.id)) {
            response.headers_mut().insert(header::LOCATION, v);
        }
    }
    Ok(response)
}

fn not_found() -> ApiError {
    ApiError::NotFound("transaction not found".into())
}

/// An `Idempotency-Key` header: 1 to 255 visible ASCII characters.
fn idempotency_key(headers: &HeaderMap) -> ApiResult<Option<String>> {
    let Some(value) = headers.get("idempotency-key") else {
        return Ok(None);
    };
    match value.to_str() {
        Ok(k) if !k.is_empty() && k.len() <= 255 && k.bytes().all(|b| b.is_ascii_graphic()) => {
            Ok(Some(k.to_owned()))
        }
        _ => Err(ApiError::bad_request(
            "Idempotency-Key must be 1 to 255 visible ASCII characters",
        )),
    }
}

/// Checks the parsed request against what it refers to and builds the record to store.
fn build_record(
    user: &AuthUser,
    valid: ValidTransaction,
    refs: &Refs,
    id: u64,
    version: u64,
    created_at: Option<&str>,
    now: &str,
) -> ApiResult<TransactionRecord> {
    let wallet = refs
        .wallet
        .as_ref()
        .ok_or_else(|| ApiError::Forbidden("this account no longer exists".into()))?;
    let mut errors = Vec::new();
    if let Some(code) = &valid.currency {
        if Currency::from_code(code) != Some(wallet.currency) {
            errors.push(FieldError::new(
                "currency",
                format!("must be the wallet's currency, {}", wallet.currency.code()),
            ));
        }
    }
    match Money::new(valid.amount, wallet.currency) {
        Ok(_) => {}
        Err(MoneyError::TooManyDecimals { code, allowed }) => errors.push(FieldError::new(
            "amount",
            format!("{code} amounts have at most {allowed} decimals"),
        )),
        Err(_) => errors.push(FieldError::new("amount", "must be below 10^13")),
    }
    if refs.category.is_none() {
        errors.push(FieldError::new("categoryId", "no such category"));
    }
    if valid.provider_id.is_some() && !refs.provider_found {
        errors.push(FieldError::new("providerId", "no such provider"));
    }
    let missing: Vec<String> = valid
        .tag_ids
        .iter()
        .filter(|t| !refs.tags_found.contains(t))
        .map(u64::to_string)
        .collect();
    if !missing.is_empty() {
        errors.push(FieldError::new(
            "tagIds",
            format!("no such tag: {}", missing.join(", ")),
        ));
    }
    let Some(category) = refs.category.as_ref().filter(|_| errors.is_empty()) else {
        return Err(ApiError::validation(errors));
    };
    Ok(TransactionRecord {
        user_id: user.id,
        id,
        amount: valid.amount,
        currency: wallet.currency,
        date: valid.date,
        note: valid.note,
        category_id: category.id,
        category_type: category.category_type,
        category_global: category.is_global,
        provider_id: valid.provider_id,
        tag_ids: valid.tag_ids,
        version,
        created_at: created_at.unwrap_or(now).to_owned(),
        updated_at: now.to_owned(),
    })
}

fn write_error(e: TxnWriteError) -> ApiError {
    match e {
        TxnWriteError::Wallet => {
            ApiError::Conflict("the wallet changed meanwhile (currency or account); retry".into())
        }
        TxnWriteError::Reference(kind) => ApiError::validation(vec![FieldError::new(
            match kind {
                "provider" => "providerId",
                "tag" => "tagIds",
                _ => "categoryId",
            },
            format!("the {kind} was deleted or changed meanwhile"),
        )]),
        TxnWriteError::Stale => {
            ApiError::Conflict("the transaction changed meanwhile; retry".into())
        }
        TxnWriteError::IdempotencyKey => {
            ApiError::Conflict("a request with this Idempotency-Key is in progress".into())
        }
        TxnWriteError::Store(e) => e.into(),
    }
}

/// Answers a repeated request: the same body gets the original result again.
async fn replay(
    state: &AppState,
    user: &AuthUser,
    stored_hash: &str,
    hash: &str,
    txn_id: u64,
) -> ApiResult<Response> {
    if stored_hash != hash {
        return Err(ApiError::Unprocessable(
            "Idempotency-Key was already used with a different request body".into(),
        ));
    }
    let txn = state
        .store
        .get_transaction(user.id, txn_id)
        .await?
        .ok_or_else(|| {
            ApiError::Conflict(
                "the transaction created with this Idempotency-Key has since been deleted".into(),
            )
        })?;
    let mut response = respond(StatusCode::CREATED, &txn, true)?;
    response
        .headers_mut()
        .insert("idempotent-replayed", HeaderValue::from_static("true"));
    Ok(response)
}

/// Creates a transaction in the caller's wallet and moves its balance.
#[utoipa::path(
    post,
    path = "/api/transactions",
    tag = "transactions",
    security(("bearer" = [])),
    params(("Idempotency-Key" = Option<String>, Header, min_length = 1, max_length = 255, description = "Repeating a request with the same key and body returns the first result instead of creating another transaction (kept 24 h).")),
    request_body = TransactionRequest,
    responses(
        (status = 201, description = "Created", body = TransactionResponse, headers(
            ("Location" = String, description = "URL of the new transaction"),
            ("ETag" = String, description = "Version, for If-Match"))),
        docs::CreateErrors,
        (status = 422, response = docs::Unprocessable),
    )
)]
async fn create(
    State(state): State<AppState>,
    user: AuthUser,
    headers: HeaderMap,
    Json(body): Json<TransactionRequest>,
) -> ApiResult<Response> {
    let key = idempotency_key(&headers)?;
    let hash = hex::encode(Sha256::digest(
        serde_json::to_vec(&body).map_err(anyhow::Error::from)?,
    ));
    let valid = ValidTransaction::try_from(body)?;
    for _ in 0..WRITE_ATTEMPTS {
        let refs = state
            .store
            .fetch_refs(
                user.id,
                RefKeys {
                    category_id: Some(valid.category_id),
                    provider_id: valid.provider_id,
                    tag_ids: &valid.tag_ids,
                    transaction_id: None,
                    idempotency_key: key.as_deref(),
                    skip_wallet: false,
                },
            )
            .await?;
        if let Some(idem) = &refs.idempotency {
            return replay(
                &state,
                &user,
                &idem.request_hash,
                &hash,
                idem.transaction_id,
            )
            .await;
        }
        let now = now_local_date_time();
        let record = build_record(&user, valid.clone(), &refs, new_id(), 1, None, &now)?;
        match state
            .store
            .insert_transaction(&record, key.as_deref().map(|k| (k, hash.as_str())), &now)
            .await
        {
            Ok(()) => return respond(StatusCode::CREATED, &record, true),
            // The generated id was taken: try another.
            Err(TxnWriteError::Stale) => continue,
            // A concurrent request with the same key won: answer as a replay.
            Err(TxnWriteError::IdempotencyKey) => continue,
            Err(e) => return Err(write_error(e)),
        }
    }
    Err(ApiError::Conflict(
        "could not store the transaction; retry".into(),
    ))
}

/// Lists the caller's transactions, newest date first, one page at a time.
#[utoipa::path(
    get,
    path = "/api/transactions",
    tag = "transactions",
    security(("bearer" = [])),
    params(ListQuery),
    responses(
        (status = 200, description = "One page, newest date first", body = Vec<TransactionResponse>, headers(
            ("Link" = String, description = "`<url>; rel=\"next\"` when another page may follow"))),
        docs::ListErrors,
    )
)]
async fn list(
    State(state): State<AppState>,
    user: AuthUser,
    Query(query): Query<ListQuery>,
) -> ApiResult<Response> {
    let (filter, limit) = query.parse()?;
    let invalid_cursor = || {
        ApiError::validation(vec![FieldError::new(
            "cursor",
            "is not a cursor this service issued",
        )])
    };
    // Cursors are sealed with a server key: a forged or altered one never reaches DynamoDB.
    let position = match &query.cursor {
        Some(c) => Some(
            state
                .tokens
                .cursors()
                .open(user.id, c)
                .ok_or_else(invalid_cursor)?,
        ),
        None => None,
    };
    let page = state
        .store
        .list_transactions(user.id, &filter, limit, position.as_deref())
        .await
        .map_err(|e| match e {
            ListError::Cursor(_) => invalid_cursor(),
            ListError::Store(e) => e.into(),
        })?;
    let items = page
        .items
        .iter()
        .map(TransactionResponse::try_from)
        .collect::<ApiResult<Vec<_>>>()?;
    let mut response = Json(items).into_response();
    if let Some(position) = page.next_cursor {
        let cursor = state.tokens.cursors().seal(user.id, &position);
        let link = format!(
            "</api/transactions?{}>; rel=\"next\"",
            query.next_page(&cursor)
        );
        if let Ok(v) = HeaderValue::from_str(&link) {
            response.headers_mut().insert(header::LINK, v);
        }
    }
    Ok(response)
}

/// One of the caller's transactions; someone else's is 404, as if it did not exist.
#[utoipa::path(
    get,
    path = "/api/transactions/{id}",
    tag = "transactions",
    security(("bearer" = [])),
    params(("id" = inline(docs::Id), Path)),
    responses(
        (status = 200, description = "The transaction", body = TransactionResponse, headers(("ETag" = String, description = "Version, for If-Match"))),
        docs::ReadErrors,
    )
)]
async fn read(
    State(state): State<AppState>,
    user: AuthUser,
    Path(id): Path<u64>,
) -> ApiResult<Response> {
    let txn = state
        .store
        .get_transaction(user.id, id)
        .await?
        .ok_or_else(not_found)?;
    respond(StatusCode::OK, &txn, false)
}

/// `If-Match` with the ETag of a read makes the update conditional on that version.
fn if_match(headers: &HeaderMap) -> ApiResult<Option<IfMatch>> {
    let Some(value) = headers.get(header::IF_MATCH) else {
        return Ok(None);
    };
    let text = value.to_str().unwrap_or_default().trim();
    if text.len() > 64 {
        return Err(ApiError::bad_request("If-Match is at most 64 characters"));
    }
    if text == "*" {
        return Ok(Some(IfMatch::Any));
    }
    let text = text.strip_prefix("W/").unwrap_or(text);
    // An ETag we never issued matches no version.
    Ok(Some(IfMatch::Version(text.trim_matches('"').parse().ok())))
}

/// A parsed `If-Match`: `*` (any current version) or one ETag.
#[derive(Debug, Clone, Copy)]
enum IfMatch {
    Any,
    Version(Option<u64>),
}

impl IfMatch {
    fn matches(self, version: u64) -> bool {
        match self {
            IfMatch::Any => true,
            IfMatch::Version(v) => v == Some(version),
        }
    }
}

/// Replaces every field of one of the caller's transactions.
#[utoipa::path(
    put,
    path = "/api/transactions/{id}",
    tag = "transactions",
    security(("bearer" = [])),
    params(
        ("id" = inline(docs::Id), Path),
        ("If-Match" = Option<String>, Header, max_length = 64, description = "ETag of the version this update is based on"),
    ),
    request_body = TransactionRequest,
    responses(
        (status = 200, description = "Updated", body = TransactionResponse, headers(("ETag" = String, description = "New version"))),
        docs::UpdateErrors,
        (status = 412, response = docs::PreconditionFailed),
    )
)]
async fn update(
    State(state): State<AppState>,
    user: AuthUser,
    Path(id): Path<u64>,
    headers: HeaderMap,
    Json(body): Json<TransactionRequest>,
) -> ApiResult<Response> {
    let expected = if_match(&headers)?;
    let valid = ValidTransaction::try_from(body)?;
    for _ in 0..WRITE_ATTEMPTS {
        let refs = state
            .store
            .fetch_refs(
                user.id,
                RefKeys {
                    category_id: Some(valid.category_id),
                    provider_id: valid.provider_id,
                    tag_ids: &valid.tag_ids,
                    transaction_id: Some(id),
                    idempotency_key: None,
                    skip_wallet: false,
                },
            )
            .await?;
        let old = refs.transaction.clone().ok_or_else(not_found)?;
        let now = now_local_date_time();
        let new = build_record(
            &user,
            valid.clone(),
            &refs,
            id,
            old.version + 1,
            Some(&old.created_at),
            &now,
        )?;
        // Existence (404) and the data (400) first: If-Match only decides between valid updates.
        if expected.is_some_and(|e| !e.matches(old.version)) {
            return Err(ApiError::PreconditionFailed(
                "If-Match does not match the current version".into(),
            ));
        }
        match state.store.replace_transaction(&old, &new, &now).await {
            Ok(()) => return respond(StatusCode::OK, &new, false),
            Err(TxnWriteError::Stale) if expected.is_some() => {
                return Err(ApiError::PreconditionFailed(
                    "If-Match does not match the current version".into(),
                ))
            }
            // Changed or deleted since read: read again (a deletion then answers 404).
            Err(TxnWriteError::Stale) => continue,
            Err(e) => return Err(write_error(e)),
        }
    }
    Err(ApiError::Conflict(
        "the transaction keeps changing; retry".into(),
    ))
}

/// Deletes one of the caller's transactions and reverts its effect on the balance.
#[utoipa::path(
    delete,
    path = "/api/transactions/{id}",
    tag = "transactions",
    security(("bearer" = [])),
    params(("id" = inline(docs::Id), Path)),
    responses(
        (status = 204, description = "Deleted; the balance no longer counts it"),
        docs::DeleteErrors,
    )
)]
async fn remove(
    State(state): State<AppState>,
    user: AuthUser,
    Path(id): Path<u64>,
) -> ApiResult<StatusCode> {
    for _ in 0..WRITE_ATTEMPTS {
        let old = state
            .store
            .get_transaction(user.id, id)
            .await?
            .ok_or_else(not_found)?;
        match state
            .store
            .remove_transaction(&old, &now_local_date_time())
            .await
        {
            Ok(()) => return Ok(StatusCode::NO_CONTENT),
            Err(TxnWriteError::Stale) => continue,
            Err(e) => return Err(write_error(e)),
        }
    }
    Err(ApiError::Conflict(
        "the transaction keeps changing; retry".into(),
    ))
}
