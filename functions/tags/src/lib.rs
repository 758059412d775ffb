//! Tag endpoints (`/api/tags`): the caller's own tags, unique by name. Their behaviour is
//! the labels' ([`pf_http::labels`]), which providers share.

use pf_domain::LabelKind;
use pf_http::auth::Caller;
use pf_http::extract::{Json, Path, Query};
use pf_http::item::ItemChange;
use pf_http::labels::{self, LabelInput};
use pf_http::paging::PageQuery;
use pf_http::respond::{Created, Page, Versioned};
use pf_http::{docs, ApiResult, AppState};
use utoipa_axum::{router::OpenApiRouter, routes};

pub use pf_http::dto::labels::Tag;

/// The routes with their documentation: a route cannot exist without it.
pub fn api() -> OpenApiRouter<AppState> {
    let routes = OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(read, update, remove));
    docs::protected(TagInput::GROUP, routes)
}

/// The fields a create or update accepts.
#[derive(Debug, serde::Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TagInput {
    #[serde(rename = "tagName")]
    #[schema(value_type = docs::Name)]
    pub name: String,
}

impl LabelInput for TagInput {
    const KIND: LabelKind = LabelKind::Tag;
    const PATH: &'static str = "/api/tags";
    const GROUP: &'static str = "tags";
    type Output = Tag;

    fn name(&self) -> &str {
        &self.name
    }
}

/// The caller's own, by id (creation order), one page at a time.
#[utoipa::path(get, path = "/api/tags", params(PageQuery),
    responses(
        (status = 200, description = "One page of the caller's", body = Vec<Tag>, headers(
            ("Link" = String, description = "`<url>; rel=\"next\"` when another page may follow"))),
        docs::ListErrors,
    ))]
async fn list(me: Caller, Query(q): Query<PageQuery>) -> ApiResult<Page<Tag>> {
    labels::list::<TagInput>(&me, &q).await
}

/// Creates one; names are unique per user, ignoring case. At most as many as the
/// cap on this kind (`409` naming it beyond).
#[utoipa::path(post, path = "/api/tags", request_body = TagInput,
    responses(
        (status = 201, description = "Created", body = Tag, headers(
            ("Location" = String, description = "URL of the new item"),
            ("ETag" = String, description = "Version, for If-Match"))),
        docs::CreateErrors,
        (status = 404, response = docs::NotFound),
    ))]
async fn create(me: Caller, Json(body): Json<TagInput>) -> ApiResult<Created<Tag>> {
    labels::create(&me, &body).await
}

/// One of the caller's own.
#[utoipa::path(get, path = "/api/tags/{id}",
    params(("id" = inline(docs::Id), Path), docs::IfNoneMatch),
    responses(
        (status = 200, description = "Found", body = Tag, headers(
            ("ETag" = String, description = "Version, for If-Match"))),
        docs::Cached,
        docs::ReadErrors,
    ))]
async fn read(me: Caller, Path(id): Path<u64>) -> ApiResult<Versioned<Tag>> {
    labels::read::<TagInput>(&me, id).await
}

/// Changes one of the caller's own.
#[utoipa::path(put, path = "/api/tags/{id}",
    params(("id" = inline(docs::Id), Path), docs::IfMatch),
    request_body = TagInput,
    responses(
        (status = 200, description = "Changed", body = Tag, headers(
            ("ETag" = String, description = "New version"))),
        docs::VersionedUpdateErrors,
    ))]
async fn update(
    ItemChange { me, id, expected }: ItemChange,
    Json(body): Json<TagInput>,
) -> ApiResult<Versioned<Tag>> {
    labels::update(&me, id, &body, expected).await
}

/// Deletes one of the caller's own, unless transactions or a rule use it.
#[utoipa::path(delete, path = "/api/tags/{id}",
    params(("id" = inline(docs::Id), Path), docs::IfMatch),
    responses(
        (status = 204, description = "Deleted"),
        docs::VersionedDeleteErrors,
    ))]
async fn remove(ItemChange { me, id, expected }: ItemChange) -> ApiResult<axum::http::StatusCode> {
    labels::remove::<TagInput>(&me, id, expected).await
}
