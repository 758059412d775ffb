//! The change feed for offline clients: `GET /api/sync`.

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

use pf_app as app;
use pf_app::cursor::CursorKey;
use pf_app::sync::{Position, Resource, SyncChange, DEFAULT_LIMIT, MAX_LIMIT};
use pf_app::Op;
use pf_http::auth::Caller;
use pf_http::extract::{Json, Query};
use pf_http::users::UserResponse;
use pf_http::{docs, ApiError, ApiResult, AppState};

/// The routes with their documentation: a route cannot exist without it.
pub fn api() -> OpenApiRouter<AppState> {
    docs::protected("sync", OpenApiRouter::new().routes(routes!(sync)))
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct SyncQuery {
    /// `nextCursor` of the previous page; absent for a first sync.
    #[param(max_length = 1024)]
    pub cursor: Option<String>,
    /// Changes per page, 1 to 500 (default 200).
    #[param(minimum = 1, maximum = 500)]
    pub limit: Option<usize>,
}

impl SyncQuery {
    /// The position the caller's cursor seals (none on a first sync) and the page size.
    fn parse(&self, cursors: &CursorKey, user_id: u64) -> ApiResult<(Option<Position>, usize)> {
        let limit = self.limit.unwrap_or(DEFAULT_LIMIT);
        if !(1..=MAX_LIMIT).contains(&limit) {
            return Err(ApiError::bad_request(format!(
                "limit must be between 1 and {MAX_LIMIT}"
            )));
        }
        let open = |c: &String| {
            cursors
                .open("sync", user_id, c)
                .as_deref()
                .and_then(Position::decode)
                .ok_or_else(|| {
                    ApiError::bad_request("invalid cursor: use the nextCursor of a previous page")
                })
        };
        Ok((self.cursor.as_ref().map(open).transpose()?, limit))
    }
}

/// One change.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Change {
    /// `user`, `wallet`, `category`, `tag`, `provider`, `transaction`, `rule` or
    /// `recurring` (a recurring schedule).
    #[schema(example = "transaction")]
    pub entity: &'static str,
    pub id: u64,
    /// `upsert` (the item as it is now is in `data`) or `delete`.
    #[schema(example = "upsert")]
    pub op: &'static str,
    /// The item's version (its `ETag` without quotes).
    pub version: u64,
    /// Exactly the JSON a `GET` of the item answers; absent on delete.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Object)]
    pub data: Option<Data>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SyncResponse {
    pub changes: Vec<Change>,
    /// Pass it as `cursor` for the next page, and keep the last one for the next sync.
    pub next_cursor: String,
    /// More changes are waiting: ask again with `nextCursor` now.
    pub has_more: bool,
}

/// The JSON of a `GET` of the item, serialized straight into the page.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum Data {
    User(UserResponse),
    Wallet(pf_http::dto::wallet::WalletResponse),
    Category(pf_http::dto::categories::CategoryResponse),
    Tag(pf_http::dto::labels::Tag),
    Provider(pf_http::dto::labels::Provider),
    Transaction(pf_http::dto::transactions::TransactionResponse),
    Rule(pf_http::dto::rules::RuleResponse),
    Recurring(pf_http::dto::recurring::RecurringResponse),
}

impl TryFrom<Resource> for Data {
    type Error = ApiError;

    fn try_from(resource: Resource) -> ApiResult<Self> {
        Ok(match resource {
            Resource::User(u) => Data::User(UserResponse::from(&u)),
            Resource::Wallet(w) => {
                Data::Wallet(pf_http::dto::wallet::WalletResponse::try_from(&w)?)
            }
            Resource::Category(c) => Data::Category(c.into()),
            Resource::Tag(t) => Data::Tag(t.into()),
            Resource::Provider(p) => Data::Provider(p.into()),
            Resource::Transaction(t) => Data::Transaction((&t).into()),
            Resource::Rule(r) => Data::Rule(r.into()),
            Resource::Recurring(r) => Data::Recurring((&r).into()),
        })
    }
}

fn change(c: SyncChange) -> ApiResult<Change> {
    Ok(Change {
        entity: c.entity.as_str(),
        id: c.id,
        op: match c.op {
            Op::Upsert => "upsert",
            Op::Delete => "delete",
        },
        version: c.version,
        data: c.data.map(Data::try_from).transpose()?,
    })
}

/// Every change the caller may see since `cursor`, oldest first: creates, updates and
/// deletes of the profile, wallet, categories (global and own), tags, providers,
/// transactions (whatever their dates), rules and recurring schedules (an occurrence
/// change or creation moves its schedule's version). Without a cursor: everything, from
/// the beginning. Follow `nextCursor` while `hasMore`; keep the last one for the next sync.
/// A cursor older than the 90 days of changes kept answers 410: sync again without one.
#[utoipa::path(
    get,
    path = "/api/sync",
    params(SyncQuery),
    responses(
        (status = 200, description = "One page of changes", body = SyncResponse),
        (status = 410, response = docs::Gone),
        docs::ListErrors,
    )
)]
async fn sync(me: Caller, Query(query): Query<SyncQuery>) -> ApiResult<Json<SyncResponse>> {
    let cursors = me.state.tokens.cursors();
    let (position, limit) = query.parse(cursors, me.id)?;
    let page = app::sync::page(me.store(), me.id, position, limit).await?;
    let changes = page
        .changes
        .into_iter()
        .map(change)
        .collect::<ApiResult<_>>()?;
    Ok(Json(SyncResponse {
        changes,
        next_cursor: cursors.seal("sync", me.id, &page.next.encode()),
        has_more: page.has_more,
    }))
}
