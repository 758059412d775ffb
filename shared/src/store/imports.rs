//! Import markers: which import ids a user has imported already (one `BatchGetItem` per
//! hundred ids). The markers are written with their transactions in `transactions::write`.

use std::collections::HashSet;

use super::attr::get_s;
use super::batch::key;
use super::keys::{import_sk, user_pk};
use super::{Store, StoreResult};

/// Keys per `BatchGetItem` (DynamoDB's limit).
const BATCH_KEYS: usize = 100;

impl Store {
    /// The ids among `import_ids` that already have a marker in the user's partition.
    pub async fn imported(
        &self,
        user_id: u64,
        import_ids: &[&str],
    ) -> StoreResult<HashSet<String>> {
        let pk = user_pk(user_id);
        let mut found = HashSet::new();
        for chunk in import_ids.chunks(BATCH_KEYS) {
            let keys = chunk.iter().map(|id| key(&pk, &import_sk(id))).collect();
            for item in self.batch_get(keys).await? {
                if let Some(id) = get_s(&item, "SK")?.strip_prefix("IMPORT#") {
                    found.insert(id.to_owned());
                }
            }
        }
        Ok(found)
    }
}
