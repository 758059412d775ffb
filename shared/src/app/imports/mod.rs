//! Imports: rows parsed from a file become transactions through the same rules as a
//! create (`transactions::build_record`), each guarded by a permanent marker of its import
//! id so that importing a file again creates nothing and a half-failed import can simply
//! be repeated. Names (categories, providers, tags) are resolved once per import: a
//! category by name among the global ones and the caller's own (never another user's); an
//! unknown provider or tag name is created for the caller.
//!
//! Rules decided here (and documented in the README):
//! - a row's signed amount must agree with its category's type (negative ↔ DEBIT,
//!   positive ↔ CREDIT); otherwise, or for a zero amount, the row is an error;
//! - a row without an import id gets `<signed amount>:<date>:<occurrence>` (YNAB's rule:
//!   the n-th row of that amount and date in the file);
//! - an import id used twice in one file makes the later row an error.

//!
//! `plan` checks rows and resolves names (pure, unit-tested); `write` puts them in chunks.

mod plan;
mod write;

use std::collections::{BTreeSet, HashMap};

use rust_decimal::Decimal;
use time::Date;

use super::named::Named;
use super::transactions::{build_record, Stamp, TransactionDraft};
use super::{AppError, AppResult};
use crate::domain::time::Timestamp;
use crate::domain::Category;
use crate::store::named::Kind;
use crate::store::transactions::Refs;
use crate::store::Store;
use plan::{fold, plan, Names};
use write::{write, Record};

/// Import ids are at most this many characters.
pub const IMPORT_ID_MAX_LEN: usize = 100;
/// Rows shown in a dry run's preview.
pub const PREVIEW_ROWS: usize = 20;
/// One data row as parsed from the file (types hold; names are not resolved yet).
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

/// A parsed file: its number of data rows, the rows that parsed and the errors of the rest.
#[derive(Debug, Default)]
pub struct ParsedFile {
    pub rows: usize,
    pub parsed: Vec<ImportRow>,
    pub errors: Vec<RowError>,
}

/// A provider or tag: one the caller has, or a name the import creates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NameRef {
    Known(u64),
    New(String),
}

/// A row that would become a transaction, as a dry run previews it.
#[derive(Debug, Clone, PartialEq)]
pub struct Planned {
    pub row: usize,
    pub import_id: String,
    /// Positive; the category's type gives the direction.
    pub amount: Decimal,
    pub category_id: u64,
    pub category: Category,
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
    pub errors: Vec<RowError>,
    /// Dry run only: the first rows that would be created.
    pub preview: Vec<Planned>,
}

/// Options of an import.
#[derive(Debug, Clone, Copy, Default)]
pub struct ImportOptions {
    /// For rows whose category is empty or unknown.
    pub default_category_id: Option<u64>,
    /// Check and report only: nothing is written.
    pub dry_run: bool,
}

/// Imports the parsed rows of a file into the caller's wallet (or, in a dry run, reports
/// what it would do).
pub async fn import(
    store: &Store,
    user_id: u64,
    file: ParsedFile,
    options: ImportOptions,
) -> AppResult<ImportReport> {
    let names = Names::load(store, user_id).await?;
    let default_category = match options.default_category_id {
        Some(id) => Some(
            names
                .by_id
                .get(&id)
                .ok_or_else(|| AppError::invalid("defaultCategoryId", "no such category"))?,
        ),
        None => None,
    };
    let rows = file.rows;
    let (planned, mut errors) = plan(file, &names, default_category);
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
        ..Default::default()
    };
    if options.dry_run {
        report.preview = fresh.into_iter().take(PREVIEW_ROWS).collect();
        report.errors = errors;
        return Ok(report);
    }
    let records = build_all(store, user_id, &names, fresh, &mut errors).await?;
    let (created, raced, left) = write(store, user_id, records).await?;
    report.created = created;
    report.duplicates += raced;
    errors.extend(left.into_iter().map(|(row, _, _)| {
        RowError::new(
            row,
            "row",
            "not imported: the time limit was reached; repeat the import to write the rest",
        )
    }));
    errors.sort_by_key(|e| e.row);
    report.errors = errors;
    Ok(report)
}

/// Creates the providers and tags the rows name but the caller lacks, then builds each
/// row's record with `build_record` (the rules of every transaction).
async fn build_all(
    store: &Store,
    user_id: u64,
    names: &Names,
    rows: Vec<Planned>,
    errors: &mut Vec<RowError>,
) -> AppResult<Vec<Record>> {
    let mut providers = names.providers.clone();
    let mut tags = names.tags.clone();
    for p in &rows {
        if let Some(NameRef::New(name)) = &p.provider {
            create_named(store, user_id, Kind::Provider, name, &mut providers).await?;
        }
        for t in &p.tags {
            if let NameRef::New(name) = t {
                create_named(store, user_id, Kind::Tag, name, &mut tags).await?;
            }
        }
    }
    let id_of = |map: &HashMap<String, u64>, r: &NameRef| match r {
        NameRef::Known(id) => Some(*id),
        NameRef::New(name) => map.get(&fold(name)).copied(),
    };
    let now = Timestamp::now();
    let mut records = Vec::with_capacity(rows.len());
    // Ids made in one burst share milliseconds: two alike in one chunk would be two
    // operations on one item, which DynamoDB refuses. Each id is new within the import.
    let mut taken = std::collections::HashSet::new();
    for p in rows {
        let provider_id = p.provider.as_ref().and_then(|r| id_of(&providers, r));
        let mut tag_ids: Vec<u64> = p.tags.iter().filter_map(|r| id_of(&tags, r)).collect();
        tag_ids.sort_unstable();
        tag_ids.dedup();
        let refs = Refs {
            wallet: Some(names.wallet.clone()),
            category: Some(p.category.clone()),
            provider_found: true,
            tags_found: tag_ids.iter().copied().collect::<BTreeSet<_>>(),
            ..Default::default()
        };
        let input = TransactionDraft {
            amount: p.amount,
            currency: None,
            category_id: Some(p.category_id),
            date: p.date,
            note: p.note,
            provider_id,
            tag_ids,
            // Every row names its category today.
            category_source: crate::domain::CategorySource::File,
        };
        let id = loop {
            let id = crate::domain::ids::new_id();
            if taken.insert(id) {
                break id;
            }
        };
        let stamp = Stamp {
            id,
            version: 1,
            created_at: None,
            now,
        };
        match build_record(user_id, input, &refs, stamp) {
            Ok(record) => records.push((p.row, record, p.import_id)),
            Err(AppError::Invalid(violations)) => errors.extend(
                violations
                    .into_iter()
                    .map(|v| RowError::new(p.row, &v.field, v.message)),
            ),
            Err(e) => return Err(e),
        }
    }
    errors.sort_by_key(|e| e.row);
    Ok(records)
}

/// Creates one provider or tag by name unless `known` has it (a concurrent creation of
/// the same name is looked up instead).
async fn create_named(
    store: &Store,
    user_id: u64,
    kind: Kind,
    name: &str,
    known: &mut HashMap<String, u64>,
) -> AppResult<()> {
    if known.contains_key(&fold(name)) {
        return Ok(());
    }
    let named = match kind {
        Kind::Provider => Named {
            kind,
            field: "provider",
            noun: "provider",
        },
        Kind::Tag => Named {
            kind,
            field: "tags",
            noun: "tag",
        },
    };
    match named.create(store, user_id, name).await {
        Ok(record) => {
            known.insert(fold(&record.name), record.id);
        }
        Err(AppError::Conflict(_)) => {
            // Taken meanwhile (by a concurrent request) or over the limit: read again.
            for r in store.list_named(user_id, kind).await? {
                known.insert(fold(&r.name), r.id);
            }
            if !known.contains_key(&fold(name)) {
                return Err(AppError::Conflict(format!(
                    "cannot create the {} {name:?}: you have reached the limit of {} {}s",
                    named.noun,
                    kind.max_per_user(),
                    named.noun
                )));
            }
        }
        Err(e) => return Err(e),
    }
    Ok(())
}
