//! Reads by key: one item (`GetItem`) or many (`BatchGetItem`, retrying what DynamoDB
//! leaves unprocessed, or once; `TransactGetItems`, all as of one moment), strongly
//! consistent; every page of a `Query`; and the retry of a batch operation's unprocessed
//! remainder (under [`super::retry`]).

use aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder;
use aws_sdk_dynamodb::types::KeysAndAttributes;

use super::attr::{s, Item};
use super::retry::{retry, Again};
use super::{sdk_error, ConflictKind, Store, StoreError, StoreResult};

/// The key of an item.
pub fn key(pk: &str, sk: &str) -> Item {
    Item::from([("PK".into(), s(pk)), ("SK".into(), s(sk))])
}

impl Store {
    /// One item by its key, strongly consistent (one `GetItem`).
    pub async fn get(&self, pk: &str, sk: &str) -> StoreResult<Option<Item>> {
        let out = self
            .client
            .get_item()
            .table_name(&self.table)
            .set_key(Some(key(pk, sk)))
            .consistent_read(true)
            .send()
            .await
            .map_err(sdk_error)?;
        Ok(out.item)
    }

    /// The items that exist among `keys` (at most 100), in no particular order.
    pub async fn batch_get(&self, keys: Vec<Item>) -> StoreResult<Vec<Item>> {
        until_processed(keys, |batch| self.batch_get_page(batch)).await
    }

    /// The items at `keys` (at most 100), read together as of one moment
    /// (`TransactGetItems`), in the order of `keys`: `None` where none is. A read that
    /// meets a transaction in progress on one of them goes round the one retry policy.
    pub async fn transact_get(&self, keys: Vec<Item>) -> StoreResult<Vec<Option<Item>>> {
        retry(StoreError::again, |_| self.transact_get_once(keys.clone())).await
    }

    /// [`Store::transact_get`] in one `TransactGetItems`, for a caller whose own retry
    /// reads again: a transaction in progress on one of the items is `Contention`.
    pub async fn transact_get_once(&self, keys: Vec<Item>) -> StoreResult<Vec<Option<Item>>> {
        use aws_sdk_dynamodb::operation::transact_get_items::TransactGetItemsError as E;
        use aws_sdk_dynamodb::types::{Get, TransactGetItem};
        let gets = keys
            .into_iter()
            .map(|k| {
                let get = Get::builder().table_name(&self.table).set_key(Some(k));
                Ok(TransactGetItem::builder().get(get.build()?).build())
            })
            .collect::<Result<Vec<_>, aws_sdk_dynamodb::error::BuildError>>()
            .map_err(anyhow::Error::from)?;
        let out = self
            .client
            .transact_get_items()
            .set_transact_items(Some(gets))
            .send()
            .await;
        match out {
            Ok(out) => Ok(out
                .responses
                .unwrap_or_default()
                .into_iter()
                .map(|r| r.item)
                .collect()),
            Err(e)
                if matches!(
                    e.as_service_error(),
                    Some(E::TransactionCanceledException(_))
                ) =>
            {
                Err(StoreError::Conflict(ConflictKind::Contention))
            }
            Err(e) => Err(sdk_error(e)),
        }
    }

    /// [`Store::batch_get`] in one `BatchGetItem`, for a caller whose own retry reads
    /// again: keys left unprocessed are `Contention`.
    pub async fn batch_get_once(&self, keys: Vec<Item>) -> StoreResult<Vec<Item>> {
        match self.batch_get_page(keys).await? {
            (found, left) if left.is_empty() => Ok(found),
            _ => Err(StoreError::Conflict(ConflictKind::Contention)),
        }
    }

    /// One `BatchGetItem`: the items found and the keys left unprocessed.
    async fn batch_get_page(&self, keys: Vec<Item>) -> StoreResult<(Vec<Item>, Vec<Item>)> {
        let request = KeysAndAttributes::builder()
            .set_keys(Some(keys))
            .consistent_read(true)
            .build()
            .map_err(anyhow::Error::from)?;
        let out = self
            .client
            .batch_get_item()
            .request_items(&self.table, request)
            .send()
            .await
            .map_err(sdk_error)?;
        let found = out.responses.and_then(|mut r| r.remove(&self.table));
        let unprocessed = out.unprocessed_keys.and_then(|mut u| u.remove(&self.table));
        Ok((
            found.unwrap_or_default(),
            unprocessed.map(|k| k.keys).unwrap_or_default(),
        ))
    }

    /// Every item of partition `pk` whose sort key starts with `prefix`, all pages of one
    /// strongly consistent `Query` (lists bounded by their own limits).
    pub async fn query_prefix(&self, pk: &str, prefix: &str) -> StoreResult<Vec<Item>> {
        let query = self
            .query_prefix_range(pk, None, prefix)
            .consistent_read(true);
        query_all(query).await
    }
}

/// Every item `query` finds, following its pages to the end.
pub(crate) async fn query_all(query: QueryFluentBuilder) -> StoreResult<Vec<Item>> {
    let mut out = Vec::new();
    let mut start = None;
    loop {
        let page = query
            .clone()
            .set_exclusive_start_key(start)
            .send()
            .await
            .map_err(sdk_error)?;
        out.extend(page.items.unwrap_or_default());
        start = page.last_evaluated_key;
        if start.is_none() {
            return Ok(out);
        }
    }
}

/// Sends a batch operation's requests with `send`, which answers what it got back and
/// what DynamoDB left unprocessed (it may, under load), and sends that again under the
/// one retry policy until nothing is left; `Contention` when some is still left at its
/// bounds. Answers everything got back.
pub(crate) async fn until_processed<T, R, F, Fut>(pending: Vec<T>, send: F) -> StoreResult<Vec<R>>
where
    F: Fn(Vec<T>) -> Fut,
    Fut: std::future::Future<Output = StoreResult<(Vec<R>, Vec<T>)>>,
{
    // The requests still to send and the answers so far, across attempts. An attempt
    // fails with `None` when some are left, with the error when one failed.
    let state = std::sync::Mutex::new((pending, Vec::new()));
    let (state_ref, send) = (&state, &send);
    let left = |e: &Option<StoreError>| match e {
        None => Again::Backoff,
        Some(_) => Again::No,
    };
    let done = retry(left, |_| async move {
        let batch = std::mem::take(&mut state_ref.lock().expect("not poisoned").0);
        if batch.is_empty() {
            return Ok(());
        }
        let (answered, rest) = send(batch).await.map_err(Some)?;
        let mut state = state_ref.lock().expect("not poisoned");
        state.1.extend(answered);
        state.0 = rest;
        if state.0.is_empty() {
            Ok(())
        } else {
            Err(None)
        }
    })
    .await;
    match done {
        Ok(()) => Ok(state.into_inner().expect("not poisoned").1),
        Err(e) => Err(e.unwrap_or(StoreError::Conflict(ConflictKind::Contention))),
    }
}
