//! CRUD endpoints for tags and providers, which differ only in names: one implementation
//! serves both (`functions/tags` and `functions/providers` mount it).

use axum::extract::State;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use serde_json::{Map, Value};

use super::auth::AuthUser;
use super::extract::{Json, Path};
use super::{ApiError, ApiResult, AppState, FieldError};
use crate::domain::ids::new_id;
use crate::domain::text::{parse_name, NAME_MAX_LEN};
use crate::domain::time::now_local_date_time;
use crate::store::named::{Kind, NamedError, NamedRecord};

/// How one kind appears in the API.
pub struct NamedApi {
    pub kind: Kind,
    /// Collection path, e.g. `/api/tags`.
    pub path: &'static str,
    /// JSON name of the name field, e.g. `tagName`.
    pub field: &'static str,
    /// Singular noun for messages, e.g. `tag`.
    pub noun: &'static str,
}

pub fn router(api: &'static NamedApi) -> Router<AppState> {
    let item_path = format!("{}/{{id}}", api.path);
    Router::new()
        .route(
            api.path,
            get(move |s, u| list(api, s, u)).post(move |s, u, b| create(api, s, u, b)),
        )
        .route(
            &item_path,
            get(move |s, u, p| read(api, s, u, p))
                .put(move |s, u, p, b| rename(api, s, u, p, b))
                .delete(move |s, u, p| remove(api, s, u, p)),
        )
}

fn body(api: &NamedApi, r: &NamedRecord) -> Value {
    let mut m = Map::new();
    m.insert("id".into(), r.id.into());
    m.insert(api.field.into(), r.name.clone().into());
    m.insert("transactionCount".into(), r.use_count.into());
    m.insert("createdAt".into(), r.created_at.clone().into());
    m.insert("updatedAt".into(), r.updated_at.clone().into());
    Value::Object(m)
}

/// The name from a body that must be exactly `{"<field>": "..."}`.
fn parse_body(api: &NamedApi, body: Value) -> ApiResult<String> {
    let Value::Object(map) = body else {
        return Err(ApiError::bad_request("expected a JSON object"));
    };
    if let Some(unknown) = map.keys().find(|k| k.as_str() != api.field) {
        return Err(ApiError::bad_request(format!(
            "unknown field `{unknown}`, expected `{}`",
            api.field
        )));
    }
    match map.get(api.field) {
        Some(Value::String(s)) => parse_name(s, NAME_MAX_LEN)
            .map_err(|e| ApiError::validation(vec![FieldError::new(api.field, e)])),
        _ => Err(ApiError::validation(vec![FieldError::new(
            api.field,
            "is required and must be a string",
        )])),
    }
}

fn not_found(api: &NamedApi) -> ApiError {
    ApiError::NotFound(format!("{} not found", api.noun))
}

fn map_error(api: &NamedApi, e: NamedError) -> ApiError {
    match e {
        NamedError::Duplicate => {
            ApiError::Conflict(format!("you already have a {} with this name", api.noun))
        }
        NamedError::LimitReached => ApiError::Conflict(format!(
            "you have reached the limit of {} {}s",
            api.kind.max_per_user(),
            api.noun
        )),
        NamedError::NotFound => not_found(api),
        NamedError::InUse => ApiError::Conflict(format!(
            "the {} is used by transactions; change them first",
            api.noun
        )),
        NamedError::Store(e) => e.into(),
    }
}

async fn list(
    api: &'static NamedApi,
    State(state): State<AppState>,
    user: AuthUser,
) -> ApiResult<Json<Vec<Value>>> {
    let all = state.store.list_named(user.id, api.kind).await?;
    Ok(Json(all.iter().map(|r| body(api, r)).collect()))
}

async fn create(
    api: &'static NamedApi,
    State(state): State<AppState>,
    user: AuthUser,
    Json(b): Json<Value>,
) -> ApiResult<Response> {
    let name = parse_body(api, b)?;
    let now = now_local_date_time();
    let mut last = None;
    for _ in 0..3 {
        match state
            .store
            .create_named(user.id, api.kind, new_id(), &name, &now)
            .await
        {
            Ok(record) => {
                let mut response = (StatusCode::CREATED, Json(body(api, &record))).into_response();
                if let Ok(v) = HeaderValue::from_str(&format!("{}/{}", api.path, record.id)) {
                    response.headers_mut().insert(header::LOCATION, v);
                }
                return Ok(response);
            }
            // A clash of generated ids: draw another.
            Err(NamedError::Store(crate::store::StoreError::Condition("id"))) => {
                last = Some(NamedError::Store(crate::store::StoreError::Contention))
            }
            Err(NamedError::NotFound) => {
                return Err(ApiError::Forbidden("this account no longer exists".into()))
            }
            Err(e) => return Err(map_error(api, e)),
        }
    }
    Err(map_error(
        api,
        last.unwrap_or(NamedError::Store(crate::store::StoreError::Contention)),
    ))
}

async fn read(
    api: &'static NamedApi,
    State(state): State<AppState>,
    user: AuthUser,
    Path(id): Path<u64>,
) -> ApiResult<Json<Value>> {
    let record = state
        .store
        .get_named(user.id, api.kind, id)
        .await?
        .ok_or_else(|| not_found(api))?;
    Ok(Json(body(api, &record)))
}

async fn rename(
    api: &'static NamedApi,
    State(state): State<AppState>,
    user: AuthUser,
    Path(id): Path<u64>,
    Json(b): Json<Value>,
) -> ApiResult<Json<Value>> {
    let name = parse_body(api, b)?;
    let current = state
        .store
        .get_named(user.id, api.kind, id)
        .await?
        .ok_or_else(|| not_found(api))?;
    let updated = state
        .store
        .rename_named(user.id, api.kind, &current, &name, &now_local_date_time())
        .await
        .map_err(|e| map_error(api, e))?;
    Ok(Json(body(api, &updated)))
}

async fn remove(
    api: &'static NamedApi,
    State(state): State<AppState>,
    user: AuthUser,
    Path(id): Path<u64>,
) -> ApiResult<StatusCode> {
    let current = state
        .store
        .get_named(user.id, api.kind, id)
        .await?
        .ok_or_else(|| not_found(api))?;
    state
        .store
        .delete_named(user.id, api.kind, &current)
        .await
        .map_err(|e| map_error(api, e))?;
    Ok(StatusCode::NO_CONTENT)
}
