//! Query parameters and response bodies of the import and export endpoints.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use shared::app::imports::{ImportReport, NameRef, Planned, RowError};
use shared::domain::time::format_date;
use shared::http::{ApiError, FieldError};

use crate::parse::{DateFormat, Format};

/// How to read the file (`POST /api/imports`).
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct ImportQuery {
    /// `true`: check and report only, write nothing (200).
    #[param(value_type = Option<bool>)]
    pub dry_run: Option<String>,
    /// `YYYY-MM-DD` (default), `DD/MM/YYYY` or `MM/DD/YYYY`.
    #[param(value_type = Option<String>, pattern = r"^(YYYY-MM-DD|DD/MM/YYYY|MM/DD/YYYY)$")]
    pub date_format: Option<String>,
    /// Decimal separator of amounts: `.` (default) or `,`. No thousands separators.
    #[param(value_type = Option<String>, pattern = r"^[.,]$")]
    pub decimal: Option<String>,
    /// `,`, `;` or a tab (`%09` or `tab`); detected from the header when absent.
    #[param(value_type = Option<String>, pattern = r"^(,|;|\t|tab)$", max_length = 3)]
    pub delimiter: Option<String>,
    /// The category of rows whose category is empty or unknown (without it they are errors).
    #[param(value_type = Option<u64>, minimum = 1, maximum = 9007199254740991.0)]
    pub default_category_id: Option<String>,
}

/// The parsed query.
pub struct ImportParams {
    pub format: Format,
    pub dry_run: bool,
    pub default_category_id: Option<u64>,
}

/// A two-way switch: absent or `off` is false, `on` is true, anything else is `None`.
fn switch(raw: Option<&str>, off: &str, on: &str) -> Option<bool> {
    match raw {
        None => Some(false),
        Some(v) if v == off => Some(false),
        Some(v) if v == on => Some(true),
        Some(_) => None,
    }
}

impl ImportQuery {
    pub fn parse(self) -> Result<ImportParams, ApiError> {
        let mut errors = Vec::new();
        let mut bad = |field: &str, m: &str| errors.push(FieldError::new(field, m));
        let dry_run = switch(self.dry_run.as_deref(), "false", "true").unwrap_or_else(|| {
            bad("dryRun", "must be true or false");
            false
        });
        let date = match self.date_format.as_deref() {
            None => DateFormat::Iso,
            Some(raw) => DateFormat::parse(raw).unwrap_or_else(|| {
                bad("dateFormat", "must be YYYY-MM-DD, DD/MM/YYYY or MM/DD/YYYY");
                DateFormat::Iso
            }),
        };
        let decimal_comma = switch(self.decimal.as_deref(), ".", ",").unwrap_or_else(|| {
            bad("decimal", "must be . or ,");
            false
        });
        let delimiter = match self.delimiter.as_deref() {
            None => None,
            Some(",") => Some(b','),
            Some(";") => Some(b';'),
            Some("\t" | "tab") => Some(b'\t'),
            Some(_) => {
                bad("delimiter", "must be , or ; or a tab");
                None
            }
        };
        let default_category_id = match self.default_category_id.as_deref() {
            None => None,
            Some(raw) => match raw.parse::<u64>() {
                Ok(id) if (1..=shared::domain::ids::MAX_SAFE_ID).contains(&id) => Some(id),
                _ => {
                    bad("defaultCategoryId", "must be a positive integer id");
                    None
                }
            },
        };
        if !errors.is_empty() {
            return Err(ApiError::validation(errors));
        }
        Ok(ImportParams {
            format: Format {
                date,
                decimal_comma,
                delimiter,
            },
            dry_run,
            default_category_id,
        })
    }
}

/// Why one row was not imported.
#[derive(Debug, Serialize, ToSchema)]
pub struct RowErrorDto {
    /// 1-based data row (the header is not counted).
    pub row: usize,
    /// The column at fault (`date`, `amount`, `debit`, `credit`, `category`, `note`,
    /// `provider`, `tags`, `importId`), or `row` for the row as a whole.
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
/// the names of a provider and tags the import would create (they have no id yet).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PreviewRow {
    pub row: usize,
    #[schema(max_length = 100)]
    pub import_id: String,
    #[serde(with = "rust_decimal::serde::arbitrary_precision")]
    #[schema(value_type = f64, example = 12.5)]
    pub amount: Decimal,
    pub category_id: u64,
    /// `YYYY-MM-DD`.
    #[schema(format = Date)]
    pub date: String,
    #[schema(max_length = 1000)]
    pub note: Option<String>,
    pub provider_id: Option<u64>,
    #[schema(max_items = 20)]
    pub tag_ids: Vec<u64>,
    /// A provider the import creates.
    #[schema(max_length = 100)]
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
        Self {
            row: p.row,
            import_id: p.import_id,
            amount: p.amount,
            category_id: p.category_id,
            date: format_date(p.date),
            note: p.note,
            provider_id,
            tag_ids,
            new_provider,
            new_tags,
        }
    }
}

/// The answer to a dry run.
#[derive(Debug, Serialize, ToSchema)]
pub struct DryRunReport {
    /// Data rows in the file.
    pub rows: usize,
    /// Rows without errors (duplicates included).
    pub valid: usize,
    /// Valid rows imported before (their import id has a marker).
    pub duplicates: usize,
    #[schema(max_items = 3000)]
    pub errors: Vec<RowErrorDto>,
    /// The first rows that would be created.
    #[schema(max_items = 20)]
    pub preview: Vec<PreviewRow>,
}

/// The answer to an import.
#[derive(Debug, Serialize, ToSchema)]
pub struct ImportResult {
    pub rows: usize,
    /// Transactions created.
    pub created: usize,
    /// Valid rows skipped because they were imported before.
    pub duplicates: usize,
    #[schema(max_items = 3000)]
    pub errors: Vec<RowErrorDto>,
}

impl From<ImportReport> for DryRunReport {
    fn from(r: ImportReport) -> Self {
        Self {
            rows: r.rows,
            valid: r.valid,
            duplicates: r.duplicates,
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
            errors: r.errors.into_iter().map(Into::into).collect(),
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
