//! The modelled workload and what each request costs the partition keys it touches.

use shared::store::keys::{global_pk, shard_of, users_shard_pk};

/// DynamoDB's limits per partition (and so per partition key: the table has a local
/// secondary index, so an item collection is never split across partitions).
pub(crate) const PARTITION_RCU: f64 = 3000.0;
pub(crate) const PARTITION_WCU: f64 = 1000.0;
pub(crate) const PARTITION_BYTES: f64 = 10e9;

/// The busiest second carries this multiple of the day's average rate.
pub(crate) const PEAK_FACTOR: f64 = 5.0;
/// Simulated peak seconds per run; the worst one is reported.
pub(crate) const SECONDS: usize = 5;
pub(crate) const SEED: u64 = 0x5eed_cafe;
pub(crate) const DAY_SECS: f64 = 86_400.0;

/// Stored bytes per user (transactions with their LSI copy, totals, feed, profile, …) after
/// a year at this workload: about 1,460 transactions of ~800 bytes with the index copy.
pub(crate) const BYTES_PER_USER: f64 = 1.3e6;

/// The workload: requests per user per day, by endpoint.
pub(crate) const WORKLOAD: &[(Op, f64)] = &[
    (Op::CreateGlobal, 3.4),
    (Op::CreateOwn, 0.6),
    (Op::Update, 1.0),
    (Op::Delete, 0.3),
    (Op::List, 6.0),
    (Op::Get, 2.0),
    (Op::Wallet, 6.0),
    (Op::Categories, 2.0),
    (Op::Sync, 8.0),
    (Op::Insights, 1.0),
    (Op::Login, 0.3),
    (Op::Refresh, 4.0),
    (Op::ProfileChange, 0.01),
    (Op::Register, 0.002),
    (Op::TagCreate, 0.05),
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    CreateGlobal,
    CreateOwn,
    Update,
    Delete,
    List,
    Get,
    Wallet,
    Categories,
    Sync,
    Insights,
    Login,
    Refresh,
    ProfileChange,
    Register,
    TagCreate,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    Before,
    After,
}

/// What a request costs one partition key: read and write units. Keys of the users index
/// (GSI1, whose partitions are apart from the table's) are named `GSI1:<key>`.
pub struct Access {
    pub key: String,
    pub rcu: f64,
    pub wcu: f64,
}

/// The partition keys a request of `op` by `user` touches, with the units each consumes:
/// derived from the code (see `docs/CAPACITY.md`, "Per endpoint").
pub fn accesses(op: Op, user: u64, layout: Layout) -> Vec<Access> {
    let own = format!("USER#{user}");
    let global = match layout {
        Layout::Before => "GLOBAL".to_owned(),
        Layout::After => global_pk(shard_of(user)),
    };
    let index = match layout {
        Layout::Before => "GSI1:USERS".to_owned(),
        Layout::After => format!("GSI1:{}", users_shard_pk(shard_of(user))),
    };
    let email = format!("EMAIL#u{user}@example.com");
    let at = |key: &str, rcu: f64, wcu: f64| Access {
        key: key.to_owned(),
        rcu,
        wcu,
    };
    match op {
        // BatchGetItem: wallet (with the feed head), own-category miss (own), global copy
        // (global); TransactWriteItems: transaction + LSI, wallet with the feed head,
        // monthly total, feed entry (2 units each, transactional). Was U 3 + G 1 RCU and
        // U 12 + G 2 WCU with a feed head item of its own and a ConditionCheck on the copy.
        Op::CreateGlobal => vec![at(&own, 2.0, 10.0), at(&global, 1.0, 0.0)],
        // The same read; the own category's use count too.
        Op::CreateOwn => vec![at(&own, 2.0, 12.0), at(&global, 1.0, 0.0)],
        // Reads the stored transaction too; same category: the use nets out (transaction +
        // LSI, wallet, the monthly total of a changed amount, feed entry; 8 when the
        // amount, month and category stay).
        Op::Update => vec![at(&own, 3.0, 10.0), at(&global, 1.0, 0.0)],
        // Wallet and transaction read; transaction + LSI, wallet, total, entry written.
        Op::Delete => vec![at(&own, 2.0, 10.0)],
        // One strongly consistent LSI Query page of 50 transactions (~20 KB).
        Op::List => vec![at(&own, 5.0, 0.0)],
        Op::Get | Op::Wallet => vec![at(&own, 1.0, 0.0)],
        // Query of the shard's 12 copies (3 KB) and of the own categories.
        Op::Categories => vec![at(&own, 1.0, 0.0), at(&global, 1.0, 0.0)],
        // A later sync page: a Query per feed, then both feed heads in a BatchGetItem.
        Op::Sync => vec![at(&own, 2.0, 0.0), at(&global, 2.0, 0.0)],
        // A month's totals (one Query), names of ~5 global and ~1 own categories.
        Op::Insights => vec![at(&own, 2.0, 0.0), at(&global, 5.0, 0.0)],
        // Reservation, attempt counters, profile; a session put.
        Op::Login => vec![at(&email, 2.0, 2.0), at(&own, 1.0, 2.0)],
        // The session read and rotated.
        Op::Refresh => vec![at(&own, 1.0, 4.0)],
        // Profile and feed in one transaction; the index entry (updatedAt is projected).
        Op::ProfileChange => vec![at(&own, 1.0, 6.0), at(&index, 0.0, 1.0)],
        // E-mail reservation, profile, wallet in one transaction; the index entry.
        Op::Register => vec![
            at(&email, 0.0, 2.0),
            at(&own, 0.0, 4.0),
            at(&index, 0.0, 1.0),
        ],
        // Tag, its name reservation, the count on the profile (not projected), feed.
        Op::TagCreate => vec![at(&own, 1.0, 10.0)],
    }
}
