//! The simulation: a few peak seconds of the workload's key stream, spread over the
//! partitions DynamoDB would size the table to.

use std::collections::HashMap;

use super::model::{
    accesses, Layout, Op, BYTES_PER_USER, DAY_SECS, PARTITION_BYTES, PARTITION_RCU, PARTITION_WCU,
    PEAK_FACTOR, SECONDS, SEED, WORKLOAD,
};

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
pub struct Load {
    pub rcu: f64,
    pub wcu: f64,
}

pub struct Outcome {
    pub users: u64,
    pub layout: Layout,
    pub requests_per_sec: f64,
    pub total: Load,
    pub partitions: u64,
    pub hot_key: (String, Load),
    pub hot_partition: Load,
    pub hot_index_key: (String, Load),
    pub distinct_keys: usize,
}

pub fn simulate(users: u64, layout: Layout) -> Outcome {
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
pub fn usage(l: &Load) -> f64 {
    (l.rcu / PARTITION_RCU).max(l.wcu / PARTITION_WCU)
}

pub fn pct(l: &Load) -> String {
    format!("{:.0}%", usage(l) * 100.0)
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
