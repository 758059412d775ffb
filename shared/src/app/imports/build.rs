//! Creating the names the rows need (providers, tags, own categories) and building each
//! row's record with `build_record`, the rules of every transaction. Names are created
//! one after the other (they move the same per-user counters) until the deadline: a row
//! whose names could not be created in time is a "repeat the import" error, and the
//! repetition finds the names made so far.

use std::collections::hash_map::Entry;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::time::Instant;

use super::names::{fold, Names};
use super::write::Record;
use super::{CategoryRef, NameRef, Planned, RowError, REPEAT_MESSAGE};
use crate::app::categories;
use crate::app::named::Named;
use crate::app::transactions::{build_record, Stamp, TransactionDraft};
use crate::app::{AppError, AppResult};
use crate::domain::time::Timestamp;
use crate::domain::{Category, CategoryType};
use crate::store::named::Kind;
use crate::store::transactions::Refs;
use crate::store::Store;

/// What the import knows by name: the caller's names and those it created.
struct Made {
    providers: HashMap<String, u64>,
    tags: HashMap<String, u64>,
    categories: HashMap<(String, CategoryType), Category>,
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
    };
    for p in rows {
        if Instant::now() >= deadline {
            break;
        }
        if let CategoryRef::New {
            name,
            category_type,
        } = &p.category
        {
            let key = (fold(name), *category_type);
            if let Entry::Vacant(slot) = made.categories.entry(key) {
                let fields = categories::parse_fields(name, None, None, *category_type)?;
                slot.insert(categories::create(store, user_id, fields, false).await?);
            }
        }
        if let Some(NameRef::New(name)) = &p.provider {
            create_named(store, user_id, Kind::Provider, name, &mut made.providers).await?;
        }
        for t in &p.tags {
            if let NameRef::New(name) = t {
                create_named(store, user_id, Kind::Tag, name, &mut made.tags).await?;
            }
        }
    }
    Ok(made)
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
        let (Some(category), Some(provider_id), Some(mut tag_ids)) = (
            category,
            provider_id.map_or(Some(None), |id| id.map(Some)),
            tag_ids,
        ) else {
            // A name the deadline left uncreated.
            errors.push(RowError::new(p.row, "row", REPEAT_MESSAGE));
            continue;
        };
        tag_ids.sort_unstable();
        tag_ids.dedup();
        let refs = Refs {
            wallet: Some(names.wallet.clone()),
            category: Some(category.clone()),
            provider_found: true,
            tags_found: tag_ids.iter().copied().collect::<BTreeSet<_>>(),
            ..Default::default()
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
