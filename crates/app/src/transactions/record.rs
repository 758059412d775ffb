//! A transaction's rules, in one place: [`TransactionDraft`] is a transaction as any source
//! describes it (a create or update request, an operation of a batch, an import row, and
//! the coming rules and recurring jobs), and [`build_record`] is the one constructor of a
//! stored transaction from it. The JSON bodies only parse shape; every rule of a
//! transaction (amount and its currency's precision, date range, note, tags, category,
//! provider, category type) is checked here.

use rust_decimal::Decimal;
use time::Date;

use super::splits::Splits;
use crate::{AppError, AppResult};
use pf_domain::text::{parse_note, NOTE_MAX_LEN};
use pf_domain::time::Timestamp;
use pf_domain::{CategorySource, Currency, Details, Money, Transaction, Violation};
use pf_store::transactions::Refs;

/// At most this many tags per transaction.
pub const MAX_TAGS: usize = 20;
/// Transaction dates lie in these years (as the request schema says); budgets' months too.
pub const YEARS: std::ops::RangeInclusive<i32> = 1900..=2999;
/// What a date or month outside [`YEARS`] is told.
pub const YEARS_MESSAGE: &str = "must be in the years 1900 to 2999";

/// A transaction as a client or job describes it: types hold, rules not yet checked.
#[derive(Debug, Clone, PartialEq)]
pub struct TransactionDraft {
    pub amount: Decimal,
    /// The currency the client named, if any: it must be the wallet's.
    pub currency: Option<String>,
    /// `None`: the rules decide (a create), else the constructor reports it missing.
    pub category_id: Option<u64>,
    pub date: Date,
    pub note: Option<String>,
    pub provider_id: Option<u64>,
    pub tag_ids: Vec<u64>,
    /// How the category was chosen (`user` for a request that names it).
    pub category_source: CategorySource,
    /// A split's parts (see `splits`).
    pub splits: Splits,
}

impl TransactionDraft {
    /// A draft of a transaction with `details` on `date` for `amount`: what a recurring
    /// schedule creates on one of its dates, what a rule's change starts from.
    pub fn of(details: &Details, date: Date, amount: Decimal, source: CategorySource) -> Self {
        Self {
            amount,
            currency: None,
            category_id: Some(details.category_id),
            date,
            note: details.note.clone(),
            provider_id: details.provider_id,
            tag_ids: details.tag_ids.clone(),
            category_source: source,
            // An occurrence whose amount an exception changed is plain.
            splits: match amount == details.amount.amount() {
                true => Splits::of(&details.splits),
                false => Splits::Plain,
            },
        }
    }
}

/// An amount is positive: the category's type gives the direction.
pub fn check_amount(amount: Decimal) -> Result<Decimal, String> {
    if amount <= Decimal::ZERO {
        return Err("must be greater than 0".into());
    }
    Ok(amount)
}

/// An amount in the wallet's currency: no finer than its minor unit, below 10^13.
pub fn check_money(amount: Decimal, currency: Currency) -> Result<Money, String> {
    Money::new(amount, currency).map_err(|e| e.field_message())
}

/// At most [`MAX_TAGS`] tags; duplicates are ignored (the ids come back sorted, once each).
pub fn check_tags(mut ids: Vec<u64>) -> Result<Vec<u64>, String> {
    ids.sort_unstable();
    ids.dedup();
    if ids.len() > MAX_TAGS {
        return Err(format!("must hold at most {MAX_TAGS} tags"));
    }
    Ok(ids)
}

/// The rules of a transaction's own fields (no storage needed), for sources that count
/// tags before they are ids (an import row's tag names).
pub fn check_tag_count(count: usize) -> Result<(), String> {
    if count > MAX_TAGS {
        return Err(format!("must hold at most {MAX_TAGS} tags"));
    }
    Ok(())
}

impl TransactionDraft {
    /// Checks and normalizes the draft's own fields: the amount is positive, the date in
    /// range, the note trimmed and bounded, the tags bounded and each once. Every broken
    /// rule is reported.
    pub fn check(&mut self) -> Vec<Violation> {
        let mut errors = Vec::new();
        if let Err(e) = check_amount(self.amount) {
            errors.push(Violation::new("amount", e));
        }
        if !YEARS.contains(&self.date.year()) {
            errors.push(Violation::new("date", YEARS_MESSAGE));
        }
        match parse_note(self.note.as_deref(), NOTE_MAX_LEN) {
            Ok(note) => self.note = note,
            Err(e) => errors.push(Violation::new("note", e)),
        }
        match check_tags(std::mem::take(&mut self.tag_ids)) {
            Ok(ids) => self.tag_ids = ids,
            Err(e) => errors.push(Violation::new("tagIds", e)),
        }
        super::splits::check_parts(self, &mut errors);
        errors
    }
}

/// Where a new record stands: its id and version, when it was first created (`None`: now)
/// and now.
#[derive(Debug, Clone, Copy)]
pub struct Stamp {
    pub id: u64,
    pub version: u64,
    pub created_at: Option<Timestamp>,
    pub now: Timestamp,
}

/// The one constructor of a stored transaction: checks the draft's own rules, then the
/// draft against what it refers to (the wallet exists and has the named currency, the
/// amount fits the currency, the category, provider and tags exist for this user), and
/// builds the record. Every broken rule is reported.
pub fn build_record(
    user_id: u64,
    mut draft: TransactionDraft,
    refs: &Refs,
    stamp: Stamp,
) -> AppResult<Transaction> {
    let wallet = refs
        .wallet
        .as_ref()
        .ok_or_else(|| AppError::Forbidden("this account no longer exists".into()))?;
    let mut errors = draft.check();
    if let Some(code) = &draft.currency {
        if Currency::from_code(code) != Some(wallet.currency) {
            errors.push(Violation::new(
                "currency",
                format!("must be the wallet's currency, {}", wallet.currency.code()),
            ));
        }
    }
    let amount = check_money(draft.amount, wallet.currency)
        .map_err(|message| errors.push(Violation::new("amount", message)))
        .ok();
    match draft.category_id {
        None => errors.push(Violation::new(
            "categoryId",
            "is required: name a category, add a rule that categorises this transaction, or give its provider a default category",
        )),
        Some(_) if refs.category.is_none() => {
            errors.push(Violation::new("categoryId", "no such category"))
        }
        Some(_) => {}
    }
    if draft.provider_id.is_some() && !refs.provider_found {
        errors.push(Violation::new("providerId", "no such provider"));
    }
    if let Some(message) = missing_tags(&draft.tag_ids, refs) {
        errors.push(Violation::new("tagIds", message));
    }
    let splits = super::splits::build_parts(&draft, refs, wallet.currency, &mut errors);
    // Rules never change a split's categories.
    let source = match splits.is_empty() {
        true => draft.category_source,
        false => CategorySource::User,
    };
    let (Some(category), Some(amount)) = (refs.category.as_ref(), amount) else {
        return Err(AppError::Invalid(errors));
    };
    if !errors.is_empty() {
        return Err(AppError::Invalid(errors));
    }
    Ok(Transaction {
        user_id,
        id: stamp.id,
        date: draft.date,
        details: Details {
            amount,
            note: draft.note,
            category_id: category.id,
            category_type: category.category_type,
            category_global: category.is_global(),
            provider_id: draft.provider_id,
            tag_ids: draft.tag_ids,
            splits,
        },
        category_source: source,
        recurring_id: None,
        version: stamp.version,
        created_at: stamp.created_at.unwrap_or(stamp.now),
        updated_at: stamp.now,
    })
}

/// The refusal of tags the read did not find (`no such tag: 7, 9`), if any.
pub(super) fn missing_tags(tag_ids: &[u64], refs: &Refs) -> Option<String> {
    let missing: Vec<String> = tag_ids
        .iter()
        .filter(|t| !refs.tags_found.contains(t))
        .map(u64::to_string)
        .collect();
    (!missing.is_empty()).then(|| format!("no such tag: {}", missing.join(", ")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::invalid_fields as violations;
    use pf_domain::Category;
    use pf_domain::CategoryType;
    use pf_domain::Wallet;

    fn at(text: &str) -> Timestamp {
        Timestamp::parse(text).unwrap()
    }

    fn input() -> TransactionDraft {
        TransactionDraft {
            amount: Decimal::new(1250, 2),
            currency: None,
            category_id: Some(4),
            date: time::macros::date!(2026 - 11 - 03),
            note: Some("Market".into()),
            provider_id: None,
            tag_ids: vec![],
            category_source: CategorySource::User,
            splits: Splits::Absent,
        }
    }

    fn refs() -> Refs {
        let category = Category {
            id: 4,
            owner: None,
            name: "Groceries".into(),
            icon: "cart".into(),
            color: "#000000".into(),
            category_type: CategoryType::Debit,
            use_count: 0,
            version: 1,
            created_at: at("2026-01-01T00:00:00"),
            updated_at: at("2026-01-01T00:00:00"),
        };
        Refs {
            wallet: Some(Wallet::new_default(7, 1, at("2026-11-01T00:00:00"))),
            category: Some(category),
            ..Default::default()
        }
    }

    #[test]
    fn a_valid_input_becomes_a_record_with_the_categorys_type_and_the_wallets_currency() {
        let r = build_record(
            7,
            input(),
            &refs(),
            Stamp {
                id: 42,
                version: 1,
                created_at: None,
                now: at("2026-11-03T10:00:00"),
            },
        )
        .unwrap();
        assert_eq!((r.user_id, r.id, r.version), (7, 42, 1));
        assert_eq!(r.details.category_type, CategoryType::Debit);
        assert!(r.details.category_global);
        assert_eq!(r.details.amount.currency().code(), "EUR");
        assert_eq!(r.created_at.to_string(), "2026-11-03T10:00:00");
        let stamp = Stamp {
            id: 42,
            version: 2,
            created_at: Some(at("2026-01-01T00:00:00")),
            now: at("2026-11-03T10:00:00"),
        };
        let kept = build_record(7, input(), &refs(), stamp).unwrap();
        assert_eq!(kept.created_at.to_string(), "2026-01-01T00:00:00");
    }

    #[test]
    fn every_broken_reference_and_amount_rule_is_reported_at_once() {
        let mut bad = input();
        bad.amount = Decimal::new(12345, 3);
        bad.currency = Some("USD".into());
        bad.provider_id = Some(9);
        bad.tag_ids = vec![1, 2];
        let mut r = refs();
        r.category = None;
        r.tags_found.insert(1);
        let fields = violations(
            build_record(
                7,
                bad,
                &r,
                Stamp {
                    id: 1,
                    version: 1,
                    created_at: None,
                    now: at("2026-11-03T10:00:00"),
                },
            )
            .unwrap_err(),
        );
        assert_eq!(
            fields,
            ["currency", "amount", "categoryId", "providerId", "tagIds"]
        );
    }

    #[test]
    fn a_deleted_account_cannot_write() {
        let mut r = refs();
        r.wallet = None;
        assert!(matches!(
            build_record(
                7,
                input(),
                &r,
                Stamp {
                    id: 1,
                    version: 1,
                    created_at: None,
                    now: at("2026-11-03T10:00:00")
                }
            ),
            Err(AppError::Forbidden(_))
        ));
    }
}
