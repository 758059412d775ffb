//! Import and export endpoints: `POST /api/imports` (bank files as they come, read by
//! `bankfile`, with dry run, per-row errors and dedupe by import id) and `GET /api/export` (CSV that imports back, or JSON of
//! everything, paged with a `Link` header).

pub mod dto;
pub mod export;
pub mod job;
pub mod parse;

use std::time::Instant;

use axum::body::Bytes;
use axum::extract::DefaultBodyLimit;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use utoipa_axum::{router::OpenApiRouter, routes};

use dto::{DryRunReport, ExportQuery, FileUpload, ImportJob, ImportQuery, ImportResult};
use export::ExportFormat;
use pf_app as app;
use pf_app::imports::{ImportOptions, Submitted};
use pf_http::auth::Caller;
use pf_http::extract::{Json, Path, Query};
use pf_http::respond::with_next;
use pf_http::{docs, ApiError, ApiResult, AppState};

/// The routes with their documentation: a route cannot exist without it.
pub fn api() -> OpenApiRouter<AppState> {
    // Files are larger than JSON bodies: this route alone takes up to 4 MB, plus room for
    // a multipart envelope (the handler answers 413 with the exact bound of the file).
    let (schemas, paths, import_routes) = routes!(import);
    let limit = parse::MAX_FILE_BYTES + MULTIPART_ENVELOPE_BYTES;
    let import_routes = import_routes.layer(DefaultBodyLimit::max(limit));
    let routes = OpenApiRouter::new()
        .routes((schemas, paths, import_routes))
        .routes(routes!(import_job))
        .routes(routes!(export));
    docs::protected("imports", routes)
}

/// Bytes a multipart body may hold beyond its file (boundaries, part headers).
const MULTIPART_ENVELOPE_BYTES: usize = 16 * 1024;

/// Imports transactions from a bank file into the caller's wallet.
///
/// The format is read from the content, never from a name or Content-Type: CSV in any
/// common dialect and encoding (headers in English, German, French, Spanish, Italian,
/// Dutch and Portuguese), OFX/QFX 1.x and 2.x, QIF, CAMT.052/053/054. The body is the
/// file as it is, or a `multipart/form-data` body with one file part (any name). Every
/// query setting is optional: what is not set is detected, and a dry run shows what was
/// detected. A row's sign gives its type (negative: DEBIT); a category the file names is
/// the caller's of that name and type (created as the caller's own when missing); a row
/// without one goes to `defaultCategoryId` (when its type fits) or to the global
/// `Uncategorized`. Each row's import id (the bank's id, else
/// `<amount>:<date>:<n-th such row>`) is remembered: importing the same rows again
/// creates nothing, so a failed import can simply be repeated. A refused file (empty,
/// malformed, not a bank file, ambiguous dates, missing columns, another currency than
/// the wallet's) stores nothing. Of a currency column that holds several currencies,
/// the rows in the wallet's are imported and the others listed as errors.
///
/// A file of more than 3,000 valid rows (up to 20,000) is imported by a job: the answer
/// is 202 with the job (`Location: /api/imports/{id}`), which goes on after the request;
/// poll `GET /api/imports/{id}` until its `status` is `done` (or `failed`).
#[utoipa::path(
    post,
    path = "/api/imports",
    params(ImportQuery),
    request_body(content(
        (String = "application/octet-stream"),
        (String = "text/csv"),
        (FileUpload = "multipart/form-data"),
    ), description = "The bank file as it is (any Content-Type), or `multipart/form-data` \
        with one file part of any name (`file` is conventional); at most 4 MB (4,194,304 bytes) and 20,000 \
        data rows."),
    responses(
        (status = 201, description = "Imported: valid rows are created, the others listed", body = ImportResult),
        (status = 202, description = "More than 3,000 valid rows: a job imports them after the request; poll its URL", body = ImportJob,
            headers(("Location" = String, description = "URL of the job (`/api/imports/{id}`)"))),
        (status = 200, description = "Dry run (`dryRun=true`): what was detected and what an import would do; nothing written", body = DryRunReport),
        docs::FileErrors,
    )
)]
async fn import(
    me: Caller,
    Query(query): Query<ImportQuery>,
    headers: HeaderMap,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> ApiResult<Response> {
    let deadline = Instant::now() + app::imports::TIME_BUDGET;
    let params = query.parse()?;
    let body = body.map_err(|_| {
        ApiError::PayloadTooLarge(format!("the file exceeds {} bytes", parse::MAX_FILE_BYTES))
    })?;
    let file = parse::file_bytes(&headers, body).await?;
    // Read once: of a currency column's currencies the wallet's is the statement's, and
    // the import checks and writes against it.
    let wallet = app::wallet::get(me.store(), me.id).await?;
    let options = bankfile::Options {
        currency: Some(wallet.currency.code().to_owned()),
        ..params.options
    };
    let mut statement = parse::read(&file, options)?;
    let detected = statement.detected.clone();
    let paired = std::mem::take(&mut statement.paired);
    let options = ImportOptions {
        default_category_id: params.default_category_id,
        dry_run: params.dry_run,
        deadline,
    };
    let rows = parse::rows(statement);
    let continuation = pf_http::invoke::continuation();
    let submitted = app::imports::submit(me.store(), wallet, rows, options, continuation).await?;
    Ok(match submitted {
        Submitted::Report(report) if params.dry_run => {
            Json(DryRunReport::new(report, detected, paired)).into_response()
        }
        Submitted::Report(report) => {
            (StatusCode::CREATED, Json(ImportResult::from(report))).into_response()
        }
        Submitted::Job(job) => {
            let location = [(header::LOCATION, format!("/api/imports/{}", job.id))];
            (StatusCode::ACCEPTED, location, Json(ImportJob::from(job))).into_response()
        }
    })
}

/// A large import's job (the caller's own; kept 7 days): what it did so far.
#[utoipa::path(
    get,
    path = "/api/imports/{id}",
    params(("id" = inline(docs::Id), Path)),
    responses(
        (status = 200, description = "The job", body = ImportJob),
        docs::ReadErrors,
    )
)]
async fn import_job(me: Caller, Path(id): Path<u64>) -> ApiResult<Json<ImportJob>> {
    let job = app::imports::job::get(me.store(), me.id, id).await?;
    Ok(Json(job.into()))
}

/// Exports the caller's data, one page at a time (follow `Link: <...>; rel="next"`).
///
/// `format=csv`: every transaction in the import's columns (`date,amount,category,note,
/// provider,tags,importId`, newest first; text that starts like a formula is prefixed
/// with `'`), which `POST /api/imports` reads back. `format=json` (default): the profile,
/// wallet, categories, tags, providers, budgets, rules (in rule order) and recurring
/// schedules (with their changed occurrences) on the first page, and transactions on
/// every page. Pages hold about 2 MB.
#[utoipa::path(
    get,
    path = "/api/export",
    params(ExportQuery),
    responses(
        (status = 200, description = "One page", content(
            (String = "text/csv"),
            (export::ExportDocument = "application/json"),
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
