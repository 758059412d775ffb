//! A split transaction's parts in its item (and a recurring schedule's): `splits`, a list
//! of maps in order, and for the list filters `splitCategoryIds` and `splitTagIds`, the
//! sets of the parts' categories and tags (absent for a plain transaction: DynamoDB sets
//! may not be empty).

use aws_sdk_dynamodb::types::AttributeValue;
use std::collections::BTreeSet;

use super::get_category_type;
use crate::attr::{get_decimal, get_opt_s, get_u64, get_u64_list, n, s, Item};
use pf_domain::{Currency, Money, Part};

fn number_set(ids: impl IntoIterator<Item = u64>) -> Option<AttributeValue> {
    let ids: BTreeSet<u64> = ids.into_iter().collect();
    (!ids.is_empty()).then(|| AttributeValue::Ns(ids.iter().map(u64::to_string).collect()))
}

/// Adds the parts' attributes to `item` (nothing for no parts).
pub(crate) fn put_splits(item: &mut Item, parts: &[Part]) {
    if parts.is_empty() {
        return;
    }
    let list = parts.iter().map(|p| {
        let mut m = Item::from([
            ("amount".into(), n(p.amount.amount())),
            ("categoryId".into(), n(p.category_id)),
            ("categoryType".into(), s(p.category_type.as_str())),
            (
                "categoryGlobal".into(),
                AttributeValue::Bool(p.category_global),
            ),
        ]);
        if let Some(note) = &p.note {
            m.insert("note".into(), s(note));
        }
        if let Some(tags) = number_set(p.tag_ids.iter().copied()) {
            m.insert("tagIds".into(), tags);
        }
        AttributeValue::M(m)
    });
    item.insert("splits".into(), AttributeValue::L(list.collect()));
    if let Some(c) = number_set(parts.iter().map(|p| p.category_id)) {
        item.insert("splitCategoryIds".into(), c);
    }
    if let Some(t) = number_set(parts.iter().flat_map(|p| p.tag_ids.iter().copied())) {
        item.insert("splitTagIds".into(), t);
    }
}

/// The parts [`put_splits`] stored, in the transaction's `currency`.
pub(crate) fn get_splits(item: &Item, currency: Currency) -> anyhow::Result<Vec<Part>> {
    let Some(AttributeValue::L(list)) = item.get("splits") else {
        return Ok(Vec::new());
    };
    list.iter()
        .map(|v| {
            let m = v
                .as_m()
                .map_err(|_| anyhow::anyhow!("a split part is not a map"))?;
            Ok(Part {
                amount: Money::new(get_decimal(m, "amount")?, currency)?,
                category_id: get_u64(m, "categoryId")?,
                category_type: get_category_type(m)?,
                category_global: matches!(
                    m.get("categoryGlobal"),
                    Some(AttributeValue::Bool(true))
                ),
                note: get_opt_s(m, "note"),
                tag_ids: get_u64_list(m, "tagIds"),
            })
        })
        .collect()
}
