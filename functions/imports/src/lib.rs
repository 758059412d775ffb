//! Import and export endpoints: `POST /api/imports` (CSV, with dry run, per-row errors and
//! dedupe by import id) and `GET /api/export` (CSV that imports back, or JSON of
//! everything, paged with a `Link` header).

pub mod dto;
pub mod export;
pub mod parse;

use axum::body::Bytes;
use axum::extract::DefaultBodyLimit;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use utoipa_axum::{router::OpenApiRouter, routes};

use dto::{DryRunReport, ExportQuery, ImportQuery, ImportResult};
use export::ExportFormat;
use shared::app::imports::{self as service, ImportOptions};
use shared::http::auth::Caller;
use shared::http::extract::{Json, Query};
use shared::http::respond::with_next;
use shared::http::{docs, finish, ApiError, ApiResult, AppState};

/// The routes with their documentation: a route cannot exist without it.
pub fn api() -> OpenApiRouter<AppState> {
    // Files are larger than JSON bodies: this route alone takes up to 5 MB (the handler
    // answers 413 with the exact bound).
    let (schemas, paths, import_routes) = routes!(import);
    let import_routes = import_routes.layer(DefaultBodyLimit::max(parse::MAX_FILE_BYTES + 1));
    let routes = OpenApiRouter::new()
        .routes((schemas, paths, import_routes))
        .routes(routes!(export));
    docs::protected("imports", routes)
}

pub fn router(state: AppState) -> Router {
    finish(api().split_for_parts().0, state)
}

/// `text/csv` (a `charset` other than UTF-8 is refused).
fn check_content_type(headers: &HeaderMap) -> ApiResult<()> {
    let value = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_ascii_lowercase();
    let mut parts = value.split(';').map(str::trim);
    let csv = parts.next() == Some("text/csv");
    let utf8 = parts.all(|p| match p.split_once('=') {
        Some(("charset", c)) => matches!(c.trim_matches('"'), "utf-8" | "utf8"),
        _ => true,
    });
    if csv && utf8 {
        Ok(())
    } else {
        Err(ApiError::UnsupportedMediaType(
            "the body must be Content-Type: text/csv (UTF-8)".into(),
        ))
    }
}

/// Imports transactions from a CSV file into the caller's wallet.
///
/// Columns are found by header name (case-insensitive): `date`; `amount` (signed,
/// negative is a debit) or `debit`/`credit`; `category` (a global or own category's name);
/// `note` (or `description`, `memo`); `provider` (or `payee`; created when unknown);
/// `tags` (names separated by `;`, created when unknown); `importId`. Other columns are
/// ignored. A row's sign must agree with its category's type. Each row's import id (its
/// `importId`, else `<amount>:<date>:<n-th such row>`) is remembered: importing the same
/// rows again creates nothing, so a failed import can simply be repeated.
#[utoipa::path(
    post,
    path = "/api/imports",
    params(ImportQuery),
    request_body(content = String, content_type = "text/csv",
        description = "UTF-8 CSV (a BOM is accepted), a header row first; at most 5 MB and 3,000 data rows."),
    responses(
        (status = 201, description = "Imported: valid rows are created, the others listed", body = ImportResult),
        (status = 200, description = "Dry run (`dryRun=true`): what an import would do; nothing written", body = DryRunReport),
        docs::CreateErrors,
    )
)]
async fn import(
    me: Caller,
    Query(query): Query<ImportQuery>,
    headers: HeaderMap,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> ApiResult<Response> {
    let params = query.parse()?;
    check_content_type(&headers)?;
    let body = body.map_err(|_| {
        ApiError::PayloadTooLarge(format!("the file exceeds {} bytes", parse::MAX_FILE_BYTES))
    })?;
    let file = parse::read(&body, params.format)?;
    let options = ImportOptions {
        default_category_id: params.default_category_id,
        dry_run: params.dry_run,
    };
    let report = service::import(me.store(), me.id, file, options).await?;
    Ok(if params.dry_run {
        Json(DryRunReport::from(report)).into_response()
    } else {
        (StatusCode::CREATED, Json(ImportResult::from(report))).into_response()
    })
}

/// Exports the caller's data, one page at a time (follow `Link: <...>; rel="next"`).
///
/// `format=csv`: every transaction in the import's columns (`date,amount,category,note,
/// provider,tags,importId`, newest first; text that starts like a formula is prefixed
/// with `'`), which `POST /api/imports` reads back. `format=json` (default): the profile,
/// wallet, categories, tags, providers and budgets on the first page, and transactions on
/// every page. Pages hold about 2 MB.
#[utoipa::path(
    get,
    path = "/api/export",
    params(ExportQuery),
    responses(
        (status = 200, description = "One page", content(
            (String = "text/csv"),
            (Object = "application/json"),
        ), headers(("Link" = String, description = "`<url>; rel=\"next\"` when another page follows"))),
        docs::ListErrors,
    )
)]
async fn export(me: Caller, Query(query): Query<ExportQuery>) -> ApiResult<Response> {
    let format = ExportFormat::parse(query.format.as_deref())?;
    let cursors = me.state.tokens.cursors();
    let open = |c: &String| export::open_cursor(cursors, me.id, format, c);
    let position = query.cursor.as_ref().map(open).transpose()?;
    let page = export::page(&me.state, me.id, format, position).await?;
    let next = page
        .next
        .map(|p| export::next_url(cursors, me.id, format, &p));
    let content_type = [(header::CONTENT_TYPE, format.content_type())];
    Ok(with_next(next, (content_type, page.body).into_response()))
}
