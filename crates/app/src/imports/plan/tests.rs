use std::collections::HashMap;

use rust_decimal::Decimal;
use time::macros::date;

use super::*;
use crate::imports::NameRef;
use pf_domain::time::Timestamp;
use pf_domain::Wallet;
use pf_store::categories::{UNCATEGORIZED_CREDIT, UNCATEGORIZED_DEBIT};

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
    let cats = vec![
        category(1, None, "Groceries", CategoryType::Debit),
        category(2, None, "Salary", CategoryType::Credit),
        category(9, Some(7), "groceries", CategoryType::Debit),
        category(
            UNCATEGORIZED_DEBIT,
            None,
            "Uncategorized",
            CategoryType::Debit,
        ),
        category(
            UNCATEGORIZED_CREDIT,
            None,
            "Uncategorized",
            CategoryType::Credit,
        ),
        category(20, Some(7), "Gifts", CategoryType::Credit),
    ];
    Names::new(
        Wallet::new_default(7, 1, at),
        cats,
        HashMap::from([("acme".into(), 5)]),
        HashMap::from([("weekly".into(), 6)]),
    )
}

fn row(n: usize, amount: i64, category: &str) -> ImportRow {
    ImportRow {
        row: n,
        date: date!(2026 - 11 - 03),
        amount: Decimal::new(amount, 2),
        category: Some(category.into()).filter(|c: &String| !c.is_empty()),
        note: None,
        payee: None,
        tags: vec![],
        import_id: None,
        splits: Vec::new(),
    }
}

fn file(rows: Vec<ImportRow>) -> ParsedFile {
    ParsedFile {
        rows: rows.len(),
        parsed: rows,
        ..Default::default()
    }
}

fn known_id(p: &Planned) -> Option<u64> {
    match &p.category {
        CategoryRef::Known(c) => Some(c.id),
        CategoryRef::New { .. } => None,
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
    let rows = vec![
        row(1, -1250, "Groceries"),
        row(2, -1250, "groceries"),
        row(3, 500, "Salary"),
    ];
    let (planned, errors) = plan(file(rows), &names(), None, None);
    assert!(errors.is_empty(), "{errors:?}");
    let ids: Vec<_> = planned.iter().map(|p| p.import_id.as_str()).collect();
    assert_eq!(
        ids,
        ["-12.5:2026-11-03:1", "-12.5:2026-11-03:2", "5:2026-11-03:1"]
    );
    assert_eq!(
        known_id(&planned[0]),
        Some(9),
        "an own category shadows a global one"
    );
    assert_eq!(planned[0].amount, Decimal::new(1250, 2));
}

#[test]
fn a_named_category_of_another_type_or_unknown_is_created_as_an_own_one() {
    let rows = vec![
        row(1, 1250, "Groceries"),
        row(2, -100, "Rent"),
        row(3, 0, "Salary"),
    ];
    let (planned, errors) = plan(file(rows), &names(), None, None);
    let fields: Vec<_> = errors.iter().map(|e| (e.row, e.field.as_str())).collect();
    assert_eq!(fields, [(3, "amount")]);
    assert_eq!(
        planned[0].category,
        CategoryRef::New {
            name: "Groceries".into(),
            category_type: CategoryType::Credit
        }
    );
    assert_eq!(
        planned[1].category,
        CategoryRef::New {
            name: "Rent".into(),
            category_type: CategoryType::Debit
        }
    );
    assert!(!planned[0].uncategorized);
}

#[test]
fn rows_without_a_category_take_the_default_of_their_type_else_uncategorized() {
    let n = names();
    let gifts = n.by_id.get(&20);
    let (planned, errors) = plan(
        file(vec![row(1, 100, ""), row(2, -100, "")]),
        &n,
        gifts,
        None,
    );
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(known_id(&planned[0]), Some(20));
    assert!(!planned[0].uncategorized);
    assert_eq!(
        known_id(&planned[1]),
        Some(UNCATEGORIZED_DEBIT),
        "a default of the other type falls through"
    );
    assert!(planned[1].uncategorized);
    let (planned, _) = plan(file(vec![row(1, 100, " ")]), &n, None, None);
    assert_eq!(known_id(&planned[0]), Some(UNCATEGORIZED_CREDIT));
}

#[test]
fn unknown_names_are_to_be_created_and_a_repeated_import_id_is_an_error() {
    let mut a = row(1, -100, "Groceries");
    a.payee = Some("ACME".into());
    a.tags = vec!["Weekly".into(), "new".into(), "weekly".into()];
    a.import_id = Some("x".into());
    let mut b = row(2, -200, "Groceries");
    b.import_id = Some("x".into());
    let (planned, errors) = plan(file(vec![a, b]), &names(), None, None);
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
