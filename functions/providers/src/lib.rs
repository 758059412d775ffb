//! Provider endpoints (`/api/providers`): the caller's own providers, unique by name, each
//! with an optional default category for creates that name none and match no rule. Their
//! behaviour is the labels' ([`pf_http::labels`]), which tags share.

use pf_domain::LabelKind;
use pf_http::auth::Caller;
use pf_http::extract::{Json, Path, Query};
use pf_http::ids::parse_id_patch;
use pf_http::item::ItemChange;
use pf_http::labels::{self, LabelInput};
use pf_http::paging::PageQuery;
use pf_http::respond::{Created, Page, Versioned};
use pf_http::{docs, ApiResult, AppState};
use utoipa_axum::{router::OpenApiRouter, routes};

pub use pf_http::dto::labels::Provider;

/// The routes with their documentation: a route cannot exist without it.
pub fn api() -> OpenApiRouter<AppState> {
    let routes = OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(read, update, remove));
    docs::protected(ProviderInput::GROUP, routes)
}

/// The fields a create or update accepts.
#[derive(Debug, serde::Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ProviderInput {
    #[serde(rename = "providerName")]
    #[schema(value_type = docs::Name)]
    pub name: String,
    /// The category of a transaction created with this provider, no `categoryId` and
    /// no matching rule: a global category or one of the caller's own (else `404`).
    /// On update, absent keeps it and `null` clears it.
    #[serde(
        rename = "defaultCategoryId",
        default,
        deserialize_with = "pf_http::ids::present"
    )]
    #[schema(value_type = Option<u64>, nullable, minimum = 1, maximum = 9007199254740991.0)]
    pub default_category_id: Option<serde_json::Value>,
}

impl LabelInput for ProviderInput {
    const KIND: LabelKind = LabelKind::Provider;
    const PATH: &'static str = "/api/providers";
    const GROUP: &'static str = "providers";
    type Output = Provider;

    fn name(&self) -> &str {
        &self.name
    }

    fn default_category(&self) -> ApiResult<Option<Option<u64>>> {
        parse_id_patch("defaultCategoryId", self.default_category_id.as_ref())
    }
}

/// The caller's own, by id (creation order), one page at a time.
#[utoipa::path(get, path = "/api/providers", params(PageQuery),
    responses(
        (status = 200, description = "One page of the caller's", body = Vec<Provider>, headers(
            ("Link" = String, description = "`<url>; rel=\"next\"` when another page may follow"))),
        docs::ListErrors,
    ))]
async fn list(me: Caller, Query(q): Query<PageQuery>) -> ApiResult<Page<Provider>> {
    labels::list::<ProviderInput>(&me, &q).await
}

/// Creates one; names are unique per user, ignoring case. At most as many as the
/// cap on this kind (`409` naming it beyond).
#[utoipa::path(post, path = "/api/providers", request_body = ProviderInput,
    responses(
        (status = 201, description = "Created", body = Provider, headers(
            ("Location" = String, description = "URL of the new item"),
            ("ETag" = String, description = "Version, for If-Match"))),
        docs::CreateErrors,
        (status = 404, response = docs::NotFound),
    ))]
async fn create(me: Caller, Json(body): Json<ProviderInput>) -> ApiResult<Created<Provider>> {
    labels::create(&me, &body).await
}

/// One of the caller's own.
#[utoipa::path(get, path = "/api/providers/{id}",
    params(("id" = inline(docs::Id), Path), docs::IfNoneMatch),
    responses(
        (status = 200, description = "Found", body = Provider, headers(
            ("ETag" = String, description = "Version, for If-Match"))),
        docs::Cached,
        docs::ReadErrors,
    ))]
async fn read(me: Caller, Path(id): Path<u64>) -> ApiResult<Versioned<Provider>> {
    labels::read::<ProviderInput>(&me, id).await
}

/// Changes one of the caller's own.
#[utoipa::path(put, path = "/api/providers/{id}",
    params(("id" = inline(docs::Id), Path), docs::IfMatch),
    request_body = ProviderInput,
    responses(
        (status = 200, description = "Changed", body = Provider, headers(
            ("ETag" = String, description = "New version"))),
        docs::VersionedUpdateErrors,
    ))]
async fn update(
    ItemChange { me, id, expected }: ItemChange,
    Json(body): Json<ProviderInput>,
) -> ApiResult<Versioned<Provider>> {
    labels::update(&me, id, &body, expected).await
}

/// Deletes one of the caller's own, unless transactions or a rule use it.
#[utoipa::path(delete, path = "/api/providers/{id}",
    params(("id" = inline(docs::Id), Path), docs::IfMatch),
    responses(
        (status = 204, description = "Deleted"),
        docs::VersionedDeleteErrors,
    ))]
async fn remove(ItemChange { me, id, expected }: ItemChange) -> ApiResult<axum::http::StatusCode> {
    labels::remove::<ProviderInput>(&me, id, expected).await
}
