//! A transaction as a client describes it, and the record built from it once its
//! references, currency and amount are checked.

use rust_decimal::Decimal;
use time::Date;

use crate::app::{AppError, AppResult};
use crate::domain::time::Timestamp;
use crate::domain::{Currency, Money, MoneyError, Violation};
use crate::store::transactions::{Refs, Transaction};

/// A transaction as a client describes it (already parsed: types and bounds hold).
#[derive(Debug, Clone, PartialEq)]
pub struct TransactionInput {
    pub amount: Decimal,
    /// The currency the client named, if any: it must be the wallet's.
    pub currency: Option<String>,
    pub category_id: u64,
    pub date: Date,
    pub note: Option<String>,
    pub provider_id: Option<u64>,
    pub tag_ids: Vec<u64>,
}

/// Checks the input against what it refers to and builds the record to store: the wallet
/// exists and has the named currency, the amount fits the currency, and the category,
/// provider and tags exist for this user. Every broken rule is reported.
pub fn build_record(
    user_id: u64,
    input: TransactionInput,
    refs: &Refs,
    id: u64,
    version: u64,
    created_at: Option<Timestamp>,
    now: Timestamp,
) -> AppResult<Transaction> {
    let wallet = refs
        .wallet
        .as_ref()
        .ok_or_else(|| AppError::Forbidden("this account no longer exists".into()))?;
    let mut errors = Vec::new();
    if let Some(code) = &input.currency {
        if Currency::from_code(code) != Some(wallet.currency) {
            errors.push(Violation::new(
                "currency",
                format!("must be the wallet's currency, {}", wallet.currency.code()),
            ));
        }
    }
    let amount = match Money::new(input.amount, wallet.currency) {
        Ok(money) => Some(money),
        Err(MoneyError::TooManyDecimals { code, allowed }) => {
            let message = format!("{code} amounts have at most {allowed} decimals");
            errors.push(Violation::new("amount", message));
            None
        }
        Err(_) => {
            errors.push(Violation::new("amount", "must be below 10^13"));
            None
        }
    };
    if refs.category.is_none() {
        errors.push(Violation::new("categoryId", "no such category"));
    }
    if input.provider_id.is_some() && !refs.provider_found {
        errors.push(Violation::new("providerId", "no such provider"));
    }
    let missing: Vec<String> = input
        .tag_ids
        .iter()
        .filter(|t| !refs.tags_found.contains(t))
        .map(u64::to_string)
        .collect();
    if !missing.is_empty() {
        errors.push(Violation::new(
            "tagIds",
            format!("no such tag: {}", missing.join(", ")),
        ));
    }
    let (Some(category), Some(amount)) = (refs.category.as_ref(), amount) else {
        return Err(AppError::Invalid(errors));
    };
    if !errors.is_empty() {
        return Err(AppError::Invalid(errors));
    }
    Ok(Transaction {
        user_id,
        id,
        amount,
        date: input.date,
        note: input.note,
        category_id: category.id,
        category_type: category.category_type,
        category_global: category.is_global(),
        provider_id: input.provider_id,
        tag_ids: input.tag_ids,
        version,
        created_at: created_at.unwrap_or(now),
        updated_at: now,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::invalid_fields as violations;
    use crate::domain::CategoryType;
    use crate::store::categories::Category;
    use crate::store::wallet::Wallet;

    fn at(text: &str) -> Timestamp {
        Timestamp::parse(text).unwrap()
    }

    fn input() -> TransactionInput {
        TransactionInput {
            amount: Decimal::new(1250, 2),
            currency: None,
            category_id: 4,
            date: time::macros::date!(2026 - 11 - 03),
            note: Some("Market".into()),
            provider_id: None,
            tag_ids: vec![],
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
        let r = build_record(7, input(), &refs(), 42, 1, None, at("2026-11-03T10:00:00")).unwrap();
        assert_eq!((r.user_id, r.id, r.version), (7, 42, 1));
        assert_eq!(r.category_type, CategoryType::Debit);
        assert!(r.category_global);
        assert_eq!(r.amount.currency().code(), "EUR");
        assert_eq!(r.created_at.to_string(), "2026-11-03T10:00:00");
        let kept = build_record(
            7,
            input(),
            &refs(),
            42,
            2,
            Some(at("2026-01-01T00:00:00")),
            at("2026-11-03T10:00:00"),
        )
        .unwrap();
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
            build_record(7, bad, &r, 1, 1, None, at("2026-11-03T10:00:00")).unwrap_err(),
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
            build_record(7, input(), &r, 1, 1, None, at("2026-11-03T10:00:00")),
            Err(AppError::Forbidden(_))
        ));
    }
}
