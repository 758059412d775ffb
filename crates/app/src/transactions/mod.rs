//! Transactions: the references a transaction may use, the wallet's currency and exact
//! amounts, idempotent creation, and updates conditional on the version read (`If-Match`).

mod choose;
mod record;
mod refusals;
mod splits;

pub use record::{
    build_record, check_amount, check_money, check_tag_count, check_tags, Stamp, TransactionDraft,
    MAX_TAGS, YEARS, YEARS_MESSAGE,
};
pub use splits::{PartDraft, Splits};

pub use super::IfMatch;
use super::{stale, AppError, AppResult};
pub use crate::invalid_cursor;
pub use crate::ruleset::RulesOnce;
pub(crate) use choose::add_tags;
use pf_domain::time::Timestamp;
use pf_domain::Transaction;
pub use pf_store::transactions::position_after;
use pf_store::transactions::{IdempotencyRecord, RefKeys, Refs, TxnFilter, TxnPage};
use pf_store::{retry, Again, ConflictKind, Store, StoreError};
use refusals::write_error;
pub use refusals::{check_replay, too_many_transactions};

/// A client's idempotency key and the hash of the request it came with.
#[derive(Debug, Clone, Copy)]
pub struct Idempotency<'a> {
    pub key: &'a str,
    pub request_hash: &'a str,
}

/// The result of a create: the transaction, and whether it is a replay of an earlier one.
#[derive(Debug)]
pub struct Created {
    pub transaction: Transaction,
    pub replayed: bool,
}

/// What a write reads besides the wallet: the references of its new fields (none for a
/// delete), the transaction it changes (none for a create) and its idempotency record.
pub(crate) fn keys<'a>(
    input: Option<&'a TransactionDraft>,
    transaction_id: Option<u64>,
    idempotency: Option<Idempotency<'a>>,
) -> RefKeys<'a> {
    let parts = input.map_or(&[][..], |i| i.splits.parts());
    RefKeys {
        category_id: input.and_then(|i| i.category_id),
        provider_id: input.and_then(|i| i.provider_id),
        tag_ids: input.map_or(&[], |i| &i.tag_ids),
        transaction_id,
        idempotency_key: idempotency.map(|i| i.key),
        part_category_ids: parts.iter().map(|p| p.category_id).collect(),
        part_tag_ids: parts
            .iter()
            .flat_map(|p| p.tag_ids.iter().copied())
            .collect(),
    }
}

/// Creates a transaction in the user's wallet (one `BatchGetItem`, one
/// `TransactWriteItems`). With an idempotency key, a repeated request gets the first
/// result again. Each attempt of the one retry reads the references (and the feed head)
/// again and draws a new id; one a concurrent request with the same key won replays it.
/// `rules`: the request's (a batch passes the same to each of its creates).
pub async fn create(
    store: &Store,
    user_id: u64,
    mut input: TransactionDraft,
    idempotency: Option<Idempotency<'_>>,
    rules: &RulesOnce,
) -> AppResult<Created> {
    if let Some(first) = input.splits.parts().first() {
        input.category_id = input.category_id.or(Some(first.category_id));
    }
    if input.category_id.is_none() {
        choose::category(store, user_id, &mut input, rules).await?;
    }
    let input = &input;
    retry(write_again, |_| async move {
        let keys = keys(Some(input), None, idempotency);
        let refs = store.fetch_refs_once(user_id, keys).await?;
        if let (Some(stored), Some(i)) = (&refs.idempotency, idempotency) {
            let id = check_replay(stored, i.request_hash)?;
            let transaction = store.get_transaction(user_id, id).await?.ok_or_else(|| {
                AppError::Conflict(
                    "the transaction created with this Idempotency-Key has since been deleted"
                        .into(),
                )
            })?;
            return Ok(Created {
                transaction,
                replayed: true,
            });
        }
        let now = Timestamp::now();
        let stamp = Stamp {
            id: pf_domain::ids::new_id(),
            version: 1,
            created_at: None,
            now,
        };
        let transaction = build_record(user_id, input.clone(), &refs, stamp)?;
        let idem = idempotency.map(|i| (i.key, i.request_hash));
        let (head, now) = (Some(refs.feed_head), now.to_string());
        store
            .insert_transaction(&transaction, idem, head, &now)
            .await?;
        Ok(Created {
            transaction,
            replayed: false,
        })
    })
    .await
    .map_err(refused)
}

/// One of the user's transactions.
pub async fn get(store: &Store, user_id: u64, id: u64) -> AppResult<Transaction> {
    store
        .get_transaction(user_id, id)
        .await?
        .ok_or_else(|| AppError::not_found("transaction"))
}

/// The idempotency rule for an update or delete: a key replays its first request when
/// the request is the same (and did `op`), and refuses any other.
fn replay_of(
    refs: &Refs,
    idempotency: Option<Idempotency<'_>>,
    op: &str,
) -> AppResult<Option<IdempotencyRecord>> {
    let (Some(stored), Some(i)) = (&refs.idempotency, idempotency) else {
        return Ok(None);
    };
    check_replay(stored, i.request_hash)?;
    if stored.op != op {
        return Err(AppError::Unprocessable(
            "Idempotency-Key was already used for another operation".into(),
        ));
    }
    Ok(Some(stored.clone()))
}

/// Replaces every field of one of the user's transactions. Existence (404) and the data
/// (400) are checked first; `expected` then decides between valid updates (412). With an
/// idempotency key, a repeated request gets its first result again (`true`: a replay).
pub async fn update(
    store: &Store,
    user_id: u64,
    id: u64,
    input: TransactionDraft,
    expected: Option<IfMatch>,
    idempotency: Option<Idempotency<'_>>,
) -> AppResult<(Transaction, bool)> {
    if input.category_id.is_none() {
        return Err(AppError::invalid(
            "categoryId",
            "is required when replacing a transaction",
        ));
    }
    let input = &input;
    retry(write_again, |_| async move {
        let keys = keys(Some(input), Some(id), idempotency);
        let refs = store.fetch_refs_once(user_id, keys).await?;
        if let Some(first) = replay_of(&refs, idempotency, "update")? {
            let result = first
                .result
                .ok_or_else(|| AppError::not_found("transaction"))?;
            return Ok((result, true));
        }
        let old = refs
            .transaction
            .clone()
            .ok_or_else(|| AppError::not_found("transaction"))?;
        let now = Timestamp::now();
        let created = Some(old.created_at);
        let stamp = Stamp {
            id,
            version: old.version + 1,
            created_at: created,
            now,
        };
        let mut new = build_record(user_id, input.clone(), &refs, stamp)?;
        new.recurring_id = old.recurring_id;
        splits::keep_parts(input, &old, &mut new)?;
        if expected.is_some_and(|e| !e.matches(old.version)) {
            return Err(stale());
        }
        let idem = idempotency.map(|i| (i.key, i.request_hash));
        let (head, now) = (Some(refs.feed_head), now.to_string());
        store
            .replace_transaction(&old, &new, head, idem, &now)
            .await?;
        Ok((new, false))
    })
    .await
    .map_err(refused)
}

/// Deletes one of the user's transactions and reverts its effect on the balance;
/// `expected` makes it conditional on a version (412). With an idempotency key, a
/// repeated request is answered as the first was (`true`: a replay).
pub async fn delete(
    store: &Store,
    user_id: u64,
    id: u64,
    expected: Option<IfMatch>,
    idempotency: Option<Idempotency<'_>>,
) -> AppResult<bool> {
    retry(write_again, |_| async move {
        let refs = store
            .fetch_refs_once(user_id, keys(None, Some(id), idempotency))
            .await?;
        if replay_of(&refs, idempotency, "delete")?.is_some() {
            return Ok(true);
        }
        let old = refs
            .transaction
            .ok_or_else(|| AppError::not_found("transaction"))?;
        super::check_version(expected, old.version)?;
        let idem = idempotency.map(|i| (i.key, i.request_hash));
        let now = Timestamp::now().to_string();
        store
            .remove_transaction(&old, Some(refs.feed_head), idem, &now)
            .await?;
        Ok(false)
    })
    .await
    .map_err(refused)
}

/// How an attempt at a transaction write retries: as every write (a conflict with
/// another writer, a taken id), and at once when a concurrent request with the same key
/// won or the transaction changed since it was read. The next attempt reads again and
/// decides: it replays a copy of its own request that won (same key), answers `412` to
/// an `If-Match` the new version no longer matches, `404` after a deletion.
fn write_again(e: &AppError) -> Again {
    match e {
        AppError::Store(StoreError::Conflict(
            ConflictKind::IdempotencyKey | ConflictKind::Changed,
        )) => Again::Now,
        e => e.again(),
    }
}

/// What a transaction write the retry gave up on answers.
fn refused(e: AppError) -> AppError {
    match e {
        AppError::Store(e) if e.is_conflict(ConflictKind::Changed) => {
            AppError::Conflict("the transaction keeps changing; retry".into())
        }
        AppError::Store(e) => write_error(e),
        e => e,
    }
}

/// One page of the user's transactions from `position` (as the store issued it).
pub async fn list(
    store: &Store,
    user_id: u64,
    filter: &TxnFilter,
    limit: i32,
    position: Option<&str>,
) -> AppResult<TxnPage> {
    store
        .list_transactions(user_id, filter, limit, position)
        .await
        .map_err(super::page_error)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::invalid_fields as violations;

    #[test]
    fn a_key_replays_only_the_same_request() {
        let stored = IdempotencyRecord {
            request_hash: "abc".into(),
            transaction_id: 5,
            op: "delete".into(),
            result: None,
        };
        assert_eq!(check_replay(&stored, "abc").unwrap(), 5);
        assert!(matches!(
            check_replay(&stored, "xyz"),
            Err(AppError::Unprocessable(_))
        ));
        // An update or delete replays only the operation the key first did.
        let refs = Refs {
            idempotency: Some(stored.clone()),
            ..Default::default()
        };
        let key = |hash| {
            Some(Idempotency {
                key: "k",
                request_hash: hash,
            })
        };
        assert_eq!(
            replay_of(&refs, key("abc"), "delete").unwrap(),
            Some(stored)
        );
        assert!(matches!(
            replay_of(&refs, key("abc"), "update"),
            Err(AppError::Unprocessable(_))
        ));
        assert!(replay_of(&refs, None, "delete").unwrap().is_none());
    }

    #[test]
    fn if_match_accepts_any_or_exactly_the_current_version() {
        assert!(IfMatch::Any.matches(3));
        assert!(IfMatch::Version(Some(3)).matches(3));
        assert!(!IfMatch::Version(Some(2)).matches(3));
        assert!(!IfMatch::Version(None).matches(3));
    }

    #[test]
    fn refused_writes_name_the_reference_at_fault() {
        let e = write_error(StoreError::Conflict(ConflictKind::Reference(
            pf_store::Ref::Tag,
        )));
        assert_eq!(violations(e), ["tagIds"]);
        assert!(matches!(
            write_error(StoreError::Conflict(ConflictKind::Wallet)),
            AppError::Conflict(_)
        ));
    }
}
