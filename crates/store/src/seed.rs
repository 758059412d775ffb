//! Seeding the global categories: the defaults into the source partition `GLOBAL`, then
//! every source category into each shard's copy (`GLOBAL#<shard>`, what users read), then
//! a `SEEDED` marker in every shard. Each step writes only what is missing, so seeding is
//! idempotent and leaves an admin's edits alone.
//!
//! The marker counts the defaults seeded (`defaults`): a deployment seeded before defaults
//! were added is not "seeded" until the new ones are written, and only those are put, so a
//! default an admin removed since stays removed.

use std::collections::HashSet;

use super::attr::{get_opt_u64, n, s, Item};
use super::categories::GLOBAL_CATEGORIES;
use super::items::category::to_item;
use super::keys::{global_pk, GLOBAL_PK, SHARDS};
use super::retry::{retry, Again};
use super::transact::{TxItems, MAX_TRANSACT_ITEMS};
use super::{Store, StoreError, StoreResult};
use pf_domain::time::Timestamp;
use pf_domain::Category;

/// Sort key of the marker that every shard holds its copies (written after all of them).
pub const SEEDED_SK: &str = "SEEDED";

impl Store {
    /// Writes what is missing of the global categories and their copies (see the module).
    pub async fn seed_global_categories(&self, now: &str) -> StoreResult<()> {
        let now = Timestamp::parse(now).map_err(anyhow::Error::msg)?;
        let done = self.defaults_seeded().await?;
        let defaults = GLOBAL_CATEGORIES
            .iter()
            .skip(usize::try_from(done).unwrap_or(usize::MAX))
            .map(|&(id, name, icon, color, kind)| {
                let record = Category {
                    id,
                    owner: None,
                    name: name.into(),
                    icon: icon.into(),
                    color: color.into(),
                    category_type: kind,
                    use_count: 0,
                    version: 1,
                    created_at: now,
                    updated_at: now,
                };
                async move { self.put_if_absent(to_item(&record, GLOBAL_PK)).await }
            });
        futures::future::try_join_all(defaults).await?;

        let source = self.list_categories_in(GLOBAL_PK).await?;
        let shards = (0..SHARDS).map(|shard| self.seed_shard(shard, &source));
        futures::future::try_join_all(shards).await?;

        let mut markers = TxItems::new(self);
        for shard in 0..SHARDS {
            let marker = Item::from([
                ("PK".into(), s(global_pk(shard))),
                ("SK".into(), s(SEEDED_SK)),
                ("shards".into(), n(SHARDS)),
                ("defaults".into(), n(GLOBAL_CATEGORIES.len() as u64)),
            ]);
            markers.put(marker, None, None)?;
        }
        self.transact(markers).await
    }

    /// True once every shard holds its copies of every default: one `GetItem` of a
    /// shard's marker (all markers are written together), a random one so that cold
    /// starts share no key.
    pub async fn global_categories_seeded(&self) -> StoreResult<bool> {
        let shard = rand::random::<u64>() % SHARDS;
        let marker = self.get(&global_pk(shard), SEEDED_SK).await?;
        Ok(marker.is_some_and(|m| defaults_of(&m) >= GLOBAL_CATEGORIES.len() as u64))
    }

    /// How many of [`GLOBAL_CATEGORIES`] an earlier seeding wrote (0 on a fresh table).
    async fn defaults_seeded(&self) -> StoreResult<u64> {
        let marker = self.get(&global_pk(0), SEEDED_SK).await?;
        Ok(marker.map_or(0, |m| defaults_of(&m)))
    }

    /// Copies the source categories a shard lacks into it, looking again at what is
    /// missing when others (a concurrent seeding, an admin) wrote it meanwhile.
    async fn seed_shard(&self, shard: u64, source: &[Category]) -> StoreResult<()> {
        let pk = &global_pk(shard);
        let written = |e: &StoreError| match e {
            StoreError::Conflict(_) if e.again() == Again::No => Again::Now,
            e => e.again(),
        };
        retry(written, |_| async move {
            let present: HashSet<u64> = self
                .list_categories_in(pk)
                .await?
                .iter()
                .map(|c| c.id)
                .collect();
            let missing: Vec<&Category> =
                source.iter().filter(|c| !present.contains(&c.id)).collect();
            for chunk in missing.chunks(MAX_TRANSACT_ITEMS) {
                let mut tx = TxItems::new(self);
                for c in chunk {
                    tx.put(to_item(c, pk), Some("attribute_not_exists(PK)"), None)?;
                }
                self.transact_once(tx).await?;
            }
            Ok(())
        })
        .await
    }

    /// Puts an item unless one with its key exists.
    async fn put_if_absent(&self, item: Item) -> StoreResult<()> {
        let result = self
            .client
            .put_item()
            .table_name(&self.table)
            .set_item(Some(item))
            .condition_expression("attribute_not_exists(PK)")
            .send()
            .await;
        super::done_unless_other_error(result)
    }
}

/// The `defaults` count of a `SEEDED` marker.
fn defaults_of(marker: &Item) -> u64 {
    get_opt_u64(marker, "defaults").unwrap_or(0)
}
