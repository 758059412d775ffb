//! Checking rows against the caller's names, choosing each row's category, and giving
//! each its import id.

use std::collections::{HashMap, HashSet};

use rust_decimal::Decimal;
use sha2::Digest;
use time::Date;

use super::names::{fold, Names};
use super::{CategoryRef, ImportRow, NameRef, ParsedFile, Planned, RowError, IMPORT_ID_MAX_LEN};
use crate::ruleset::Ruleset;
use crate::transactions::{check_money, check_tag_count, MAX_TAGS};
use pf_domain::text::{parse_name, parse_note, NAME_MAX_LEN, NOTE_MAX_LEN};
use pf_domain::time::format_date;
use pf_domain::{Category, CategorySource, CategoryType};

// The service's own CSV export imports back: its largest cell (every tag of a transaction,
// each a name of four-byte characters, joined with `;`, behind a formula guard's `'`) fits in
// the cell a file may hold.
const _: () = assert!(MAX_TAGS * (NAME_MAX_LEN * 4 + 1) < bankfile::MAX_CELL_BYTES);

/// A name from the file as an error message quotes it: at most 40 characters, so that
/// thousands of row errors still make a response far below Lambda's 6 MB.
fn quoted(name: &str) -> String {
    let name = name.trim();
    match name.char_indices().nth(40) {
        Some((cut, _)) => format!("{:?}…", &name[..cut]),
        None => format!("{name:?}"),
    }
}

/// `<signed amount>:<date>:<occurrence>` for rows without an import id.
fn derived_id(amount: Decimal, date: Date, occurrence: usize) -> String {
    format!("{}:{}:{occurrence}", amount.normalize(), format_date(date))
}

/// A row's import id: as the file gives it, or, when longer than [`IMPORT_ID_MAX_LEN`]
/// characters (a bank's 255-character OFX `FITID` behind an IBAN), `sha256:` and the
/// SHA-256 of it in hex: the same bank id always gives the same import id, so the
/// dedupe still holds, and the marker's key stays short.
fn import_id(id: &str) -> Result<String, String> {
    if id.is_empty() {
        return Err(format!("must be 1 to {IMPORT_ID_MAX_LEN} characters"));
    }
    if id.chars().any(char::is_control) {
        return Err("must not contain control characters".into());
    }
    if id.chars().count() <= IMPORT_ID_MAX_LEN {
        return Ok(id.to_owned());
    }
    let digest = sha2::Sha256::digest(id.as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    Ok(format!("sha256:{hex}"))
}

/// The category of a row that names none, and whether it is a seeded `Uncategorized`.
///
/// This is where the rules of the coming rules issue plug in (they see the row and come
/// first). Today: the caller's `defaultCategoryId` when its type fits the row's sign,
/// else the seeded global `Uncategorized` of the row's type.
pub(super) fn category_of_unnamed_row<'a>(
    _row: &ImportRow,
    category_type: CategoryType,
    default_category: Option<&'a Category>,
    names: &'a Names,
) -> Result<(&'a Category, bool), String> {
    if let Some(c) = default_category.filter(|c| c.category_type == category_type) {
        return Ok((c, false));
    }
    names
        .uncategorized(category_type)
        .map(|c| (c, true))
        .ok_or_else(|| "names no category and no Uncategorized category is seeded".into())
}

/// The category of a row: the one the file names (of the row's type), else the one
/// [`category_of_unnamed_row`] gives.
fn category_of(
    row: &ImportRow,
    category_type: CategoryType,
    names: &Names,
    default_category: Option<&Category>,
) -> Result<(CategoryRef, bool), String> {
    match row.category.as_deref().map(str::trim) {
        Some(raw) if !raw.is_empty() => parse_name(raw, NAME_MAX_LEN)
            .map(|name| (names.category_ref(name, category_type), false))
            .map_err(|m| format!("{}: {m}", quoted(raw))),
        _ => category_of_unnamed_row(row, category_type, default_category, names)
            .map(|(c, uncategorized)| (CategoryRef::Known(c.clone()), uncategorized)),
    }
}

/// What the caller's rules make of a row: a category of the row's type (it wins over one
/// the file names), a provider, tags to add, a note for a row without one.
struct RuleEffect {
    category: Option<Category>,
    provider: Option<u64>,
    tags: Vec<u64>,
    note: Option<String>,
}

fn rules_on(row: &ImportRow, kind: CategoryType, rules: &Ruleset, names: &Names) -> RuleEffect {
    // The rules see the payee and note as the transaction will keep them (trimmed).
    let subject = rules::Subject {
        payee: row.payee.as_deref().map(str::trim),
        note: row.note.as_deref().map(str::trim),
        amount: Some(row.amount.abs()),
        kind: Some(crate::ruleset::kind_of(kind)),
    };
    let o = rules.evaluate(&subject);
    RuleEffect {
        category: o
            .actions
            .category_id
            .and_then(|id| names.by_id.get(&id))
            .filter(|c| c.category_type == kind)
            .cloned(),
        provider: o.actions.provider_id,
        tags: o.actions.tag_ids,
        note: o.actions.note,
    }
}

/// Checks one row against the caller's names and rules; every broken rule is reported.
fn plan_row(
    row: ImportRow,
    import_id: String,
    names: &Names,
    default_category: Option<&Category>,
    rules: Option<&Ruleset>,
) -> Result<Planned, Vec<RowError>> {
    let n = row.row;
    let mut errors = Vec::new();
    // What the write would refuse, the dry run reports too: the currency's decimals.
    if let Err(m) = check_money(row.amount.abs(), names.wallet.currency) {
        errors.push(RowError::new(n, "amount", m));
    }
    let category_type = if row.amount.is_zero() {
        errors.push(RowError::new(n, "amount", "must not be 0"));
        None
    } else if row.amount < Decimal::ZERO {
        Some(CategoryType::Debit)
    } else {
        Some(CategoryType::Credit)
    };
    let effect = match (category_type, rules) {
        (Some(t), Some(r)) if !r.is_empty() => Some(rules_on(&row, t, r, names)),
        _ => None,
    };
    // Rules never change a split's categories.
    let by_rule = effect
        .as_ref()
        .and_then(|e| e.category.clone())
        .filter(|_| row.splits.is_empty());
    let parts = match category_type {
        Some(t) if !row.splits.is_empty() => {
            parts::plan_parts(&row, t, names, default_category, &mut errors)
        }
        _ => Vec::new(),
    };
    let category = match (&by_rule, category_type) {
        _ if !parts.is_empty() => parts.first().map(|p| (p.category.clone(), false)),
        (Some(c), _) => Some((CategoryRef::Known(c.clone()), false)),
        (None, Some(t)) => category_of(&row, t, names, default_category)
            .map_err(|m| errors.push(RowError::new(n, "category", m)))
            .ok(),
        (None, None) => None,
    };
    let note = parse_note(row.note.as_deref(), NOTE_MAX_LEN)
        .map_err(|m| errors.push(RowError::new(n, "note", m)))
        .ok()
        .flatten()
        .or_else(|| effect.as_ref().and_then(|e| e.note.clone()));
    let provider = match row.payee.as_deref().map(str::trim) {
        _ if effect.as_ref().is_some_and(|e| e.provider.is_some()) => {
            effect.as_ref().and_then(|e| e.provider).map(NameRef::Known)
        }
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
            Err(m) => errors.push(RowError::new(n, "tags", format!("{}: {m}", quoted(raw)))),
        }
    }
    // The file's own tags are bounded; the rules' are added as far as they fit.
    if let Err(m) = check_tag_count(tags.len()) {
        errors.push(RowError::new(n, "tags", m));
    }
    for id in effect.as_ref().map_or(&[][..], |e| &e.tags) {
        if !tags.contains(&NameRef::Known(*id)) && tags.len() < MAX_TAGS {
            tags.push(NameRef::Known(*id));
        }
    }
    let category_source = match row.category.as_deref().map(str::trim) {
        _ if by_rule.is_some() => CategorySource::Rule,
        _ if !parts.is_empty() => CategorySource::File,
        Some(name) if !name.is_empty() => CategorySource::File,
        _ => CategorySource::Default,
    };
    match category {
        Some((category, uncategorized)) if errors.is_empty() => Ok(Planned {
            row: n,
            import_id,
            amount: row.amount.abs(),
            category,
            uncategorized,
            category_source,
            date: row.date,
            note,
            provider,
            tags,
            splits: parts,
        }),
        _ => Err(errors),
    }
}

/// Checks every row and gives each its import id; rows that break a rule become errors.
/// The caller's rules (when given) run on every row before its fallback category, except
/// on the rows of this app's own export (`txn:<id>`).
pub(super) fn plan(
    file: ParsedFile,
    names: &Names,
    default_category: Option<&Category>,
    rules: Option<&Ruleset>,
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
        let given = match row.import_id.as_deref().map(str::trim) {
            Some(id) if !id.is_empty() => id.to_owned(),
            _ => derived_id(row.amount, row.date, *seen),
        };
        let id = match import_id(&given) {
            Ok(id) => id,
            Err(m) => {
                errors.push(RowError::new(row.row, "importId", m));
                continue;
            }
        };
        if !ids.insert(id.clone()) {
            errors.push(RowError::new(
                row.row,
                "importId",
                "is used by an earlier row of this file",
            ));
            continue;
        }
        // A row of this app's own export is restored as it was: its category, provider,
        // tags and note are what the user kept, rules included, so rules do not run again,
        // and `/apply` leaves its category alone (the export does not say who chose it).
        let own_export = pf_store::imports::exported_txn(&id).is_some();
        let rules = rules.filter(|_| !own_export);
        match plan_row(row, id, names, default_category, rules) {
            Ok(mut p) => {
                if own_export && p.category_source == CategorySource::File {
                    p.category_source = CategorySource::User;
                }
                planned.push(p)
            }
            Err(e) => errors.extend(e),
        }
    }
    errors.sort_by_key(|e| e.row);
    (planned, errors)
}

mod parts;
#[cfg(test)]
mod tests;
