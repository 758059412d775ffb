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

use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};

use rust_decimal::Decimal;
use time::Date;

use super::named::Named;
use super::transactions::{build_record, TransactionInput};
use super::{AppError, AppResult};
use crate::domain::text::{parse_name, parse_note, NAME_MAX_LEN, NOTE_MAX_LEN};
use crate::domain::time::{format_date, Timestamp};
use crate::domain::{Category, CategoryType, Wallet};
use crate::store::named::{Kind, NamedRecord};
use crate::store::transactions::{Refs, Transaction};
use crate::store::{ConflictKind, Store, StoreError};

/// At most this many tags per transaction (as `POST /api/transactions`).
pub const MAX_TAGS: usize = 20;
/// Import ids are at most this many characters.
pub const IMPORT_ID_MAX_LEN: usize = 100;
/// Rows shown in a dry run's preview.
pub const PREVIEW_ROWS: usize = 20;
/// Transactions offered to one `TransactWriteItems` (two items each, plus the counters;
/// the store takes fewer when they do not fit in 100 items).
const CHUNK: usize = 48;
/// Writing stops after this long (API Gateway gives up at 30 s): the rows left are
/// reported as errors, and repeating the import writes them.
const WRITE_BUDGET: std::time::Duration = std::time::Duration::from_secs(24);
/// Passes over one chunk that a concurrent import keeps cancelling before giving up.
const CHUNK_ATTEMPTS: usize = 5;

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

/// Case-insensitive lookup key of a name.
fn fold(name: &str) -> String {
    name.trim().to_lowercase()
}

/// The caller's names, resolved once per import.
struct Names {
    wallet: Wallet,
    /// Own categories first, so an own name shadows a global one.
    categories: HashMap<String, Category>,
    by_id: HashMap<u64, Category>,
    providers: HashMap<String, u64>,
    tags: HashMap<String, u64>,
}

impl Names {
    async fn load(store: &Store, user_id: u64) -> AppResult<Self> {
        let (wallet, categories, providers, tags) = tokio::try_join!(
            async { Ok::<_, AppError>(store.get_wallet(user_id).await?) },
            super::categories::list(store, user_id, None),
            async { Ok(store.list_named(user_id, Kind::Provider).await?) },
            async { Ok(store.list_named(user_id, Kind::Tag).await?) },
        )?;
        let wallet =
            wallet.ok_or_else(|| AppError::Forbidden("this account no longer exists".into()))?;
        let mut by_name = HashMap::new();
        // Global first, then own: an own category of the same name wins.
        for c in categories.iter().filter(|c| c.is_global()) {
            by_name.entry(fold(&c.name)).or_insert_with(|| c.clone());
        }
        for c in categories.iter().filter(|c| !c.is_global()) {
            by_name.insert(fold(&c.name), c.clone());
        }
        let index =
            |list: Vec<NamedRecord>| list.into_iter().map(|r| (fold(&r.name), r.id)).collect();
        Ok(Self {
            wallet,
            by_id: categories.into_iter().map(|c| (c.id, c)).collect(),
            categories: by_name,
            providers: index(providers),
            tags: index(tags),
        })
    }

    fn name_ref(map: &HashMap<String, u64>, name: String) -> NameRef {
        match map.get(&fold(&name)) {
            Some(id) => NameRef::Known(*id),
            None => NameRef::New(name),
        }
    }
}

/// `<signed amount>:<date>:<occurrence>` for rows without an import id.
fn derived_id(amount: Decimal, date: Date, occurrence: usize) -> String {
    format!("{}:{}:{occurrence}", amount.normalize(), format_date(date))
}

fn check_import_id(id: &str) -> Result<(), String> {
    if id.is_empty() || id.chars().count() > IMPORT_ID_MAX_LEN {
        return Err(format!("must be 1 to {IMPORT_ID_MAX_LEN} characters"));
    }
    if id.chars().any(char::is_control) {
        return Err("must not contain control characters".into());
    }
    Ok(())
}

/// Checks one row against the caller's names; every broken rule is reported.
fn plan_row(
    row: ImportRow,
    import_id: String,
    names: &Names,
    default_category: Option<&Category>,
) -> Result<Planned, Vec<RowError>> {
    let n = row.row;
    let mut errors = Vec::new();
    let category = match &row.category {
        Some(name) if !name.trim().is_empty() => names
            .categories
            .get(&fold(name))
            .or(default_category)
            .ok_or_else(|| {
                format!(
                    "no category named {:?} and no defaultCategoryId",
                    name.trim()
                )
            }),
        _ => default_category.ok_or_else(|| "is empty and no defaultCategoryId was given".into()),
    };
    let category = category
        .map_err(|m| errors.push(RowError::new(n, "category", m)))
        .ok();
    if row.amount.is_zero() {
        errors.push(RowError::new(n, "amount", "must not be 0"));
    } else if let Some(c) = category {
        let wanted = if row.amount < Decimal::ZERO {
            CategoryType::Debit
        } else {
            CategoryType::Credit
        };
        if c.category_type != wanted {
            let sign = if wanted == CategoryType::Debit {
                "negative (a debit)"
            } else {
                "positive (a credit)"
            };
            errors.push(RowError::new(
                n,
                "amount",
                format!(
                    "is {sign} but category {:?} is {}",
                    c.name,
                    c.category_type.as_str()
                ),
            ));
        }
    }
    let note = parse_note(row.note.as_deref(), NOTE_MAX_LEN)
        .map_err(|m| errors.push(RowError::new(n, "note", m)))
        .ok()
        .flatten();
    let provider = match row.provider.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(raw) => parse_name(raw, NAME_MAX_LEN)
            .map_err(|m| errors.push(RowError::new(n, "provider", m)))
            .ok()
            .map(|name| Names::name_ref(&names.providers, name)),
    };
    let mut tags = Vec::new();
    let mut seen = HashSet::new();
    for raw in &row.tags {
        match parse_name(raw, NAME_MAX_LEN) {
            Ok(name) if seen.insert(fold(&name)) => tags.push(Names::name_ref(&names.tags, name)),
            Ok(_) => {}
            Err(m) => errors.push(RowError::new(n, "tags", format!("{raw:?}: {m}"))),
        }
    }
    if tags.len() > MAX_TAGS {
        errors.push(RowError::new(n, "tags", format!("at most {MAX_TAGS} tags")));
    }
    match category {
        Some(c) if errors.is_empty() => Ok(Planned {
            row: n,
            import_id,
            amount: row.amount.abs(),
            category_id: c.id,
            category: c.clone(),
            date: row.date,
            note,
            provider,
            tags,
        }),
        _ => Err(errors),
    }
}

/// Checks every row and gives each its import id; rows that break a rule become errors.
fn plan(
    file: ParsedFile,
    names: &Names,
    default_category: Option<&Category>,
) -> (Vec<Planned>, Vec<RowError>) {
    let mut errors = file.errors;
    let mut occurrences: HashMap<(Decimal, Date), usize> = HashMap::new();
    let mut ids = HashSet::new();
    let mut planned = Vec::new();
    for row in file.parsed {
        let seen = occurrences
            .entry((row.amount.normalize(), row.date))
            .or_default();
        *seen += 1;
        let id = match row.import_id.as_deref().map(str::trim) {
            Some(id) if !id.is_empty() => id.to_owned(),
            _ => derived_id(row.amount, row.date, *seen),
        };
        if let Err(m) = check_import_id(&id) {
            errors.push(RowError::new(row.row, "importId", m));
            continue;
        }
        if !ids.insert(id.clone()) {
            errors.push(RowError::new(
                row.row,
                "importId",
                "is used by an earlier row of this file",
            ));
            continue;
        }
        match plan_row(row, id, names, default_category) {
            Ok(p) => planned.push(p),
            Err(e) => errors.extend(e),
        }
    }
    errors.sort_by_key(|e| e.row);
    (planned, errors)
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
        let input = TransactionInput {
            amount: p.amount,
            currency: None,
            category_id: p.category_id,
            date: p.date,
            note: p.note,
            provider_id,
            tag_ids,
        };
        let id = crate::domain::ids::new_id();
        match build_record(user_id, input, &refs, id, 1, None, now) {
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

/// A row to write: its number, its record and its import id.
type Record = (usize, Transaction, String);

/// Writes the records in chunks (one `TransactWriteItems` each, markers included) and
/// returns (created, found imported meanwhile, left unwritten at the time limit). A chunk
/// cancelled by a marker (a concurrent import of the same rows) is re-read and retried
/// without those rows.
async fn write(
    store: &Store,
    user_id: u64,
    records: Vec<Record>,
) -> AppResult<(usize, usize, Vec<Record>)> {
    let started = std::time::Instant::now();
    let mut queue: VecDeque<Record> = records.into();
    let (mut created, mut raced, mut attempts) = (0, 0, 0);
    let now = Timestamp::now().to_string();
    while !queue.is_empty() {
        if started.elapsed() > WRITE_BUDGET {
            return Ok((created, raced, queue.into()));
        }
        let take = queue.len().min(CHUNK);
        let mut chunk: Vec<Record> = queue.drain(..take).collect();
        let batch: Vec<(Transaction, String)> = chunk
            .iter()
            .map(|(_, t, id)| (t.clone(), id.clone()))
            .collect();
        match store.insert_transactions(&batch, &now).await {
            Ok(written) => {
                created += written;
                attempts = 0;
                for rest in chunk.drain(written..).rev() {
                    queue.push_front(rest);
                }
            }
            Err(e) if attempts >= CHUNK_ATTEMPTS => return Err(write_error(e)),
            Err(StoreError::Conflict(ConflictKind::AlreadyImported)) => {
                attempts += 1;
                let ids: Vec<&str> = chunk.iter().map(|(_, _, id)| id.as_str()).collect();
                let done = store.imported(user_id, &ids).await?;
                chunk.retain(|(_, _, id)| !done.contains(id));
                raced += take - chunk.len();
                for rest in chunk.into_iter().rev() {
                    queue.push_front(rest);
                }
            }
            Err(StoreError::Conflict(ConflictKind::IdTaken)) => {
                attempts += 1;
                for (_, t, _) in &mut chunk {
                    t.id = crate::domain::ids::new_id();
                }
                for rest in chunk.into_iter().rev() {
                    queue.push_front(rest);
                }
            }
            Err(e) => return Err(write_error(e)),
        }
    }
    Ok((created, raced, Vec::new()))
}

/// A write refused midway: what was written stays (with its markers), so the client
/// repeats the import and only the rest is created.
fn write_error(e: StoreError) -> AppError {
    let retry = "the import stopped part way; repeat it: rows already imported are skipped";
    match e {
        StoreError::Conflict(ConflictKind::Wallet) => AppError::Conflict(format!(
            "the wallet changed meanwhile (currency or account); {retry}"
        )),
        StoreError::Conflict(ConflictKind::Reference(_)) => AppError::Conflict(format!(
            "a category, provider or tag was deleted or changed meanwhile; {retry}"
        )),
        StoreError::Conflict(_) => AppError::Conflict(retry.into()),
        e => AppError::Store(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::date;

    fn category(id: u64, owner: Option<u64>, name: &str, t: CategoryType) -> Category {
        let at = Timestamp::parse("2026-01-01T00:00:00").unwrap();
        Category {
            id,
            owner,
            name: name.into(),
            icon: "tag".into(),
            color: "#000000".into(),
            category_type: t,
            use_count: 0,
            created_at: at,
            updated_at: at,
        }
    }

    fn names() -> Names {
        let at = Timestamp::parse("2026-01-01T00:00:00").unwrap();
        let cats = [
            category(1, None, "Groceries", CategoryType::Debit),
            category(2, None, "Salary", CategoryType::Credit),
            category(9, Some(7), "groceries", CategoryType::Debit),
        ];
        let mut by_name = HashMap::new();
        by_name.insert("groceries".into(), cats[2].clone());
        by_name.insert("salary".into(), cats[1].clone());
        Names {
            wallet: Wallet::new_default(7, 1, at),
            by_id: cats.iter().map(|c| (c.id, c.clone())).collect(),
            categories: by_name,
            providers: HashMap::from([("acme".into(), 5)]),
            tags: HashMap::from([("weekly".into(), 6)]),
        }
    }

    fn row(n: usize, amount: i64, category: &str) -> ImportRow {
        ImportRow {
            row: n,
            date: date!(2026 - 11 - 03),
            amount: Decimal::new(amount, 2),
            category: Some(category.into()),
            note: None,
            provider: None,
            tags: vec![],
            import_id: None,
        }
    }

    #[test]
    fn rows_without_ids_get_amount_date_and_occurrence() {
        let file = ParsedFile {
            rows: 3,
            parsed: vec![
                row(1, -1250, "Groceries"),
                row(2, -1250, "groceries"),
                row(3, 500, "Salary"),
            ],
            errors: vec![],
        };
        let (planned, errors) = plan(file, &names(), None);
        assert!(errors.is_empty(), "{errors:?}");
        let ids: Vec<_> = planned.iter().map(|p| p.import_id.as_str()).collect();
        assert_eq!(
            ids,
            ["-12.5:2026-11-03:1", "-12.5:2026-11-03:2", "5:2026-11-03:1"]
        );
        assert_eq!(
            planned[0].category_id, 9,
            "an own category shadows a global one"
        );
        assert_eq!(planned[0].amount, Decimal::new(1250, 2));
    }

    #[test]
    fn sign_and_category_type_must_agree_and_unknown_categories_need_a_default() {
        let file = ParsedFile {
            rows: 3,
            parsed: vec![
                row(1, 1250, "Groceries"),
                row(2, -100, "Rent"),
                row(3, 0, "Salary"),
            ],
            errors: vec![],
        };
        let (planned, errors) = plan(file, &names(), None);
        assert!(planned.is_empty());
        let fields: Vec<_> = errors.iter().map(|e| (e.row, e.field.as_str())).collect();
        assert_eq!(fields, [(1, "amount"), (2, "category"), (3, "amount")]);
        let n = names();
        let default = n.by_id.get(&1);
        let file = ParsedFile {
            rows: 1,
            parsed: vec![row(2, -100, "Rent")],
            errors: vec![],
        };
        let (planned, _) = plan(file, &n, default);
        assert_eq!(planned[0].category_id, 1);
    }

    #[test]
    fn unknown_names_are_to_be_created_and_a_repeated_import_id_is_an_error() {
        let mut a = row(1, -100, "Groceries");
        a.provider = Some("ACME".into());
        a.tags = vec!["Weekly".into(), "new".into(), "weekly".into()];
        a.import_id = Some("x".into());
        let mut b = row(2, -200, "Groceries");
        b.import_id = Some("x".into());
        let file = ParsedFile {
            rows: 2,
            parsed: vec![a, b],
            errors: vec![],
        };
        let (planned, errors) = plan(file, &names(), None);
        assert_eq!(planned[0].provider, Some(NameRef::Known(5)));
        assert_eq!(
            planned[0].tags,
            [NameRef::Known(6), NameRef::New("new".into())]
        );
        assert_eq!(
            errors,
            [RowError::new(
                2,
                "importId",
                "is used by an earlier row of this file"
            )]
        );
    }
}
