//! Capacity simulation behind `docs/CAPACITY.md`: generates the key stream of a stated
//! workload at the busiest second for 1M and 10M users, in the key layout before the
//! shards (one `GLOBAL` partition, one `USERS` index partition) and after (the real
//! `shard_of`, `global_pk` and `users_shard_pk` of `shared::store::keys`), and reports the
//! hottest partition key and the hottest modelled physical partition against DynamoDB's
//! per-partition limits. Deterministic (a fixed seed), bounded (a few simulated seconds,
//! tens of thousands of requests each), runs in about a second.
//!
//! `cargo run -q -p local --bin capacity [-- --json <path>]`: a Markdown table on stdout,
//! the same figures as JSON at `<path>`.

use std::collections::HashMap;

use serde_json::{json, Value};
use shared::store::keys::{global_pk, shard_of, users_shard_pk, SHARDS};

/// DynamoDB's limits per partition (and so per partition key: the table has a local
/// secondary index, so an item collection is never split across partitions).
const PARTITION_RCU: f64 = 3000.0;
const PARTITION_WCU: f64 = 1000.0;
const PARTITION_BYTES: f64 = 10e9;

/// The busiest second carries this multiple of the day's average rate.
const PEAK_FACTOR: f64 = 5.0;
/// Simulated peak seconds per run; the worst one is reported.
const SECONDS: usize = 5;
const SEED: u64 = 0x5eed_cafe;
const DAY_SECS: f64 = 86_400.0;

/// Stored bytes per user (transactions with their LSI copy, totals, feed, profile, …) after
/// a year at this workload: about 1,460 transactions of ~800 bytes with the index copy.
const BYTES_PER_USER: f64 = 1.3e6;

/// The workload: requests per user per day, by endpoint.
const WORKLOAD: &[(Op, f64)] = &[
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
enum Op {
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
enum Layout {
    Before,
    After,
}

/// What a request costs one partition key: read and write units. Keys of the users index
/// (GSI1, whose partitions are apart from the table's) are named `GSI1:<key>`.
struct Access {
    key: String,
    rcu: f64,
    wcu: f64,
}

/// The partition keys a request of `op` by `user` touches, with the units each consumes:
/// derived from the code (see `docs/CAPACITY.md`, "Per endpoint").
fn accesses(op: Op, user: u64, layout: Layout) -> Vec<Access> {
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
        // BatchGetItem: wallet, feed head, own-category miss (own), global copy (global);
        // TransactWriteItems: transaction + LSI, wallet, monthly total, feed entry and
        // head (2 units each, transactional), the ConditionCheck on the global copy.
        Op::CreateGlobal => vec![at(&own, 3.0, 12.0), at(&global, 1.0, 2.0)],
        // The same read; the own category's use count instead of the ConditionCheck.
        Op::CreateOwn => vec![at(&own, 3.0, 14.0), at(&global, 1.0, 0.0)],
        // Reads the stored transaction too; same category: no check, the use nets out.
        Op::Update => vec![at(&own, 4.0, 12.0), at(&global, 1.0, 0.0)],
        Op::Delete => vec![at(&own, 3.0, 12.0)],
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

/// splitmix64: a small deterministic generator (the run must not depend on a crate's).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The id of the `i`-th user, made like `ids::new_id` (milliseconds since 2024, then 12
/// random bits): registrations spread over two years.
fn user_id(i: u64, rng: &mut Rng) -> u64 {
    let ms = 1_000_000 + i * 63_072_000_000 / 10_000_000;
    (ms << 12) | (rng.next() & 0xfff)
}

/// A stable hash of a partition key onto the modelled partitions (DynamoDB's own hash is
/// internal; FNV-1a spreads strings evenly, which is all the model needs).
fn fnv1a(key: &str) -> u64 {
    key.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[derive(Debug, Default, Clone)]
struct Load {
    rcu: f64,
    wcu: f64,
}

struct Outcome {
    users: u64,
    layout: Layout,
    requests_per_sec: f64,
    total: Load,
    partitions: u64,
    hot_key: (String, Load),
    hot_partition: Load,
    hot_index_key: (String, Load),
    distinct_keys: usize,
}

fn simulate(users: u64, layout: Layout) -> Outcome {
    let mut rng = Rng(SEED ^ users);
    let per_user_day: f64 = WORKLOAD.iter().map(|(_, n)| n).sum();
    let rate = users as f64 * per_user_day / DAY_SECS * PEAK_FACTOR;
    let mut worst: Option<Outcome> = None;
    for _ in 0..SECONDS {
        let mut keys: HashMap<String, Load> = HashMap::new();
        let mut total = Load::default();
        // The second's requests, each by a random user and of a random kind by the mix.
        for _ in 0..rate.round() as u64 {
            let user = user_id(rng.next() % users, &mut rng);
            let mut pick = rng.unit() * per_user_day;
            let op = WORKLOAD
                .iter()
                .find(|(_, n)| {
                    pick -= n;
                    pick < 0.0
                })
                .map_or(Op::Wallet, |(op, _)| *op);
            for a in accesses(op, user, layout) {
                let load = keys.entry(a.key).or_default();
                load.rcu += a.rcu;
                load.wcu += a.wcu;
                total.rcu += a.rcu;
                total.wcu += a.wcu;
            }
        }
        // Partitions as DynamoDB would size the table: enough for its bytes and its peak
        // (on demand keeps twice the previous peak), at least one.
        let by_size = users as f64 * BYTES_PER_USER / PARTITION_BYTES;
        let by_load = (total.rcu / PARTITION_RCU).max(total.wcu / PARTITION_WCU) * 2.0;
        let partitions = by_size.max(by_load).ceil().max(1.0) as u64;
        let mut physical = vec![Load::default(); partitions as usize];
        for (key, load) in keys.iter().filter(|(k, _)| !k.starts_with("GSI1:")) {
            let p = &mut physical[(fnv1a(key) % partitions) as usize];
            p.rcu += load.rcu;
            p.wcu += load.wcu;
        }
        let hot_partition = physical
            .into_iter()
            .max_by(|a, b| usage(a).total_cmp(&usage(b)))
            .unwrap_or_default();
        let hottest = |index: bool| {
            keys.iter()
                .filter(|(k, _)| k.starts_with("GSI1:") == index)
                // Ties go to the lowest key: the map's order is not deterministic.
                .max_by(|a, b| usage(a.1).total_cmp(&usage(b.1)).then_with(|| b.0.cmp(a.0)))
                .map(|(k, l)| (k.clone(), l.clone()))
                .unwrap_or_default()
        };
        let outcome = Outcome {
            users,
            layout,
            requests_per_sec: rate,
            total,
            partitions,
            hot_key: hottest(false),
            hot_partition,
            hot_index_key: hottest(true),
            distinct_keys: keys.len(),
        };
        if worst
            .as_ref()
            .is_none_or(|w| usage(&outcome.hot_key.1) > usage(&w.hot_key.1))
        {
            worst = Some(outcome);
        }
    }
    worst.expect("at least one simulated second")
}

/// The larger of the read and write shares of a partition's limits.
fn usage(l: &Load) -> f64 {
    (l.rcu / PARTITION_RCU).max(l.wcu / PARTITION_WCU)
}

fn pct(l: &Load) -> String {
    format!("{:.0}%", usage(l) * 100.0)
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let json_path = match args.as_slice() {
        [] => None,
        [flag, path] if flag == "--json" => Some(path.clone()),
        _ => anyhow::bail!("usage: capacity [--json <path>]"),
    };
    let mut outcomes = Vec::new();
    for users in [1_000_000, 10_000_000] {
        for layout in [Layout::Before, Layout::After] {
            outcomes.push(simulate(users, layout));
        }
    }

    let per_day: f64 = WORKLOAD.iter().map(|(_, n)| n).sum();
    println!(
        "Workload: {per_day:.1} requests per user per day, the busiest second at {PEAK_FACTOR}x the \
         average; {SECONDS} simulated seconds, the worst reported; {SHARDS} shards.\n"
    );
    println!("| users | layout | requests/s | table RCU/s | table WCU/s | partitions | hottest key | its RCU/s | its WCU/s | of limit | hottest partition | hottest index key | its WCU/s |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    let mut rows = Vec::new();
    for o in &outcomes {
        let layout = match o.layout {
            Layout::Before => "before (GLOBAL, USERS)",
            Layout::After => "after (16 shards)",
        };
        let hot_key = if o.hot_key.0.starts_with("USER#") {
            "a user".to_owned()
        } else {
            format!("`{}`", o.hot_key.0)
        };
        println!(
            "| {} | {} | {:.0} | {:.0} | {:.0} | {} | {} | {:.0} | {:.0} | {} | {} | `{}` | {:.1} |",
            o.users,
            layout,
            o.requests_per_sec,
            o.total.rcu,
            o.total.wcu,
            o.partitions,
            hot_key,
            o.hot_key.1.rcu,
            o.hot_key.1.wcu,
            pct(&o.hot_key.1),
            pct(&o.hot_partition),
            o.hot_index_key.0.trim_start_matches("GSI1:"),
            o.hot_index_key.1.wcu,
        );
        rows.push(json!({
            "users": o.users,
            "layout": format!("{:?}", o.layout).to_lowercase(),
            "requestsPerSecond": o.requests_per_sec.round(),
            "tableRcuPerSecond": o.total.rcu,
            "tableWcuPerSecond": o.total.wcu,
            "modelledPartitions": o.partitions,
            "distinctKeys": o.distinct_keys,
            "hottestKey": {"key": o.hot_key.0, "rcu": o.hot_key.1.rcu, "wcu": o.hot_key.1.wcu, "ofLimit": usage(&o.hot_key.1)},
            "hottestPartition": {"rcu": o.hot_partition.rcu, "wcu": o.hot_partition.wcu, "ofLimit": usage(&o.hot_partition)},
            "hottestIndexKey": {"key": o.hot_index_key.0.trim_start_matches("GSI1:"), "wcu": o.hot_index_key.1.wcu},
        }));
    }
    if let Some(path) = json_path {
        let workload: Value = WORKLOAD
            .iter()
            .map(|(op, n)| (format!("{op:?}"), json!(n)))
            .collect::<serde_json::Map<_, _>>()
            .into();
        let report = json!({
            "seed": SEED,
            "peakFactor": PEAK_FACTOR,
            "shards": SHARDS,
            "limits": {"rcu": PARTITION_RCU, "wcu": PARTITION_WCU, "bytes": PARTITION_BYTES},
            "workloadPerUserPerDay": workload,
            "runs": rows,
        });
        std::fs::write(&path, serde_json::to_string_pretty(&report)?)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_run_is_deterministic_and_the_shards_cool_the_hottest_key() {
        let (a, b) = (
            simulate(1_000_000, Layout::Before),
            simulate(1_000_000, Layout::Before),
        );
        assert_eq!(a.hot_key.0, b.hot_key.0);
        assert_eq!(a.total.rcu, b.total.rcu);
        assert_eq!(a.hot_key.0, "GLOBAL");
        let after = simulate(1_000_000, Layout::After);
        assert_ne!(after.hot_key.0, "GLOBAL");
        assert!(usage(&after.hot_key.1) < usage(&a.hot_key.1) / 4.0);
    }
}
