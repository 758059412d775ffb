//! Checking rows against the caller's names, and giving each its import id.

use std::collections::{HashMap, HashSet};

use rust_decimal::Decimal;
use time::Date;

use super::{ImportRow, NameRef, ParsedFile, Planned, RowError, IMPORT_ID_MAX_LEN};
use crate::app::transactions::check_tag_count;
use crate::app::{AppError, AppResult};
use crate::domain::text::{parse_name, parse_note, NAME_MAX_LEN, NOTE_MAX_LEN};
use crate::domain::time::format_date;
use crate::domain::{Category, CategoryType, Wallet};
use crate::store::named::{Kind, NamedRecord};
use crate::store::Store;

/// Case-insensitive lookup key of a name.
pub(super) fn fold(name: &str) -> String {
    name.trim().to_lowercase()
}

/// The caller's names, resolved once per import.
pub(super) struct Names {
    pub(super) wallet: Wallet,
    /// Own categories first, so an own name shadows a global one.
    pub(super) categories: HashMap<String, Category>,
    pub(super) by_id: HashMap<u64, Category>,
    pub(super) providers: HashMap<String, u64>,
    pub(super) tags: HashMap<String, u64>,
}

impl Names {
    pub(super) async fn load(store: &Store, user_id: u64) -> AppResult<Self> {
        let (wallet, categories, providers, tags) = tokio::try_join!(
            async { Ok::<_, AppError>(store.get_wallet(user_id).await?) },
            crate::app::categories::list(store, user_id, None),
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
                    "no category named {} and no defaultCategoryId",
                    quoted(name)
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
            Err(m) => errors.push(RowError::new(n, "tags", format!("{}: {m}", quoted(raw)))),
        }
    }
    if let Err(m) = check_tag_count(tags.len()) {
        errors.push(RowError::new(n, "tags", m));
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
pub(super) fn plan(
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::time::Timestamp;
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
            version: 1,
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
    fn quoted_names_are_bounded() {
        assert_eq!(quoted(" Rent "), "\"Rent\"");
        let long = "é".repeat(5000);
        assert_eq!(quoted(&long).chars().count(), 43);
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
