//! The wallet: one per user, its currency fixed while it holds transactions (their
//! amounts would silently change meaning), its initial balance exact in that currency.

use rust_decimal::Decimal;

use super::{AppError, AppResult, IfMatch};
use pf_domain::text::{parse_name, NAME_MAX_LEN};
use pf_domain::time::Timestamp;
use pf_domain::{Currency, Money, Violation, Wallet};
use pf_store::{retry, Again, ConflictKind, Store, StoreError};

/// The new values of a wallet, as parsed from the request: `None` where a value could not
/// be read at all (not a decimal, not a supported currency).
#[derive(Debug, Clone)]
pub struct WalletChange<'a> {
    pub name: &'a str,
    pub initial_balance: Option<Decimal>,
    pub currency: Option<Currency>,
}

/// Checks a change: a name, a supported currency, an initial balance with at most the
/// currency's decimals and below 10^13. Every broken rule is reported.
pub fn check(change: &WalletChange<'_>) -> AppResult<(String, Decimal, Currency)> {
    let mut errors = Vec::new();
    let name = parse_name(change.name, NAME_MAX_LEN)
        .map_err(|e| errors.push(Violation::new("name", e)))
        .ok();
    if change.currency.is_none() {
        errors.push(Violation::new(
            "currency",
            "must be a supported ISO 4217 code",
        ));
    }
    let initial = match (change.initial_balance, change.currency) {
        (None, _) => {
            errors.push(Violation::new("initialBalance", "must be a decimal number"));
            None
        }
        (Some(amount), Some(c)) => match Money::new(amount, c) {
            Ok(m) => Some(m.amount()),
            Err(e) => {
                errors.push(Violation::new("initialBalance", e.to_string()));
                None
            }
        },
        (Some(_), None) => None,
    };
    match (name, initial, change.currency) {
        (Some(name), Some(initial), Some(currency)) => Ok((name, initial, currency)),
        _ => Err(AppError::Invalid(errors)),
    }
}

/// The user's wallet.
pub async fn get(store: &Store, user_id: u64) -> AppResult<Wallet> {
    store
        .get_wallet(user_id)
        .await?
        .ok_or_else(|| AppError::not_found("wallet"))
}

/// Renames the wallet, sets its initial balance, and changes its currency while it holds
/// no transactions (checked in the same conditional write). `expected` (`If-Match`) makes
/// it conditional on a version: a transaction write moves the wallet's version too.
pub async fn update(
    store: &Store,
    user_id: u64,
    change: WalletChange<'_>,
    expected: Option<IfMatch>,
) -> AppResult<Wallet> {
    let (name, initial, currency) = check(&change)?;
    let (name, expected) = (&name, expected);
    // A transaction or another change landed meanwhile (`Changed`): read again.
    let moved = |e: &AppError| match e {
        AppError::Store(StoreError::Conflict(ConflictKind::Changed)) => Again::Now,
        e => e.again(),
    };
    let updated = retry(moved, |_| async move {
        let (current, head) = store.get_wallet_and_head(user_id).await?;
        let current = current.ok_or_else(|| AppError::not_found("wallet"))?;
        super::check_version(expected, current.version)?;
        if currency != current.currency && current.txn_count > 0 {
            return Err(has_transactions());
        }
        let next = Wallet {
            name: name.clone(),
            initial_balance: initial,
            currency,
            version: current.version + 1,
            updated_at: Timestamp::now(),
            ..current.clone()
        };
        match store.update_wallet(&current, &next, head).await {
            Ok(()) => Ok(next),
            Err(StoreError::NotFound) => Err(AppError::not_found("wallet")),
            Err(StoreError::Conflict(ConflictKind::HasTransactions)) => Err(has_transactions()),
            Err(StoreError::Conflict(ConflictKind::HasSchedules)) => Err(AppError::Conflict(
                "the currency can change only while no recurring transaction is scheduled: \
                 delete the schedules first"
                    .into(),
            )),
            Err(StoreError::Conflict(ConflictKind::HasBudgets)) => Err(AppError::Conflict(
                "the currency can change only while the wallet has no budgets: delete them first"
                    .into(),
            )),
            Err(StoreError::Conflict(ConflictKind::Changed)) if expected.is_some() => {
                Err(super::stale())
            }
            Err(e) => Err(AppError::Store(e)),
        }
    })
    .await;
    updated.map_err(|e| match e {
        AppError::Store(StoreError::Conflict(ConflictKind::Changed)) => {
            AppError::Conflict("the wallet keeps changing; retry".into())
        }
        e => e,
    })
}

fn has_transactions() -> AppError {
    AppError::Conflict("the currency can change only while the wallet has no transactions".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::invalid_fields;

    fn change<'a>(name: &'a str, initial: Option<Decimal>, code: &str) -> WalletChange<'a> {
        let currency = Currency::from_code(code);
        WalletChange {
            name,
            initial_balance: initial,
            currency,
        }
    }

    #[test]
    fn a_valid_change_keeps_the_exact_amount() {
        let change = change(" Main ", Some(Decimal::new(1050, 2)), "EUR");
        let (name, initial, currency) = check(&change).unwrap();
        assert_eq!(
            (name.as_str(), initial.to_string().as_str()),
            ("Main", "10.50")
        );
        assert_eq!(currency.code(), "EUR");
    }

    #[test]
    fn too_many_decimals_an_unknown_currency_and_a_blank_name_are_reported() {
        let blank = change(" ", Some(Decimal::new(1055, 3)), "EUR");
        let fields = invalid_fields(check(&blank).unwrap_err());
        assert_eq!(fields, ["name", "initialBalance"]);
        let unknown = change("Main", None, "XXX");
        let fields = invalid_fields(check(&unknown).unwrap_err());
        assert_eq!(fields, ["currency", "initialBalance"]);
    }
}
