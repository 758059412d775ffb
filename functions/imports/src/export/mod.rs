//! Export pages: the caller's transactions as CSV in the import's own columns, or
//! everything of the caller as JSON. A page stops after [`PAGE_BYTES`] of transactions
//! (far within Lambda's 6 MB response, with the first JSON page's other members, which the
//! caps on what a user owns bound) and names the next one with a sealed cursor: the
//! position after its last transaction, so no transaction is skipped or repeated.

use std::collections::HashMap;

use serde_json::{json, Value};

use pf_app as app;
use pf_app::cursor::CursorKey;
use pf_app::transactions::invalid_cursor;
use pf_app::transactions::position_after;
use pf_app::TxnFilter;
use pf_domain::time::format_date;
use pf_domain::{LabelKind, Transaction};
use pf_http::money::MoneyDto;
use pf_http::{ApiError, ApiResult, AppState};

use bankfile::{escape_cell as escape, join_tags};

mod json;

pub use json::ExportDocument;

use json::json_page;

/// Output after which a page ends (one more transaction at most follows it).
pub const PAGE_BYTES: usize = 2 * 1024 * 1024;
/// Transactions read per `Query`.
const QUERY_LIMIT: i32 = 1000;

/// The columns of an export, in the order written (`POST /api/imports` reads them back).
pub const CSV_HEADER: [&str; 7] = [
    "date", "amount", "category", "note", "provider", "tags", "importId",
];

/// The export formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportFormat {
    Csv,
    Json,
}

impl ExportFormat {
    pub fn parse(raw: Option<&str>) -> ApiResult<Self> {
        match raw {
            None | Some("json") => Ok(Self::Json),
            Some("csv") => Ok(Self::Csv),
            Some(_) => Err(ApiError::validation(vec![pf_http::FieldError::new(
                "format",
                "must be csv or json",
            )])),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Csv => "csv",
            Self::Json => "json",
        }
    }

    pub fn content_type(self) -> &'static str {
        match self {
            Self::Csv => "text/csv; charset=utf-8",
            Self::Json => "application/json",
        }
    }
}

/// The store position sealed in an export cursor. The cursor names its format: one
/// page's cursor cannot continue another format.
pub fn open_cursor(
    cursors: &CursorKey,
    user_id: u64,
    format: ExportFormat,
    cursor: &str,
) -> ApiResult<String> {
    let payload = cursors
        .open("export", user_id, cursor)
        .ok_or_else(invalid_cursor)?;
    match payload.split_once('|') {
        Some((kind, position)) if kind == format.as_str() => Ok(position.to_owned()),
        _ => Err(invalid_cursor().into()),
    }
}

/// The URL (path and query) of the page that starts at `position`.
pub fn next_url(cursors: &CursorKey, user_id: u64, format: ExportFormat, position: &str) -> String {
    let cursor = cursors.seal(
        "export",
        user_id,
        &format!("{}|{position}", format.as_str()),
    );
    let query: String = form_urlencoded::Serializer::new(String::new())
        .append_pair("format", format.as_str())
        .append_pair("cursor", &cursor)
        .finish();
    format!("/api/export?{query}")
}

/// The names of what transactions refer to, by id.
struct Names {
    categories: HashMap<u64, String>,
    providers: HashMap<u64, String>,
    tags: HashMap<u64, String>,
}

impl Names {
    async fn load(state: &AppState, user_id: u64) -> ApiResult<(Self, Value)> {
        let store = &state.store;
        let (cats, providers, tags) = tokio::try_join!(
            app::categories::list(store, user_id, None),
            app::labels::list_all(store, user_id, LabelKind::Provider),
            app::labels::list_all(store, user_id, LabelKind::Tag),
        )?;
        let label = |l: &pf_domain::Label| json!({"id": l.id, "name": l.name});
        let lists = json!({
            "categories": cats.iter().map(|c| json!({
                "id": c.id, "categoryName": c.name, "categoryType": c.category_type,
                "icon": c.icon, "color": c.color, "isGlobal": c.is_global(),
            })).collect::<Vec<_>>(),
            "tags": tags.iter().map(label).collect::<Vec<_>>(),
            "providers": providers.iter().map(|p| {
                let mut v = label(p);
                v["defaultCategoryId"] = json!(p.default_category_id);
                v
            }).collect::<Vec<_>>(),
        });
        let names = Self {
            categories: cats.into_iter().map(|c| (c.id, c.name)).collect(),
            providers: providers.into_iter().map(|p| (p.id, p.name)).collect(),
            tags: tags.into_iter().map(|t| (t.id, t.name)).collect(),
        };
        Ok((names, lists))
    }
}

/// One exported page: its body and the store position of the next page, if any.
pub struct ExportPage {
    pub body: Vec<u8>,
    pub next: Option<String>,
}

/// Reads transactions from `position` and hands each to `emit` (which returns the output
/// size so far) until the page is full or none are left.
async fn each_transaction(
    state: &AppState,
    user_id: u64,
    mut position: Option<String>,
    mut emit: impl FnMut(&Transaction) -> ApiResult<usize>,
) -> ApiResult<Option<String>> {
    let filter = TxnFilter::default();
    loop {
        let page = app::transactions::list(
            &state.store,
            user_id,
            &filter,
            QUERY_LIMIT,
            position.as_deref(),
        )
        .await?;
        for t in &page.items {
            if emit(t)? >= PAGE_BYTES {
                return Ok(Some(position_after(t)));
            }
        }
        match page.next_cursor {
            Some(next) => position = Some(next),
            None => return Ok(None),
        }
    }
}

/// The page of `format` that starts at `position` (the first page without one).
pub async fn page(
    state: &AppState,
    user_id: u64,
    format: ExportFormat,
    position: Option<String>,
) -> ApiResult<ExportPage> {
    match format {
        ExportFormat::Csv => csv_page(state, user_id, position).await,
        ExportFormat::Json => json_page(state, user_id, position).await,
    }
}

/// A CSV page: the header, then one row per transaction (newest date first).
async fn csv_page(
    state: &AppState,
    user_id: u64,
    position: Option<String>,
) -> ApiResult<ExportPage> {
    let (names, _) = Names::load(state, user_id).await?;
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer
        .write_record(CSV_HEADER)
        .map_err(anyhow::Error::from)?;
    let next = each_transaction(state, user_id, position, |t| {
        let d = &t.details;
        let amount = MoneyDto::from(d.amount).amount;
        let signed = d.category_type.signed(amount);
        let name = |map: &HashMap<u64, String>, id: u64| map.get(&id).cloned().unwrap_or_default();
        let tags: Vec<String> = d.tag_ids.iter().map(|id| name(&names.tags, *id)).collect();
        let provider = d
            .provider_id
            .map(|p| name(&names.providers, p))
            .unwrap_or_default();
        let category = name(&names.categories, d.category_id);
        let note = d.note.clone().unwrap_or_default();
        // A `;` inside a name is written `\;`: the name comes back whole.
        let tags = join_tags(&tags);
        writer
            .write_record([
                format_date(t.date).as_str(),
                &signed.to_string(),
                &escape(&category),
                &escape(&note),
                &escape(&provider),
                &escape(&tags),
                &format!("txn:{}", t.id),
            ])
            .map_err(anyhow::Error::from)?;
        writer.flush().map_err(anyhow::Error::from)?;
        Ok(writer.get_ref().len())
    })
    .await?;
    let body = writer.into_inner().map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(ExportPage { body, next })
}
