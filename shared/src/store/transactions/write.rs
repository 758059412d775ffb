//! Transaction writes: each is one `TransactWriteItems` with the transaction, the wallet's
//! running sum and count, and the reference counts of what it uses. Every condition names
//! its [`ConflictKind`]: `IdTaken`/`Changed` (the transaction), `Wallet`, `Reference(..)`,
//! `IdempotencyKey`.

use std::collections::BTreeSet;

use rust_decimal::Decimal;

use super::super::attr::{n, s, Item};
use super::super::keys::{
    cat_sk, idem_sk, provider_sk, tag_sk, txn_sk, user_pk, GLOBAL_PK, WALLET,
};
use super::super::transact::TxItems;
use super::super::{ConflictKind, Ref, Store, StoreResult};
use super::Transaction;

/// Idempotency keys are remembered for a day.
const IDEMPOTENCY_TTL_SECS: i64 = 24 * 3600;

impl Store {
    /// Writes a new transaction, its balance change and reference counts atomically, and
    /// the idempotency record `(key, request hash)` when given.
    pub async fn insert_transaction(
        &self,
        txn: &Transaction,
        idempotency: Option<(&str, &str)>,
        now: &str,
    ) -> StoreResult<()> {
        let mut tx = TxItems::new(self);
        tx.put(
            super::super::items::transaction::to_item(txn),
            Some("attribute_not_exists(PK)"),
            None,
        )?;
        tx.on_conflict(ConflictKind::IdTaken);
        add_wallet_change(&mut tx, txn, txn.signed_amount(), 1, now)?;
        add_category_use(&mut tx, txn, 1)?;
        if let Some(p) = txn.provider_id {
            use_provider(&mut tx, txn.user_id, p, 1)?;
        }
        for t in &txn.tag_ids {
            use_tag(&mut tx, txn.user_id, *t, 1)?;
        }
        if let Some((key, hash)) = idempotency {
            let expires = time::OffsetDateTime::now_utc().unix_timestamp() + IDEMPOTENCY_TTL_SECS;
            let item = Item::from([
                ("PK".into(), s(user_pk(txn.user_id))),
                ("SK".into(), s(idem_sk(key))),
                ("requestHash".into(), s(hash)),
                ("transactionId".into(), n(txn.id)),
                ("expiresAt".into(), n(expires)),
            ]);
            tx.put(item, Some("attribute_not_exists(PK)"), None)?;
            tx.on_conflict(ConflictKind::IdempotencyKey);
        }
        self.transact(tx).await
    }

    /// Replaces `old` by `new` if `old` is still the stored version, moving the balance by
    /// the difference and the reference counts of what changed.
    pub async fn replace_transaction(
        &self,
        old: &Transaction,
        new: &Transaction,
        now: &str,
    ) -> StoreResult<()> {
        let mut tx = TxItems::new(self);
        tx.put(
            super::super::items::transaction::to_item(new),
            Some("attribute_exists(PK) AND version = :v"),
            Some(Item::from([(":v".into(), n(old.version))])),
        )?;
        let delta = new.signed_amount() - old.signed_amount();
        add_wallet_change(&mut tx, new, delta, 0, now)?;
        if old.category_id != new.category_id || old.category_global != new.category_global {
            add_category_use(&mut tx, old, -1)?;
            add_category_use(&mut tx, new, 1)?;
        }
        if old.provider_id != new.provider_id {
            if let Some(p) = old.provider_id {
                use_provider(&mut tx, old.user_id, p, -1)?;
            }
            if let Some(p) = new.provider_id {
                use_provider(&mut tx, new.user_id, p, 1)?;
            }
        }
        let old_tags: BTreeSet<u64> = old.tag_ids.iter().copied().collect();
        let new_tags: BTreeSet<u64> = new.tag_ids.iter().copied().collect();
        for t in old_tags.difference(&new_tags) {
            use_tag(&mut tx, old.user_id, *t, -1)?;
        }
        for t in new_tags.difference(&old_tags) {
            use_tag(&mut tx, new.user_id, *t, 1)?;
        }
        self.transact(tx).await
    }

    /// Deletes `old` if it is still the stored version, reverting its balance change and
    /// releasing its references.
    pub async fn remove_transaction(&self, old: &Transaction, now: &str) -> StoreResult<()> {
        let mut tx = TxItems::new(self);
        tx.delete(
            &user_pk(old.user_id),
            &txn_sk(old.id),
            Some("attribute_exists(PK) AND version = :v"),
            Some(Item::from([(":v".into(), n(old.version))])),
        )?;
        add_wallet_change(&mut tx, old, -old.signed_amount(), -1, now)?;
        add_category_use(&mut tx, old, -1)?;
        if let Some(p) = old.provider_id {
            use_provider(&mut tx, old.user_id, p, -1)?;
        }
        for t in &old.tag_ids {
            use_tag(&mut tx, old.user_id, *t, -1)?;
        }
        self.transact(tx).await
    }
}

/// Moves the wallet's sum and count; conditional on the wallet existing (so nothing is
/// written for a deleted user) and on its currency being the transaction's.
fn add_wallet_change(
    tx: &mut TxItems<'_>,
    txn: &Transaction,
    delta: Decimal,
    count: i64,
    now: &str,
) -> anyhow::Result<()> {
    tx.update(
        &user_pk(txn.user_id),
        WALLET,
        "SET txnSum = txnSum + :delta, txnCount = txnCount + :count, updatedAt = :now",
        Some("attribute_exists(PK) AND currencyCode = :cur"),
        Item::from([
            (":delta".into(), n(delta)),
            (":count".into(), n(count)),
            (":now".into(), s(now)),
            (":cur".into(), s(txn.amount.currency().code())),
        ]),
        None,
    )?;
    tx.on_conflict(ConflictKind::Wallet);
    Ok(())
}

/// A use taken (`delta > 0`: the item must exist) or released (never conditional: a
/// release must not fail the write).
fn add_reference(
    tx: &mut TxItems<'_>,
    pk: &str,
    sk: &str,
    delta: i64,
    condition: Option<(&str, Item)>,
    kind: Ref,
) -> anyhow::Result<()> {
    let condition = if delta > 0 { condition } else { None };
    tx.add_use(pk, sk, delta, condition)?;
    tx.on_conflict(ConflictKind::Reference(kind));
    Ok(())
}

fn use_provider(tx: &mut TxItems<'_>, user_id: u64, id: u64, delta: i64) -> anyhow::Result<()> {
    let exists = Some(("attribute_exists(PK)", Item::new()));
    add_reference(
        tx,
        &user_pk(user_id),
        &provider_sk(id),
        delta,
        exists,
        Ref::Provider,
    )
}

fn use_tag(tx: &mut TxItems<'_>, user_id: u64, id: u64, delta: i64) -> anyhow::Result<()> {
    let exists = Some(("attribute_exists(PK)", Item::new()));
    add_reference(tx, &user_pk(user_id), &tag_sk(id), delta, exists, Ref::Tag)
}

/// Counts a use of an own category (taking one requires it to exist with the same type);
/// a global category is only checked when taken, never written (no hot key).
fn add_category_use(tx: &mut TxItems<'_>, txn: &Transaction, delta: i64) -> anyhow::Result<()> {
    let condition = "attribute_exists(PK) AND categoryType = :t";
    let values = Item::from([(":t".into(), s(txn.category_type.as_str()))]);
    if txn.category_global {
        if delta > 0 {
            tx.check(GLOBAL_PK, &cat_sk(txn.category_id), condition, Some(values))?;
            tx.on_conflict(ConflictKind::Reference(Ref::Category));
        }
        Ok(())
    } else {
        let pk = user_pk(txn.user_id);
        let sk = cat_sk(txn.category_id);
        add_reference(
            tx,
            &pk,
            &sk,
            delta,
            Some((condition, values)),
            Ref::Category,
        )
    }
}
