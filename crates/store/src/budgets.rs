//! Budgets: an amount per (month, DEBIT category) in the user's partition. Each one is
//! counted on the wallet (`budgetCount`), in the same transaction, so that the wallet's
//! currency cannot change while budgets in it exist.

use crate::FromItem;
use rust_decimal::Decimal;

use super::attr::{get_decimal, get_s, get_timestamp, get_u64, n, s, Item};
use super::items::category::category_pk;
use super::keys::{budget_sk, cat_ref, cat_sk, user_pk, BUDGET_PREFIX, WALLET};
use super::retry::{retry, Again};
use super::transact::TxItems;
use super::{ConflictKind, Ref, Store, StoreError, StoreResult};
use pf_domain::time::Timestamp;
use pf_domain::{Category, CategoryType, Currency, Month};

/// A month's budget for one category, in the wallet's currency.
#[derive(Debug, Clone, PartialEq)]
pub struct Budget {
    pub month: Month,
    pub category_id: u64,
    pub category_global: bool,
    pub amount: Decimal,
    pub updated_at: Timestamp,
}

fn to_item(user_id: u64, b: &Budget) -> Item {
    let sk = budget_sk(&b.month.to_string(), b.category_id);
    Item::from([
        ("PK".into(), s(user_pk(user_id))),
        (
            "LSI1SK".into(),
            s(cat_ref(b.category_global, b.category_id, &sk)),
        ),
        ("SK".into(), s(sk)),
        ("categoryId".into(), n(b.category_id)),
        (
            "categoryScope".into(),
            s(if b.category_global { "G" } else { "U" }),
        ),
        ("amount".into(), n(b.amount)),
        ("updatedAt".into(), s(b.updated_at.to_string())),
    ])
}

impl FromItem for Budget {
    fn from_item(item: &Item) -> anyhow::Result<Self> {
        let sk = get_s(item, "SK")?;
        let malformed = || anyhow::anyhow!("malformed budget key {sk}");
        let (month, id) = sk
            .strip_prefix(BUDGET_PREFIX)
            .and_then(|rest| rest.split_once('#'))
            .ok_or_else(malformed)?;
        Ok(Self {
            month: Month::parse(month).map_err(|_| malformed())?,
            category_id: id.parse().map_err(|_| malformed())?,
            category_global: get_s(item, "categoryScope")? == "G",
            amount: get_decimal(item, "amount")?,
            updated_at: get_timestamp(item, "updatedAt")?,
        })
    }
}

impl Store {
    /// A month's budgets, by category id (one `Query`).
    pub async fn list_budgets(&self, user_id: u64, month: Month) -> StoreResult<Vec<Budget>> {
        self.budgets_from(user_id, &format!("{BUDGET_PREFIX}{month}#"))
            .await
    }

    /// Every budget of the user, by month then category id (the export).
    pub async fn list_all_budgets(&self, user_id: u64) -> StoreResult<Vec<Budget>> {
        let mut all = self.budgets_from(user_id, BUDGET_PREFIX).await?;
        all.sort_by_key(|b| (b.month.to_string(), b.category_id));
        Ok(all)
    }

    async fn budgets_from(&self, user_id: u64, prefix: &str) -> StoreResult<Vec<Budget>> {
        let mut budgets = self
            .query_prefix(&user_pk(user_id), prefix)
            .await?
            .iter()
            .map(Budget::from_item)
            .collect::<anyhow::Result<Vec<_>>>()?;
        budgets.sort_by_key(|b| b.category_id);
        Ok(budgets)
    }

    /// Creates or replaces a budget while its category exists and is DEBIT
    /// (`Conflict(Reference(Category))`; an own one is marked as named, see
    /// `categories::refs`) and the wallet has `currency`
    /// (`Conflict(Wallet)`). A new budget is counted on the wallet.
    /// A new budget needs the wallet below `max` budgets: `LimitReached` at the cap.
    pub async fn put_budget(
        &self,
        user_id: u64,
        category: &Category,
        budget: &Budget,
        currency: Currency,
        max: u64,
    ) -> StoreResult<()> {
        let pk = &user_pk(user_id);
        // Try a new budget first, then a replacement; a concurrent delete or create
        // between the two sends us round again.
        let other = |e: &StoreError| match e {
            StoreError::Conflict(ConflictKind::Changed) => Again::Now,
            e => e.again(),
        };
        let result = retry(other, |attempt| async move {
            let create = attempt % 2 == 1;
            let mut tx = TxItems::new(self);
            let condition = if create {
                "attribute_not_exists(PK)"
            } else {
                "attribute_exists(PK)"
            };
            tx.put(to_item(user_id, budget), Some(condition), None)?;
            let currency_is = Item::from([(":cur".into(), s(currency.code()))]);
            if create {
                tx.update(
                    pk,
                    WALLET,
                    "ADD budgetCount :one",
                    Some(
                        "attribute_exists(PK) AND currencyCode = :cur \
                         AND (attribute_not_exists(budgetCount) OR budgetCount < :max)",
                    ),
                    Item::from([(":one".into(), n(1)), (":max".into(), n(max))])
                        .into_iter()
                        .chain(currency_is)
                        .collect(),
                    None,
                )?;
            } else {
                tx.check(
                    pk,
                    WALLET,
                    "attribute_exists(PK) AND currencyCode = :cur",
                    Some(currency_is),
                )?;
            }
            tx.on_conflict(ConflictKind::Wallet);
            if category.is_global() {
                tx.check(
                    &category_pk(user_id, true),
                    &cat_sk(category.id),
                    "attribute_exists(PK) AND categoryType = :t",
                    Some(Item::from([(":t".into(), s(CategoryType::Debit.as_str()))])),
                )?;
                tx.on_conflict(ConflictKind::Reference(Ref::Category));
            } else {
                // Marked, so that a type change racing this budget fails (`refs`).
                super::categories::refs::mark(&mut tx, user_id, category.id, CategoryType::Debit)?;
            }
            self.transact_once(tx).await
        })
        .await;
        match result {
            // The wallet's condition failed: at the cap, or its currency changed.
            Err(StoreError::Conflict(ConflictKind::Wallet)) => {
                let wallet = self.get(pk, WALLET).await?;
                let count = wallet.as_ref().and_then(|w| get_u64(w, "budgetCount").ok());
                match count {
                    Some(count) if count >= max => {
                        Err(StoreError::Conflict(ConflictKind::LimitReached))
                    }
                    _ => Err(StoreError::Conflict(ConflictKind::Wallet)),
                }
            }
            other => other,
        }
    }

    /// Deletes a budget and uncounts it on the wallet: `NotFound` when there is none.
    pub async fn delete_budget(
        &self,
        user_id: u64,
        month: Month,
        category_id: u64,
    ) -> StoreResult<()> {
        let pk = user_pk(user_id);
        let mut tx = TxItems::new(self);
        tx.delete(
            &pk,
            &budget_sk(&month.to_string(), category_id),
            Some("attribute_exists(PK)"),
            None,
        )?;
        tx.update(
            &pk,
            WALLET,
            "ADD budgetCount :minus",
            Some("attribute_exists(PK)"),
            Item::from([(":minus".into(), n(-1))]),
            None,
        )?;
        match self.transact(tx).await {
            // A failed condition: no such budget (or wallet). Contention stays what it is.
            Err(StoreError::Conflict(ConflictKind::Changed)) => Err(StoreError::NotFound),
            other => other,
        }
    }

    /// Removes what refers to a deleted own category: its (zero) monthly totals and its
    /// budgets. Runs after the category's delete committed, so no write can add to them
    /// any more (each needs the category to exist); an interrupted clean-up leaves only
    /// items that reads skip, and the next delete of the account removes them.
    pub async fn purge_category_refs(&self, user_id: u64, category_id: u64) -> StoreResult<()> {
        let totals = self.category_totals(user_id, category_id).await?;
        let budgets = self.category_refs(user_id, category_id).await?;
        for chunk in totals.chunks(25) {
            self.delete_batch(chunk.to_vec()).await?;
        }
        for key in budgets {
            let sk = get_s(&key, "SK")?;
            let month = sk
                .strip_prefix(BUDGET_PREFIX)
                .and_then(|rest| rest.split('#').next())
                .and_then(|m| Month::parse(m).ok())
                .ok_or_else(|| anyhow::anyhow!("malformed budget key {sk}"))?;
            match self.delete_budget(user_id, month, category_id).await {
                Ok(()) | Err(StoreError::NotFound) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }
}
