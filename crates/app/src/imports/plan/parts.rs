//! A split row's parts (QIF split lines, issue 52), planned like a row's own category:
//! each part's category name is matched among the caller's categories of the row's type,
//! or created; a part without one goes where an unnamed row would. A part must be signed
//! like the row (a split's parts are all of its direction), fit the wallet's currency,
//! and the parts must add up to the row's amount; each broken rule is the row's error,
//! naming the part by index (`splits[1].amount`).

use rust_decimal::Decimal;

use super::{category_of_unnamed_row, quoted};
use crate::imports::names::Names;
use crate::imports::{CategoryRef, ImportRow, PlannedPart, RowError};
use crate::transactions::check_money;
use pf_domain::split::MAX_PARTS;
use pf_domain::text::{parse_name, parse_note, NAME_MAX_LEN, NOTE_MAX_LEN};
use pf_domain::{Category, CategoryType};

pub(super) fn plan_parts(
    row: &ImportRow,
    kind: CategoryType,
    names: &Names,
    default_category: Option<&Category>,
    errors: &mut Vec<RowError>,
) -> Vec<PlannedPart> {
    let n = row.row;
    let before = errors.len();
    if row.splits.len() > MAX_PARTS {
        let message = format!("has {} parts; at most {MAX_PARTS}", row.splits.len());
        errors.push(RowError::new(n, "splits", message));
        return Vec::new();
    }
    let mut parts = Vec::with_capacity(row.splits.len());
    let mut sum = Decimal::ZERO;
    for (i, p) in row.splits.iter().enumerate() {
        let field = |f: &str| format!("splits[{i}].{f}");
        if p.amount.is_zero() || p.amount.is_sign_negative() != row.amount.is_sign_negative() {
            let message = format!(
                "{} must be signed like the row's amount {}",
                p.amount, row.amount
            );
            errors.push(RowError::new(n, &field("amount"), message));
        } else if let Err(m) = check_money(p.amount.abs(), names.wallet.currency) {
            errors.push(RowError::new(n, &field("amount"), m));
        }
        sum += p.amount;
        let category = match p.category.as_deref().map(str::trim) {
            Some(raw) if !raw.is_empty() => parse_name(raw, NAME_MAX_LEN)
                .map(|name| names.category_ref(name, kind))
                .map_err(|m| format!("{}: {m}", quoted(raw))),
            _ => category_of_unnamed_row(row, kind, default_category, names)
                .map(|(c, _)| CategoryRef::Known(c.clone())),
        };
        let note = parse_note(p.note.as_deref(), NOTE_MAX_LEN);
        match (category, note) {
            (Ok(category), Ok(note)) => parts.push(PlannedPart {
                amount: p.amount.abs(),
                category,
                note,
            }),
            (category, note) => {
                if let Err(m) = category {
                    errors.push(RowError::new(n, &field("category"), m));
                }
                if let Err(m) = note {
                    errors.push(RowError::new(n, &field("note"), m));
                }
            }
        }
    }
    if errors.len() == before && sum != row.amount {
        let message = format!(
            "the parts add up to {sum}, not to the row's amount {}",
            row.amount
        );
        errors.push(RowError::new(n, "splits", message));
    }
    match errors.len() == before {
        true => parts,
        false => Vec::new(),
    }
}
