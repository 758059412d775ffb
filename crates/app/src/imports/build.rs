//! Creating the names the rows need (providers, tags, own categories) and building each
//! row's record with `build_record`, the rules of every transaction. Names are created
//! one after the other (they move the same per-user counters) until the deadline: a row
//! whose names could not be created in time is a "repeat the import" error, and the
//! repetition finds the names made so far. Once a cap on what a user may own refuses a
//! name (providers, tags, own categories), no more of that kind are tried: each row that
//! needs one is a row error naming the cap (`provider`, `tags` or `category`), and the
//! other rows are imported.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::time::Instant;

use super::names::{fold, Names};
use super::{CategoryRef, NameRef, Planned, PlannedPart, RowError, REPEAT_MESSAGE};
use crate::transactions::{build_record, PartDraft, Splits, Stamp, TransactionDraft};
use crate::{categories, labels};
use crate::{AppError, AppResult};
use pf_domain::time::Timestamp;
use pf_domain::{Category, CategoryType, LabelKind, Transaction};
use pf_store::transactions::Refs;
use pf_store::Store;

/// A row to write.
#[derive(Debug, Clone)]
pub(super) struct Record {
    pub(super) row: usize,
    pub(super) txn: Transaction,
    pub(super) import_id: String,
    /// In a seeded `Uncategorized` category.
    pub(super) uncategorized: bool,
}

/// What the import knows by name: the caller's names and those it created.
struct Made {
    providers: HashMap<String, u64>,
    tags: HashMap<String, u64>,
    categories: HashMap<(String, CategoryType), Category>,
    /// The kinds a cap refused, by the row field that names them, with the refusal.
    refused: HashMap<&'static str, String>,
}

impl Made {
    fn provider(&self, r: &NameRef) -> Option<u64> {
        id_of(&self.providers, r)
    }

    fn category(&self, r: &CategoryRef) -> Option<Category> {
        match r {
            CategoryRef::Known(c) => Some(c.clone()),
            CategoryRef::New {
                name,
                category_type,
            } => self.categories.get(&(fold(name), *category_type)).cloned(),
        }
    }
}

fn id_of(map: &HashMap<String, u64>, r: &NameRef) -> Option<u64> {
    match r {
        NameRef::Known(id) => Some(*id),
        NameRef::New(name) => map.get(&fold(name)).copied(),
    }
}

/// Creates the names the rows lack, in row order, until `deadline`.
async fn create_names(
    store: &Store,
    user_id: u64,
    names: &Names,
    rows: &[Planned],
    deadline: Instant,
) -> AppResult<Made> {
    let mut made = Made {
        providers: names.providers.clone(),
        tags: names.tags.clone(),
        categories: HashMap::new(),
        refused: HashMap::new(),
    };
    for p in rows {
        if Instant::now() >= deadline {
            break;
        }
        for r in std::iter::once(&p.category).chain(p.splits.iter().map(|s| &s.category)) {
            let CategoryRef::New {
                name,
                category_type,
            } = r
            else {
                continue;
            };
            let key = (fold(name), *category_type);
            if !made.categories.contains_key(&key) && !made.refused.contains_key("category") {
                let fields = categories::parse_fields(name, None, None, *category_type)?;
                // A concurrent import that reserved the name first: its category, and
                // those it made meanwhile (read once, so that they are not raced again).
                match categories::create_or_find(store, user_id, fields).await {
                    Ok((c, created)) => {
                        made.categories.insert(key, c);
                        if !created {
                            for c in store.list_categories(user_id, false).await? {
                                let key = (fold(&c.name), c.category_type);
                                made.categories.entry(key).or_insert(c);
                            }
                        }
                    }
                    Err(AppError::Conflict(m)) => {
                        made.refused.insert("category", m);
                    }
                    Err(e) => return Err(e),
                }
            }
        }
        if let Some(NameRef::New(name)) = &p.provider {
            let known = &mut made.providers;
            refusable(&mut made.refused, "provider", || {
                create_label(store, user_id, LabelKind::Provider, name, known)
            })
            .await?;
        }
        for t in &p.tags {
            if let NameRef::New(name) = t {
                let known = &mut made.tags;
                refusable(&mut made.refused, "tags", || {
                    create_label(store, user_id, LabelKind::Tag, name, known)
                })
                .await?;
            }
        }
    }
    Ok(made)
}

/// Runs `create` unless a cap already refused this kind; a cap's refusal (`Conflict`) is
/// kept under `field` for the rows that need the kind.
async fn refusable<F, Fut>(
    refused: &mut HashMap<&'static str, String>,
    field: &'static str,
    create: F,
) -> AppResult<()>
where
    F: FnOnce() -> Fut,
    Fut: std::future::Future<Output = AppResult<()>>,
{
    if refused.contains_key(field) {
        return Ok(());
    }
    match create().await {
        Err(AppError::Conflict(m)) => {
            refused.insert(field, m);
            Ok(())
        }
        other => other,
    }
}

/// Why a row's names are missing: the cap that refused one of them, else the deadline.
fn missing_reason(made: &Made, p: &Planned) -> (&'static str, String) {
    let categories = || std::iter::once(&p.category).chain(p.splits.iter().map(|s| &s.category));
    let new_category = categories().any(|c| matches!(c, CategoryRef::New { .. }));
    let new_provider = matches!(p.provider, Some(NameRef::New(_)));
    let new_tag = p.tags.iter().any(|t| matches!(t, NameRef::New(_)));
    let needed = [
        (
            "category",
            new_category && categories().any(|c| made.category(c).is_none()),
        ),
        (
            "provider",
            new_provider
                && p.provider
                    .as_ref()
                    .is_some_and(|r| made.provider(r).is_none()),
        ),
        (
            "tags",
            new_tag && p.tags.iter().any(|r| id_of(&made.tags, r).is_none()),
        ),
    ];
    needed
        .into_iter()
        .filter(|(_, missing)| *missing)
        .find_map(|(field, _)| made.refused.get(field).map(|m| (field, m.clone())))
        .unwrap_or(("row", REPEAT_MESSAGE.to_owned()))
}

/// Creates the providers, tags and categories the rows name but the caller lacks, then
/// builds each row's record.
pub(super) async fn build_all(
    store: &Store,
    user_id: u64,
    names: &Names,
    rows: Vec<Planned>,
    deadline: Instant,
    errors: &mut Vec<RowError>,
) -> AppResult<Vec<Record>> {
    let made = create_names(store, user_id, names, &rows, deadline).await?;
    let now = Timestamp::now();
    let mut records = Vec::with_capacity(rows.len());
    // Ids made in one burst share milliseconds: two alike in one chunk would be two
    // operations on one item, which DynamoDB refuses. Each id is new within the import.
    let mut taken = HashSet::new();
    for p in rows {
        let category = made.category(&p.category);
        let provider_id = p.provider.as_ref().map(|r| made.provider(r));
        let tag_ids: Option<Vec<u64>> = p.tags.iter().map(|r| id_of(&made.tags, r)).collect();
        let parts: Option<Vec<(PlannedPart, Category)>> = p
            .splits
            .iter()
            .map(|s| made.category(&s.category).map(|c| (s.clone(), c)))
            .collect();
        let (Some(category), Some(provider_id), Some(mut tag_ids), Some(parts)) = (
            category,
            provider_id.map_or(Some(None), |id| id.map(Some)),
            tag_ids,
            parts,
        ) else {
            // A name a cap refused or the deadline left uncreated.
            let (field, message) = missing_reason(&made, &p);
            errors.push(RowError::new(p.row, field, message));
            continue;
        };
        tag_ids.sort_unstable();
        tag_ids.dedup();
        let refs = Refs {
            wallet: Some(names.wallet.clone()),
            category: Some(category.clone()),
            provider_found: true,
            tags_found: tag_ids.iter().copied().collect::<BTreeSet<_>>(),
            part_categories: parts.iter().map(|(_, c)| (c.id, c.clone())).collect(),
            ..Default::default()
        };
        let splits = match parts.is_empty() {
            true => Splits::Absent,
            false => Splits::Parts(
                parts
                    .into_iter()
                    .map(|(s, c)| PartDraft {
                        amount: s.amount,
                        category_id: c.id,
                        note: s.note,
                        tag_ids: Vec::new(),
                    })
                    .collect(),
            ),
        };
        let draft = TransactionDraft {
            amount: p.amount,
            currency: None,
            category_id: Some(category.id),
            date: p.date,
            note: p.note,
            provider_id,
            tag_ids,
            category_source: p.category_source,
            splits,
        };
        let id = loop {
            let id = pf_domain::ids::new_id();
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
        match build_record(user_id, draft, &refs, stamp) {
            Ok(txn) => records.push(Record {
                row: p.row,
                txn,
                import_id: p.import_id,
                uncategorized: p.uncategorized,
            }),
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
async fn create_label(
    store: &Store,
    user_id: u64,
    kind: LabelKind,
    name: &str,
    known: &mut HashMap<String, u64>,
) -> AppResult<()> {
    if known.contains_key(&fold(name)) {
        return Ok(());
    }
    // The name was checked when the file was read: only a clash or the cap can refuse it.
    match labels::create(store, user_id, kind, name, None).await {
        Ok(record) => {
            known.insert(fold(&record.name), record.id);
        }
        Err(AppError::Conflict(_)) => {
            // Taken meanwhile (by a concurrent request) or over the limit: read again.
            for r in labels::list_all(store, user_id, kind).await? {
                known.insert(fold(&r.name), r.id);
            }
            if !known.contains_key(&fold(name)) {
                let limit = labels::limit_reached(kind, store.limits());
                let noun = kind.noun();
                return Err(AppError::Conflict(format!(
                    "cannot create the {noun} {name:?}: {limit}"
                )));
            }
        }
        Err(e) => return Err(e),
    }
    Ok(())
}
