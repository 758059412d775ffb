//! Import markers: which import ids a user has imported already (one `BatchGetItem` per
//! fifty ids). The markers are written with their transactions in `transactions::write`.
//!
//! An export names each transaction `txn:<id>`: such an id also counts as imported while
//! the user still has that transaction, so importing one's own export into the same
//! account creates nothing (concurrent imports are still told apart by the markers).
//!
//! The markers of an import job's rows carry the job's id (`jobId`): a worker retried
//! after writing part of a chunk finds the rows it wrote itself, and counts them created.

use std::collections::{HashMap, HashSet};

use super::attr::{get_opt_u64, get_s};
use super::batch::key;
use super::keys::{import_sk, txn_sk, user_pk, TXN_PREFIX};
use super::{Store, StoreResult};

/// Ids per `BatchGetItem`: two keys each at most, within DynamoDB's 100.
const BATCH_IDS: usize = 50;
/// `BatchGetItem`s in flight at once.
const PARALLEL_READS: usize = 4;

/// The transaction an exported import id names (`txn:<id>`, in canonical form only, so
/// that two ids never name the same key).
pub fn exported_txn(import_id: &str) -> Option<u64> {
    let id: u64 = import_id.strip_prefix("txn:")?.parse().ok()?;
    (format!("txn:{id}") == import_id).then_some(id)
}

impl Store {
    /// The ids among `import_ids` (distinct) that have a marker in the user's partition,
    /// or that name (`txn:<id>`) a transaction the user has.
    pub async fn imported(
        &self,
        user_id: u64,
        import_ids: &[&str],
    ) -> StoreResult<HashSet<String>> {
        Ok(self
            .imported_by(user_id, import_ids)
            .await?
            .into_keys()
            .collect())
    }

    /// [`Store::imported`], each id with the job whose marker it has (`None`: written by
    /// an import within a request, or an exported id).
    pub async fn imported_by(
        &self,
        user_id: u64,
        import_ids: &[&str],
    ) -> StoreResult<HashMap<String, Option<u64>>> {
        use futures::stream::{self, StreamExt, TryStreamExt};
        let pk = user_pk(user_id);
        let batches: Vec<Vec<_>> = import_ids
            .chunks(BATCH_IDS)
            .map(|chunk| {
                let mut keys = Vec::with_capacity(chunk.len() * 2);
                for id in chunk {
                    keys.push(key(&pk, &import_sk(id)));
                    if let Some(t) = exported_txn(id) {
                        keys.push(key(&pk, &txn_sk(t)));
                    }
                }
                keys
            })
            .collect();
        // A few reads at a time: they are independent, and an import waits for all.
        let items: Vec<Vec<_>> = stream::iter(batches)
            .map(|keys| self.batch_get(keys))
            .buffer_unordered(PARALLEL_READS)
            .try_collect()
            .await?;
        let mut found = HashMap::new();
        for item in items.iter().flatten() {
            let sk = get_s(item, "SK")?;
            if let Some(id) = sk.strip_prefix("IMPORT#") {
                found.insert(id.to_owned(), get_opt_u64(item, "jobId"));
            } else if let Some(Ok(t)) = sk.strip_prefix(TXN_PREFIX).map(str::parse::<u64>) {
                found.entry(format!("txn:{t}")).or_insert(None);
            }
        }
        Ok(found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_canonical_exported_ids_name_a_transaction() {
        assert_eq!(exported_txn("txn:42"), Some(42));
        assert_eq!(exported_txn("txn:042"), None);
        assert_eq!(exported_txn("txn:"), None);
        assert_eq!(exported_txn("-12.5:2026-11-03:1"), None);
    }
}
