//! The change feed for offline clients: `GET /api/sync`.

use axum::Router;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

use shared::app;
use shared::app::sync::{Position, Resource, SyncChange, DEFAULT_LIMIT, MAX_LIMIT};
use shared::auth::cursor::CursorKey;
use shared::http::auth::Caller;
use shared::http::extract::{Json, Query};
use shared::http::users::UserResponse;
use shared::http::{docs, finish, ApiError, ApiResult, AppState};
use shared::store::feed::Op;

/// The routes with their documentation: a route cannot exist without it.
pub fn api() -> OpenApiRouter<AppState> {
    docs::protected("sync", OpenApiRouter::new().routes(routes!(sync)))
}

pub fn router(state: AppState) -> Router {
    finish(api().split_for_parts().0, state)
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
    #[schema(value_type = Option<Object>)]
    pub data: Option<Value>,
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

fn data(resource: &Resource) -> ApiResult<Value> {
    let value = match resource {
        Resource::User(u) => serde_json::to_value(UserResponse::from(u)),
        Resource::Wallet(w) => serde_json::to_value(wallet_fn::WalletResponse::try_from(w)?),
        Resource::Category(c) => {
            serde_json::to_value(categories_fn::CategoryResponse::from(c.clone()))
        }
        Resource::Tag(t) => serde_json::to_value(tags_fn::Tag::from(t.clone())),
        Resource::Provider(p) => serde_json::to_value(providers_fn::Provider::from(p.clone())),
        Resource::Transaction(t) => {
            serde_json::to_value(transactions_fn::dto::TransactionResponse::from(t))
        }
        Resource::Rule(r) => serde_json::to_value(rules_fn::dto::RuleResponse::from(r.clone())),
        Resource::Recurring(r) => {
            serde_json::to_value(recurring_fn::dto::RecurringResponse::from(r))
        }
    };
    value.map_err(|e| ApiError::Internal(e.into()))
}

fn change(c: &SyncChange) -> ApiResult<Change> {
    Ok(Change {
        entity: c.entity.as_str(),
        id: c.id,
        op: match c.op {
            Op::Upsert => "upsert",
            Op::Delete => "delete",
        },
        version: c.version,
        data: c.data.as_ref().map(data).transpose()?,
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
    let changes = page.changes.iter().map(change).collect::<ApiResult<_>>()?;
    Ok(Json(SyncResponse {
        changes,
        next_cursor: cursors.seal("sync", me.id, &page.next.encode()),
        has_more: page.has_more,
    }))
}
