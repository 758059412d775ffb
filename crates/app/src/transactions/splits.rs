//! A split transaction's rules (issue 52): 2 to 50 parts, each positive, adding up exactly
//! to the transaction's amount, each in a category visible to the caller, all of one type
//! (the transaction's, which is the first part's); the transaction's `categoryId` is the
//! first part's; each part's note and tags are bounded as a transaction's; at most
//! [`MAX_SPLIT_REFS`] distinct categories, tags and providers. A violation of a part names
//! it by index (`splits[2].categoryId`).

use std::collections::BTreeSet;

use rust_decimal::Decimal;

use super::record::{check_amount, check_money, check_tags, TransactionDraft};
use crate::{AppError, AppResult};
use pf_domain::split::{MAX_PARTS, MAX_SPLIT_REFS, MIN_PARTS};
use pf_domain::text::{parse_note, NOTE_MAX_LEN};
use pf_domain::{CategoryType, Currency, Details, Part, Transaction, Violation};
use pf_store::transactions::Refs;

/// One part as a client describes it.
#[derive(Debug, Clone, PartialEq)]
pub struct PartDraft {
    pub amount: Decimal,
    pub category_id: u64,
    pub note: Option<String>,
    pub tag_ids: Vec<u64>,
}

/// What a draft says of splits: nothing (`Absent`: a create makes a plain transaction, an
/// update keeps the parts when it keeps the amount and category), `"splits": null`
/// (`Plain`), or the parts.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Splits {
    #[default]
    Absent,
    Plain,
    Parts(Vec<PartDraft>),
}

impl Splits {
    /// The parts, if any.
    pub fn parts(&self) -> &[PartDraft] {
        match self {
            Splits::Parts(p) => p,
            _ => &[],
        }
    }

    /// The drafts of stored parts (a recurring schedule's, a rule's starting point).
    pub fn of(parts: &[Part]) -> Self {
        if parts.is_empty() {
            return Splits::Plain;
        }
        Splits::Parts(
            parts
                .iter()
                .map(|p| PartDraft {
                    amount: p.amount.amount(),
                    category_id: p.category_id,
                    note: p.note.clone(),
                    tag_ids: p.tag_ids.clone(),
                })
                .collect(),
        )
    }
}

fn at(i: usize, field: &str) -> String {
    format!("splits[{i}].{field}")
}

/// The parts' own rules (no storage needed), normalizing notes and tags; a split's
/// `categoryId` is its first part's (set when omitted).
pub(super) fn check_parts(draft: &mut TransactionDraft, errors: &mut Vec<Violation>) {
    let Splits::Parts(parts) = &mut draft.splits else {
        return;
    };
    if !(MIN_PARTS..=MAX_PARTS).contains(&parts.len()) {
        let message = format!("must hold {MIN_PARTS} to {MAX_PARTS} parts");
        errors.push(Violation::new("splits", message));
        return;
    }
    let first = parts[0].category_id;
    match draft.category_id {
        None => draft.category_id = Some(first),
        Some(c) if c != first => errors.push(Violation::new(
            "categoryId",
            format!("must be the first part's category ({first}) or be omitted"),
        )),
        Some(_) => {}
    }
    let mut sum = Decimal::ZERO;
    for (i, p) in parts.iter_mut().enumerate() {
        match check_amount(p.amount) {
            Ok(a) => sum += a,
            Err(e) => errors.push(Violation::new(at(i, "amount"), e)),
        }
        match parse_note(p.note.as_deref(), NOTE_MAX_LEN) {
            Ok(note) => p.note = note,
            Err(e) => errors.push(Violation::new(at(i, "note"), e)),
        }
        match check_tags(std::mem::take(&mut p.tag_ids)) {
            Ok(ids) => p.tag_ids = ids,
            Err(e) => errors.push(Violation::new(at(i, "tagIds"), e)),
        }
    }
    if errors.is_empty() && sum != draft.amount {
        let diff = (draft.amount - sum).abs();
        let side = if sum < draft.amount { "less" } else { "more" };
        errors.push(Violation::new(
            "splits",
            format!(
                "the parts add up to {sum}, {diff} {side} than the amount {}; they must add up to it exactly",
                draft.amount
            ),
        ));
    }
    let references = draft_references(draft);
    if references > MAX_SPLIT_REFS {
        errors.push(too_many_references(references));
    }
}

/// The 400 of a split naming more than [`MAX_SPLIT_REFS`] categories, tags and providers.
pub(super) fn too_many_references(count: usize) -> Violation {
    Violation::new(
        "splits",
        format!("names {count} distinct categories, tags and providers; at most {MAX_SPLIT_REFS}"),
    )
}

fn draft_references(draft: &TransactionDraft) -> usize {
    let parts = draft.splits.parts();
    let categories = parts.iter().map(|p| (0u8, p.category_id));
    let tags = draft
        .tag_ids
        .iter()
        .chain(parts.iter().flat_map(|p| p.tag_ids.iter()))
        .map(|t| (1u8, *t));
    let provider = draft.provider_id.map(|p| (2u8, p));
    let all: BTreeSet<(u8, u64)> = categories.chain(tags).chain(provider).collect();
    all.len()
}

/// The stored parts of a draft checked against what it refers to: each part's category
/// exists for the caller and has the first part's type, its tags exist, its amount fits
/// the wallet's currency.
pub(super) fn build_parts(
    draft: &TransactionDraft,
    refs: &Refs,
    currency: Currency,
    errors: &mut Vec<Violation>,
) -> Vec<Part> {
    let parts = draft.splits.parts();
    let first_type: Option<CategoryType> = parts
        .first()
        .and_then(|p| refs.part_categories.get(&p.category_id))
        .map(|c| c.category_type);
    let mut built = Vec::new();
    for (i, p) in parts.iter().enumerate() {
        let amount = check_money(p.amount, currency)
            .map_err(|m| errors.push(Violation::new(at(i, "amount"), m)))
            .ok();
        let category = refs.part_categories.get(&p.category_id);
        match (category, first_type) {
            (None, _) => errors.push(Violation::new(at(i, "categoryId"), "no such category")),
            (Some(c), Some(t)) if c.category_type != t => errors.push(Violation::new(
                at(i, "categoryId"),
                format!(
                    "is a {} category; every part's must be {} like the transaction's",
                    c.category_type.as_str(),
                    t.as_str()
                ),
            )),
            _ => {}
        }
        if let Some(message) = super::record::missing_tags(&p.tag_ids, refs) {
            errors.push(Violation::new(at(i, "tagIds"), message));
        }
        if let (Some(amount), Some(c)) = (amount, category) {
            built.push(Part {
                amount,
                category_id: c.id,
                category_type: c.category_type,
                category_global: c.is_global(),
                note: p.note.clone(),
                tag_ids: p.tag_ids.clone(),
            });
        }
    }
    built
}

/// On a `PUT`: the distinct categories, tags and providers named before and after, when
/// either is a split, stay within [`MAX_SPLIT_REFS`].
pub(super) fn check_replaced(old: &Details, new: &Details) -> Result<(), Violation> {
    if !old.is_split() && !new.is_split() {
        return Ok(());
    }
    let count = old.references().union(&new.references()).count();
    if count > MAX_SPLIT_REFS {
        return Err(too_many_references(count));
    }
    Ok(())
}

/// A `PUT` without `splits` keeps the parts of a split when it keeps its amount and
/// category (a client that knows nothing of splits must not destroy one); the categories,
/// tags and providers named before and after stay within the split limit.
pub(super) fn keep_parts(
    input: &TransactionDraft,
    old: &Transaction,
    new: &mut Transaction,
) -> AppResult<()> {
    let (o, n) = (&old.details, &mut new.details);
    let same = o.amount == n.amount && o.category_id == n.category_id;
    if input.splits == Splits::Absent && o.is_split() && same {
        n.splits = o.splits.clone();
        n.category_global = o.category_global;
        new.category_source = old.category_source;
    }
    check_replaced(&old.details, &new.details).map_err(|v| AppError::Invalid(vec![v]))
}
