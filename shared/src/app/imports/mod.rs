//! Imports: rows read from a bank file become transactions through the same rules as a
//! create (`transactions::build_record`), each guarded by a permanent marker of its import
//! id so that importing a file again creates nothing and a half-failed import can simply
//! be repeated. Names are resolved once per import (`names`): a category by name and type
//! among the caller's own and the global ones (never another user's), created as the
//! caller's own when missing; an unknown provider or tag name is created for the caller.
//!
//! Rules decided here (and documented in docs/BANK-FILES.md):
//! - a statement in another currency than the wallet's is refused as a whole;
//! - a row's sign gives its type (negative → DEBIT, positive → CREDIT); a zero amount is
//!   an error;
//! - a row without a category goes where [`plan::category_of_unnamed_row`] says;
//! - a row without an import id gets `<signed amount>:<date>:<occurrence>` (YNAB's rule:
//!   the n-th row of that amount and date in the file);
//! - an import id used twice in one file makes the later row an error;
//! - all of it happens before a deadline: what is left is a per-row "repeat" error.
//!
//! `plan` checks rows (pure, unit-tested), `build` creates missing names and builds the
//! records, `write` puts them in chunks.

mod build;
mod names;
mod plan;
mod write;

use std::time::{Duration, Instant};

use rust_decimal::Decimal;
use time::Date;

use super::{AppError, AppResult};
use crate::domain::{Category, CategorySource, CategoryType, Wallet};
use crate::store::Store;
use build::build_all;
use names::Names;
use plan::plan;
use write::write;

/// Import ids are at most this many characters.
pub const IMPORT_ID_MAX_LEN: usize = 100;
/// Rows shown in a dry run's preview.
pub const PREVIEW_ROWS: usize = 20;
/// How long an import may take, from the request to its last write (API Gateway gives up
/// at 30 s): creating names and writing rows stop there, and the rows left are reported
/// as errors that repeating the import clears.
pub const TIME_BUDGET: Duration = Duration::from_secs(24);
/// The error of a row left when the time budget ran out.
pub const REPEAT_MESSAGE: &str =
    "not imported: the time limit was reached; repeat the import to write the rest";

/// One data row as read from the file (types hold; names are not resolved yet).
#[derive(Debug, Clone, PartialEq)]
pub struct ImportRow {
    /// 1-based number of the data row (the header is row 0).
    pub row: usize,
    pub date: Date,
    /// Signed: negative is a DEBIT, positive a CREDIT.
    pub amount: Decimal,
    pub category: Option<String>,
    pub note: Option<String>,
    pub provider: Option<String>,
    pub tags: Vec<String>,
    pub import_id: Option<String>,
}

/// Why one row was not imported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowError {
    pub row: usize,
    pub field: String,
    pub message: String,
}

impl RowError {
    pub fn new(row: usize, field: &str, message: impl Into<String>) -> Self {
        Self {
            row,
            field: field.into(),
            message: message.into(),
        }
    }
}

/// A read file: its number of data rows, the rows read, the errors of the rest, and
/// what the statement says of itself.
#[derive(Debug, Default)]
pub struct ParsedFile {
    pub rows: usize,
    pub parsed: Vec<ImportRow>,
    pub errors: Vec<RowError>,
    /// ISO 4217 code of the statement, when the file tells.
    pub currency: Option<String>,
    /// Pending entries the file holds (not imported).
    pub pending_skipped: usize,
}

/// A provider or tag: one the caller has, or a name the import creates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NameRef {
    Known(u64),
    New(String),
}

/// A category: one the caller sees, or one of the caller's own the import creates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CategoryRef {
    Known(Category),
    New {
        name: String,
        category_type: CategoryType,
    },
}

/// A row that would become a transaction, as a dry run previews it.
#[derive(Debug, Clone, PartialEq)]
pub struct Planned {
    pub row: usize,
    pub import_id: String,
    /// Positive; the category's type gives the direction.
    pub amount: Decimal,
    pub category: CategoryRef,
    /// In a seeded `Uncategorized` category.
    pub uncategorized: bool,
    /// `File` when the file names the category, else `Default` (`defaultCategoryId` or
    /// `Uncategorized`).
    pub category_source: CategorySource,
    pub date: Date,
    pub note: Option<String>,
    pub provider: Option<NameRef>,
    pub tags: Vec<NameRef>,
}

/// What an import did (or, in a dry run, would do).
#[derive(Debug, Default)]
pub struct ImportReport {
    pub rows: usize,
    /// Rows without errors (duplicates included).
    pub valid: usize,
    pub created: usize,
    pub duplicates: usize,
    /// Rows created (a dry run: to create) in a seeded `Uncategorized` category.
    pub uncategorized: usize,
    /// Pending entries of the file, not imported.
    pub skipped_pending: usize,
    pub errors: Vec<RowError>,
    /// Dry run only: the first rows that would be created.
    pub preview: Vec<Planned>,
}

/// Options of an import.
#[derive(Debug, Clone, Copy)]
pub struct ImportOptions {
    /// For rows that name no category (when its type fits the row's sign).
    pub default_category_id: Option<u64>,
    /// Check and report only: nothing is written.
    pub dry_run: bool,
    /// Names are created and rows written until then (see [`TIME_BUDGET`]).
    pub deadline: Instant,
}

/// A statement in another currency than the wallet's cannot be imported (yet): 422
/// naming both. An empty or unknown currency skips the check.
fn check_currency(wallet: &Wallet, statement: Option<&str>) -> AppResult<()> {
    let Some(code) = statement.map(str::trim).filter(|c| !c.is_empty()) else {
        return Ok(());
    };
    let wallet_code = wallet.currency.code();
    if code.eq_ignore_ascii_case(wallet_code) {
        return Ok(());
    }
    Err(AppError::Unprocessable(format!(
        "the statement is in {}, the wallet in {wallet_code}: import it into a {} wallet \
         (nothing was imported)",
        code.to_ascii_uppercase(),
        code.to_ascii_uppercase()
    )))
}

/// Imports the rows of a file into the caller's wallet (or, in a dry run, reports what
/// it would do).
pub async fn import(
    store: &Store,
    user_id: u64,
    file: ParsedFile,
    options: ImportOptions,
) -> AppResult<ImportReport> {
    let names = Names::load(store, user_id).await?;
    check_currency(&names.wallet, file.currency.as_deref())?;
    let default_category = match options.default_category_id {
        Some(id) => Some(
            names
                .by_id
                .get(&id)
                .ok_or_else(|| AppError::not_found("defaultCategoryId: category"))?,
        ),
        None => None,
    };
    let (rows, skipped_pending) = (file.rows, file.pending_skipped);
    // The caller's rules, loaded and compiled once for the whole file (one Query).
    let rules = crate::app::rules::Ruleset::load(store, user_id).await?;
    let (planned, mut errors) = plan(file, &names, default_category, Some(&rules));
    let valid = planned.len();
    let ids: Vec<&str> = planned.iter().map(|p| p.import_id.as_str()).collect();
    let done = store.imported(user_id, &ids).await?;
    let fresh: Vec<Planned> = planned
        .into_iter()
        .filter(|p| !done.contains(&p.import_id))
        .collect();
    let mut report = ImportReport {
        rows,
        valid,
        duplicates: valid - fresh.len(),
        skipped_pending,
        ..Default::default()
    };
    if options.dry_run {
        report.uncategorized = fresh.iter().filter(|p| p.uncategorized).count();
        report.preview = fresh.into_iter().take(PREVIEW_ROWS).collect();
        report.errors = errors;
        return Ok(report);
    }
    let records = build_all(store, user_id, &names, fresh, options.deadline, &mut errors).await?;
    let written = write(store, user_id, records, options.deadline).await?;
    report.created = written.created;
    report.uncategorized = written.uncategorized;
    report.duplicates += written.raced;
    errors.extend(
        written
            .left
            .into_iter()
            .map(|r| RowError::new(r.row, "row", REPEAT_MESSAGE)),
    );
    errors.sort_by_key(|e| e.row);
    report.errors = errors;
    Ok(report)
}
