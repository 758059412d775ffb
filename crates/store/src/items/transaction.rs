//! A transaction's item: `PK = USER#<id>`, `SK = TXN#<id>`, `LSI1SK = TXN#<date>#<id>`
//! (the date-ordered index), and its fields; `noteLc` is the lower-cased note that `q`
//! searches.

use crate::FromItem;
use aws_sdk_dynamodb::types::AttributeValue;

use super::{get_category_type, get_currency, get_owner, get_times, stamps};
use crate::attr::{get_decimal, get_opt_s, get_opt_u64, get_s, get_u64, get_u64_list, n, s, Item};
use crate::keys::{txn_lsi, txn_sk, user_pk};
use pf_domain::time::{format_date, parse_date};
use pf_domain::{CategorySource, Details, Money, Transaction};

/// The item of a transaction.
pub fn to_item(t: &Transaction) -> Item {
    let date = format_date(t.date);
    let mut item = Item::from([
        ("PK".into(), s(user_pk(t.user_id))),
        ("SK".into(), s(txn_sk(t.id))),
        ("LSI1SK".into(), s(txn_lsi(&date, t.id))),
        ("id".into(), n(t.id)),
        ("date".into(), s(date)),
    ]);
    put_details(&mut item, &t.details);
    item.extend(stamps(t.version, t.created_at, t.updated_at));
    // Absent means `user`: every transaction stored before sources existed was a user's.
    if let Some(r) = t.recurring_id {
        item.insert("recurringId".into(), n(r));
    }
    if t.category_source != CategorySource::User {
        item.insert("categorySource".into(), s(t.category_source.as_str()));
    }
    if let Some(note) = &t.details.note {
        // Lower-cased copy for case-insensitive `q` search.
        item.insert("noteLc".into(), s(note.to_lowercase()));
    }
    item
}

/// The attributes of a transaction's [`Details`], which a recurring schedule's item
/// stores the same way.
pub(crate) fn put_details(item: &mut Item, d: &Details) {
    item.extend([
        ("amount".into(), n(d.amount.amount())),
        ("currencyCode".into(), s(d.amount.currency().code())),
        ("categoryId".into(), n(d.category_id)),
        ("categoryType".into(), s(d.category_type.as_str())),
        (
            "categoryGlobal".into(),
            AttributeValue::Bool(d.category_global),
        ),
    ]);
    if let Some(note) = &d.note {
        item.insert("note".into(), s(note));
    }
    if let Some(p) = d.provider_id {
        item.insert("providerId".into(), n(p));
    }
    if !d.tag_ids.is_empty() {
        // Sets may not be empty in DynamoDB, so no tags means no attribute.
        item.insert(
            "tagIds".into(),
            AttributeValue::Ns(d.tag_ids.iter().map(u64::to_string).collect()),
        );
    }
    super::split::put_splits(item, &d.splits);
}

/// The [`Details`] that [`put_details`] stored.
pub(crate) fn get_details(item: &Item) -> anyhow::Result<Details> {
    let currency = get_currency(item)?;
    Ok(Details {
        amount: Money::new(get_decimal(item, "amount")?, currency)?,
        note: get_opt_s(item, "note"),
        category_id: get_u64(item, "categoryId")?,
        category_type: get_category_type(item)?,
        category_global: matches!(item.get("categoryGlobal"), Some(AttributeValue::Bool(true))),
        provider_id: get_opt_u64(item, "providerId"),
        tag_ids: get_u64_list(item, "tagIds"),
        splits: super::split::get_splits(item, currency)?,
    })
}

impl FromItem for Transaction {
    fn from_item(item: &Item) -> anyhow::Result<Self> {
        let details = get_details(item)?;
        let (created_at, updated_at) = get_times(item)?;
        Ok(Self {
            user_id: get_owner(item, "transaction")?,
            id: get_u64(item, "id")?,
            date: parse_date(get_s(item, "date")?).map_err(anyhow::Error::msg)?,
            details,
            recurring_id: get_opt_u64(item, "recurringId"),
            category_source: get_opt_s(item, "categorySource")
                .and_then(|v| CategorySource::parse(&v))
                .unwrap_or_default(),
            version: get_u64(item, "version")?,
            created_at,
            updated_at,
        })
    }
}
