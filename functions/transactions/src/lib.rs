//! Transaction endpoints (`/api/transactions`) and the wallet balance they move.

pub mod batch;
pub use pf_http::dto::transactions as dto;
pub mod list;

use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use sha2::{Digest, Sha256};
use utoipa_axum::{router::OpenApiRouter, routes};

use dto::{TransactionRequest, TransactionResponse};
use list::ListQuery;
use pf_app as app;
use pf_app::transactions::{Idempotency, TransactionDraft};
use pf_domain::Transaction;
use pf_http::auth::Caller;
use pf_http::extract::{Json, Path, Query};
use pf_http::item::ItemChange;
use pf_http::respond::{replayed, Created, Page, Versioned};
use pf_http::{docs, ApiError, ApiResult, AppState};

/// The routes with their documentation: a route cannot exist without it.
pub fn api() -> OpenApiRouter<AppState> {
    let routes = OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(batch::batch))
        .routes(routes!(read, update, remove));
    docs::protected("transactions", routes)
}

fn versioned(t: &Transaction) -> Versioned<TransactionResponse> {
    Versioned::new(t.version, TransactionResponse::from(t))
}

/// `Idempotency-Key` on a create, update or delete.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Header)]
pub struct IdempotencyKey {
    /// Repeating a request with the same key and body answers it again instead of applying
    /// it again (a create: the transaction as it is now, `409` once deleted; an update or
    /// delete: its first result); the same key with another request is `422`. A key is
    /// kept 24 h, then free for a new request.
    #[param(rename = "Idempotency-Key", min_length = 1, max_length = 255)]
    pub idempotency_key: Option<String>,
}

/// An idempotency key: 1 to 255 visible ASCII characters.
fn is_idempotency_key(k: &str) -> bool {
    !k.is_empty() && k.len() <= 255 && k.bytes().all(|b| b.is_ascii_graphic())
}

/// A request's idempotency key, if any, with the hash that tells a repeated request from
/// another one under the same key.
#[derive(Default)]
struct Keyed {
    key: Option<String>,
    hash: String,
}

impl Keyed {
    fn new(key: Option<String>, request: &impl serde::Serialize) -> ApiResult<Self> {
        let bytes = serde_json::to_vec(request).map_err(anyhow::Error::from)?;
        let hash = hex::encode(Sha256::digest(bytes));
        Ok(Self { key, hash })
    }

    /// The `Idempotency-Key` header of a request, and the hash of what it asks.
    fn from_header(headers: &HeaderMap, request: &impl serde::Serialize) -> ApiResult<Self> {
        let key = match headers.get("idempotency-key").map(|v| v.to_str()) {
            None => None,
            Some(Ok(k)) if is_idempotency_key(k) => Some(k.to_owned()),
            Some(_) => {
                return Err(ApiError::bad_request(
                    "Idempotency-Key must be 1 to 255 visible ASCII characters",
                ))
            }
        };
        Self::new(key, request)
    }

    fn idempotency(&self) -> Option<Idempotency<'_>> {
        self.key.as_deref().map(|key| Idempotency {
            key,
            request_hash: &self.hash,
        })
    }
}

/// Creates a transaction in the caller's wallet and moves its balance.
#[utoipa::path(post, path = "/api/transactions", params(IdempotencyKey),
    request_body = TransactionRequest,
    responses(
        (status = 201, description = "Created", body = TransactionResponse, headers(
            ("Location" = String, description = "URL of the new transaction"),
            ("ETag" = String, description = "Version, for If-Match"))),
        docs::CreateErrors,
        (status = 422, response = docs::Unprocessable),
    ))]
async fn create(
    me: Caller,
    headers: HeaderMap,
    Json(body): Json<TransactionRequest>,
) -> ApiResult<Response> {
    let keyed = Keyed::from_header(&headers, &body)?;
    let input = TransactionDraft::try_from(body)?;
    let (store, idempotency, rules) = (me.store(), keyed.idempotency(), Default::default());
    let created = app::transactions::create(store, me.id, input, idempotency, &rules).await?;
    let t = &created.transaction;
    let response = TransactionResponse::from(t);
    let body = Created::item("/api/transactions", t.id, t.version, response);
    Ok(replayed(created.replayed, body))
}

/// Lists the caller's transactions, newest date first, one page at a time.
#[utoipa::path(get, path = "/api/transactions", params(ListQuery),
    responses(
        (status = 200, description = "One page, newest date first", body = Vec<TransactionResponse>,
            headers(
            ("Link" = String, description = "`<url>; rel=\"next\"` when another page may follow"))),
        docs::ListErrors,
    ))]
async fn list(me: Caller, Query(query): Query<ListQuery>) -> ApiResult<Page<TransactionResponse>> {
    let (filter, limit) = query.parse()?;
    let cursors = me.state.tokens.cursors();
    // Cursors are sealed with a server key: a forged or altered one never reaches DynamoDB.
    let open = |c: &String| {
        cursors
            .open("transactions", me.id, c)
            .ok_or_else(app::transactions::invalid_cursor)
    };
    let position = query.cursor.as_ref().map(open).transpose()?;
    let page =
        app::transactions::list(me.store(), me.id, &filter, limit, position.as_deref()).await?;
    let items = page.items.iter().map(TransactionResponse::from).collect();
    let next = page.next_cursor.map(|p| {
        let query = query.next_page(&cursors.seal("transactions", me.id, &p));
        format!("/api/transactions?{query}")
    });
    Ok(Page { items, next })
}

/// One of the caller's transactions; someone else's is 404, as if it did not exist.
#[utoipa::path(get, path = "/api/transactions/{id}",
    params(("id" = inline(docs::Id), Path), docs::IfNoneMatch),
    responses(
        (status = 200, description = "The transaction", body = TransactionResponse, headers(
            ("ETag" = String, description = "Version, for If-Match"))),
        docs::Cached,
        docs::ReadErrors,
        (status = 405, response = docs::MethodNotAllowed),
    ))]
async fn read(me: Caller, Path(id): Path<u64>) -> ApiResult<Versioned<TransactionResponse>> {
    let transaction = app::transactions::get(me.store(), me.id, id).await?;
    Ok(versioned(&transaction))
}

/// Replaces every field of one of the caller's transactions.
#[utoipa::path(put, path = "/api/transactions/{id}",
    params(("id" = inline(docs::Id), Path), docs::IfMatch, IdempotencyKey),
    request_body = TransactionRequest,
    responses(
        (status = 200, description = "Updated", body = TransactionResponse, headers(
            ("ETag" = String, description = "New version"))),
        docs::VersionedUpdateErrors,
        (status = 405, response = docs::MethodNotAllowed),
        (status = 422, response = docs::Unprocessable),
    ))]
async fn update(
    ItemChange { me, id, expected }: ItemChange,
    headers: HeaderMap,
    Json(body): Json<TransactionRequest>,
) -> ApiResult<Response> {
    let keyed = Keyed::from_header(&headers, &("update", id, &body))?;
    let input = TransactionDraft::try_from(body)?;
    let idempotency = keyed.idempotency();
    let (t, replay) =
        app::transactions::update(me.store(), me.id, id, input, expected, idempotency).await?;
    Ok(replayed(replay, versioned(&t)))
}

/// Deletes one of the caller's transactions and reverts its effect on the balance.
#[utoipa::path(delete, path = "/api/transactions/{id}",
    params(("id" = inline(docs::Id), Path), docs::IfMatch, IdempotencyKey),
    responses(
        (status = 204, description = "Deleted; the balance no longer counts it"),
        docs::VersionedDeleteErrors,
        (status = 405, response = docs::MethodNotAllowed),
        (status = 422, response = docs::Unprocessable),
    ))]
async fn remove(
    ItemChange { me, id, expected }: ItemChange,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let keyed = Keyed::from_header(&headers, &("delete", id))?;
    let idempotency = keyed.idempotency();
    let replay = app::transactions::delete(me.store(), me.id, id, expected, idempotency).await?;
    Ok(replayed(replay, StatusCode::NO_CONTENT))
}
