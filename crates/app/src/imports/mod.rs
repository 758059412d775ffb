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
//! records, `write` puts them in chunks; `job` does the same for large files, chunk by
//! chunk outside the request.

mod build;
mod grouping;
pub mod job;
mod names;
mod plan;
mod write;

use std::time::{Duration, Instant};

use rust_decimal::Decimal;
use time::Date;

/// One data row as read from the file (types hold; names are not resolved yet): the
/// reader's row, its `payee` naming the provider. Its `row` is 1-based (the header is
/// row 0); a negative amount is a DEBIT, a positive one a CREDIT.
pub use bankfile::Row as ImportRow;

use super::{AppError, AppResult};
use names::Names;
use pf_domain::{Category, CategorySource, CategoryType, Wallet};
use pf_store::Store;
use plan::plan;
use write::{create, not_imported};

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

/// Why one row was not imported.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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
    /// Entries the bank has not booked (pending, declined, ...), not imported.
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
    /// A split row's parts (its `category` is the first's); empty for a plain row.
    pub splits: Vec<PlannedPart>,
}

/// A part of a split row: positive, in a category of the row's type.
#[derive(Debug, Clone, PartialEq)]
pub struct PlannedPart {
    pub amount: Decimal,
    pub category: CategoryRef,
    pub note: Option<String>,
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

/// What a file makes before anything is written: the caller's names, the rows planned (in
/// file order) and the errors of the others.
struct Prepared {
    names: Names,
    planned: Vec<Planned>,
    errors: Vec<RowError>,
    rows: usize,
    skipped_pending: usize,
}

/// The default category of a file, which the caller must see (else 404).
fn default_category(names: &Names, id: Option<u64>) -> AppResult<Option<&Category>> {
    id.map(|id| {
        names
            .by_id
            .get(&id)
            .ok_or_else(|| AppError::not_found("defaultCategoryId: category"))
    })
    .transpose()
}

/// Checks a file against the caller's names and rules (one load of each), the caller's
/// wallet already read.
async fn prepare(
    store: &Store,
    wallet: Wallet,
    file: ParsedFile,
    default_category_id: Option<u64>,
) -> AppResult<Prepared> {
    check_currency(&wallet, file.currency.as_deref())?;
    let user_id = wallet.user_id;
    // The caller's rules, loaded and compiled once for the whole file (one Query).
    let (names, rules) = tokio::try_join!(
        Names::of_wallet(store, wallet),
        crate::ruleset::Ruleset::load(store, user_id),
    )?;
    let default_category = default_category(&names, default_category_id)?;
    let (rows, skipped_pending) = (file.rows, file.pending_skipped);
    let (planned, errors) = plan(file, &names, default_category, Some(&rules));
    Ok(Prepared {
        names,
        planned,
        errors,
        rows,
        skipped_pending,
    })
}

/// Imports the rows of a file into `wallet` (its owner's, as read to read the file) or,
/// in a dry run, reports what it would do, within the request.
pub async fn import(
    store: &Store,
    wallet: Wallet,
    file: ParsedFile,
    options: ImportOptions,
) -> AppResult<ImportReport> {
    let user_id = wallet.user_id;
    let prepared = prepare(store, wallet, file, options.default_category_id).await?;
    finish(store, user_id, prepared, options).await
}

/// What a posted file became: a report of what was done in the request, or a job.
#[derive(Debug)]
pub enum Submitted {
    Report(ImportReport),
    Job(job::Job),
}

/// Imports a file within the request when at most [`job::SYNC_ROWS`] of its rows are
/// valid (and always in a dry run), else starts a job that goes on outside it, through
/// `continuation` (the process's, handed in by the handler).
pub async fn submit(
    store: &Store,
    wallet: Wallet,
    file: ParsedFile,
    options: ImportOptions,
    continuation: &dyn job::Continuation,
) -> AppResult<Submitted> {
    let user_id = wallet.user_id;
    let large = !options.dry_run && file.parsed.len() > job::SYNC_ROWS;
    let originals = large.then(|| file.parsed.clone());
    let prepared = prepare(store, wallet, file, options.default_category_id).await?;
    match originals {
        Some(rows) if prepared.planned.len() > job::SYNC_ROWS => {
            let default_category_id = options.default_category_id;
            job::start(
                store,
                user_id,
                prepared,
                rows,
                default_category_id,
                continuation,
            )
            .await
            .map(Submitted::Job)
        }
        _ => finish(store, user_id, prepared, options)
            .await
            .map(Submitted::Report),
    }
}

async fn finish(
    store: &Store,
    user_id: u64,
    prepared: Prepared,
    options: ImportOptions,
) -> AppResult<ImportReport> {
    let Prepared {
        names,
        planned,
        mut errors,
        rows,
        skipped_pending,
    } = prepared;
    let valid = planned.len();
    let (fresh, seen) = not_imported(store, user_id, planned, None).await?;
    let mut report = ImportReport {
        rows,
        valid,
        duplicates: seen.len(),
        skipped_pending,
        ..Default::default()
    };
    if options.dry_run {
        report.uncategorized = fresh.rows.iter().filter(|p| p.uncategorized).count();
        report.preview = fresh.rows.into_iter().take(PREVIEW_ROWS).collect();
        report.errors = errors;
        return Ok(report);
    }
    let done = create(store, user_id, &names, fresh, options.deadline, &mut errors).await?;
    report.created = done.created;
    report.uncategorized = done.uncategorized;
    report.duplicates += done.raced;
    errors.extend(
        done.left
            .into_iter()
            .map(|row| RowError::new(row, "row", REPEAT_MESSAGE)),
    );
    errors.sort_by_key(|e| e.row);
    report.errors = errors;
    Ok(report)
}
