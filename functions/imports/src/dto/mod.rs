//! Query parameters and response bodies of the import and export endpoints.

mod query;
mod read;

use std::collections::BTreeMap;

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use pf_app::imports::job::{Job, JobStatus};
use pf_app::imports::{CategoryRef, ImportReport, NameRef, Planned, RowError};
use pf_domain::time::format_date;

pub use query::{ImportParams, ImportQuery};
pub use read::{Charset, PairedDto, PAIRS_SHOWN};

/// A browser's upload: one file part (`file` is conventional; a part of any name is read).
#[derive(Debug, ToSchema)]
pub struct FileUpload {
    #[schema(value_type = String, format = Binary)]
    pub file: Vec<u8>,
}

/// Why one row was not imported.
#[derive(Debug, Serialize, ToSchema)]
pub struct RowErrorDto {
    /// 1-based data row (the header is not counted).
    pub row: usize,
    /// The field at fault (`date`, `valueDate`, `amount`, `debit`, `credit`, `type`,
    /// `category`, `note`, `provider`, `tags`, `importId`, `currency`), or `row` for the
    /// row as a whole.
    #[schema(max_length = 20)]
    pub field: String,
    #[schema(max_length = 300)]
    pub message: String,
}

impl From<RowError> for RowErrorDto {
    fn from(e: RowError) -> Self {
        Self {
            row: e.row,
            field: e.field,
            message: e.message,
        }
    }
}

/// A row as the transaction it would create: the body of `POST /api/transactions`, plus
/// the names of a category, provider and tags the import would create (they have no id
/// yet).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PreviewRow {
    pub row: usize,
    /// The row's `importId`, else `<signed amount>:<date>:<n>`; an id over 100
    /// characters is shown as `sha256:<hex>`, the import id it dedupes by.
    #[schema(max_length = 100)]
    pub import_id: String,
    #[serde(with = "rust_decimal::serde::arbitrary_precision")]
    #[schema(value_type = f64, example = 12.5)]
    pub amount: Decimal,
    /// `null` when the import creates the category (`newCategory`).
    #[schema(required = true)]
    pub category_id: Option<u64>,
    /// `DEBIT` (money out) or `CREDIT` (money in).
    #[schema(value_type = String, pattern = "^(DEBIT|CREDIT)$")]
    pub category_type: pf_domain::CategoryType,
    /// A category of the caller's own that the import creates.
    #[schema(max_length = 100, required = true)]
    pub new_category: Option<String>,
    /// In the global `Uncategorized` category (the file names none).
    pub uncategorized: bool,
    /// `YYYY-MM-DD`.
    #[schema(format = Date)]
    pub date: String,
    #[schema(max_length = 1000, required = true)]
    pub note: Option<String>,
    #[schema(required = true)]
    pub provider_id: Option<u64>,
    #[schema(max_items = 20)]
    pub tag_ids: Vec<u64>,
    /// A provider the import creates.
    #[schema(max_length = 100, required = true)]
    pub new_provider: Option<String>,
    /// Tags the import creates.
    #[schema(max_items = 20)]
    pub new_tags: Vec<String>,
}

impl From<Planned> for PreviewRow {
    fn from(p: Planned) -> Self {
        let (mut tag_ids, mut new_tags) = (Vec::new(), Vec::new());
        for t in p.tags {
            match t {
                NameRef::Known(id) => tag_ids.push(id),
                NameRef::New(name) => new_tags.push(name),
            }
        }
        let (provider_id, new_provider) = match p.provider {
            Some(NameRef::Known(id)) => (Some(id), None),
            Some(NameRef::New(name)) => (None, Some(name)),
            None => (None, None),
        };
        let (category_id, category_type, new_category) = match p.category {
            CategoryRef::Known(c) => (Some(c.id), c.category_type, None),
            CategoryRef::New {
                name,
                category_type,
            } => (None, category_type, Some(name)),
        };
        Self {
            row: p.row,
            import_id: p.import_id,
            amount: p.amount,
            category_id,
            category_type,
            new_category,
            uncategorized: p.uncategorized,
            date: format_date(p.date),
            note: p.note,
            provider_id,
            tag_ids,
            new_provider,
            new_tags,
        }
    }
}

/// What was read from the file: values a client can show and send back as the query's
/// settings.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Detected {
    /// `csv`, `ofx` (QFX too), `qif` or `camt`: the `format` parameter's values.
    #[schema(pattern = "^(csv|ofx|qif|camt)$")]
    pub format: String,
    /// The WHATWG name of the encoding (`UTF-8`, `windows-1252`, `UTF-16LE`, `Shift_JIS`,
    /// `EUC-KR`, `gb18030`, ...).
    #[schema(max_length = 40)]
    pub encoding: String,
    /// The charset the file declares and the one used to read it.
    pub charset: Charset,
    /// CSV only.
    #[schema(max_length = 1, required = true)]
    pub delimiter: Option<String>,
    /// In the `dateFormat` parameter's syntax (CSV and QIF).
    #[schema(max_length = 12, required = true)]
    pub date_format: Option<String>,
    /// `.` or `,` (CSV and QIF).
    #[schema(max_length = 1, required = true)]
    pub decimal: Option<String>,
    /// CSV: the header each field was read from, by field (`col.<field>`'s names); in a
    /// file without a header, the column's number (`#1`, `#2`, ...).
    #[schema(value_type = Object)]
    pub columns: BTreeMap<String, String>,
    /// The statement's account (OFX `ACCTID`, CAMT IBAN, a CSV preamble's account, QIF
    /// `!Account` name).
    #[schema(max_length = 4096, required = true)]
    pub account: Option<String>,
    /// ISO 4217 code of the statement, when the file tells (of a currency column that
    /// holds several, the wallet's when it is one of them, else the most common).
    #[schema(max_length = 3, required = true)]
    pub currency: Option<String>,
    /// Whether every amount was negated: the `invert` parameter when sent, else whether
    /// the file is a card export that prints charges as positive (American Express,
    /// Discover, Apple Card, told by their headers).
    pub invert: bool,
}

impl From<bankfile::Detected> for Detected {
    fn from(d: bankfile::Detected) -> Self {
        Self {
            format: d.format.as_str().to_owned(),
            charset: Charset {
                declared: d.declared_encoding,
                used: d.encoding.clone(),
            },
            encoding: d.encoding,
            delimiter: d.delimiter.map(String::from),
            date_format: d.date_format,
            decimal: d.decimal.map(String::from),
            columns: d
                .columns
                .into_iter()
                .map(|(f, h)| (f.as_str().to_owned(), h))
                .collect(),
            account: d.account,
            currency: d.currency,
            invert: d.invert,
        }
    }
}

/// The answer to a dry run.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DryRunReport {
    pub detected: Detected,
    /// Data rows in the file.
    pub rows: usize,
    /// Rows without errors (duplicates included).
    pub valid: usize,
    /// Valid rows imported before (their import id has a marker).
    pub duplicates: usize,
    /// Rows that would be created in the global `Uncategorized` category.
    pub uncategorized: usize,
    /// Entries the bank has not booked, not imported: CAMT `PDNG`, CSV rows whose status
    /// is pending, declined, reverted, failed or cancelled.
    pub skipped_pending: usize,
    /// Holds and their releases paired and left out together (both counted in
    /// `skippedPending`): a PayPal authorisation hold (pending) and its later release, of
    /// the same amount, naming the hold's code. All of them.
    pub paired_count: usize,
    /// The first 100 pairs, by the release's row.
    #[schema(max_items = 100)]
    pub paired: Vec<PairedDto>,
    #[schema(max_items = 20000)]
    pub errors: Vec<RowErrorDto>,
    /// The first rows that would be created.
    #[schema(max_items = 20)]
    pub preview: Vec<PreviewRow>,
}

/// The answer to an import.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImportResult {
    pub rows: usize,
    /// Transactions created.
    pub created: usize,
    /// Valid rows skipped because they were imported before.
    pub duplicates: usize,
    /// Transactions created in the global `Uncategorized` category.
    pub uncategorized: usize,
    /// Entries the bank has not booked, not imported: CAMT `PDNG`, CSV rows whose status
    /// is pending, declined, reverted, failed or cancelled.
    pub skipped_pending: usize,
    #[schema(max_items = 20000)]
    pub errors: Vec<RowErrorDto>,
}

impl DryRunReport {
    pub fn new(
        r: ImportReport,
        detected: bankfile::Detected,
        paired: Vec<bankfile::Paired>,
    ) -> Self {
        Self {
            detected: detected.into(),
            rows: r.rows,
            valid: r.valid,
            duplicates: r.duplicates,
            uncategorized: r.uncategorized,
            skipped_pending: r.skipped_pending,
            paired_count: paired.len(),
            paired: paired
                .into_iter()
                .take(PAIRS_SHOWN)
                .map(Into::into)
                .collect(),
            errors: r.errors.into_iter().map(Into::into).collect(),
            preview: r.preview.into_iter().map(Into::into).collect(),
        }
    }
}

impl From<ImportReport> for ImportResult {
    fn from(r: ImportReport) -> Self {
        Self {
            rows: r.rows,
            created: r.created,
            duplicates: r.duplicates,
            uncategorized: r.uncategorized,
            skipped_pending: r.skipped_pending,
            errors: r.errors.into_iter().map(Into::into).collect(),
        }
    }
}

/// A large import going on after its request (`GET /api/imports/{id}`), kept 7 days.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImportJob {
    pub id: u64,
    /// `running` until every row is done; `failed` when it stopped (its last error says
    /// why and from which row: post the file again to import the rest), also when it
    /// saved no progress for 15 minutes (its worker stopped).
    #[schema(value_type = String, pattern = "^(running|done|failed)$")]
    pub status: &'static str,
    /// Data rows in the file.
    pub rows: usize,
    /// Transactions created so far.
    pub created: usize,
    /// Valid rows skipped so far because they were imported before.
    pub duplicates: usize,
    /// The first 500 row errors, by row.
    #[schema(max_items = 500)]
    pub errors: Vec<RowErrorDto>,
    /// UTC, `YYYY-MM-DDTHH:MM:SS` (as every `createdAt`: no offset, so no RFC 3339
    /// `date-time`).
    #[schema(example = "2026-11-22T10:00:00")]
    pub started_at: String,
    /// When it ended (`done` or `failed`), as `startedAt`; `null` while running (always
    /// sent).
    #[schema(required = true, example = "2026-11-22T10:03:41")]
    pub finished_at: Option<String>,
}

impl From<Job> for ImportJob {
    fn from(j: Job) -> Self {
        Self {
            id: j.id,
            status: match j.status {
                JobStatus::Running => "running",
                JobStatus::Done => "done",
                JobStatus::Failed => "failed",
            },
            rows: j.rows,
            created: j.created,
            duplicates: j.duplicates,
            errors: j.errors.into_iter().map(Into::into).collect(),
            started_at: j.started_at,
            finished_at: j.finished_at,
        }
    }
}

/// `GET /api/export`.
#[derive(Debug, Default, Deserialize, Serialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ExportQuery {
    /// `csv` (the transactions, in the import's columns) or `json` (everything).
    #[param(value_type = Option<String>, pattern = "^(csv|json)$")]
    pub format: Option<String>,
    /// Opaque cursor from the previous page's `Link` header.
    #[param(max_length = 512)]
    pub cursor: Option<String>,
}
