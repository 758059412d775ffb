//! Capacity simulation behind `docs/CAPACITY.md`: generates the key stream of a stated
//! workload at the busiest second for 1M and 10M users, in the key layout before the
//! shards (one `GLOBAL` partition, one `USERS` index partition) and after (the real
//! `shard_of`, `global_pk` and `users_shard_pk` of `shared::store::keys`), and reports the
//! hottest partition key and the hottest modelled physical partition against DynamoDB's
//! per-partition limits. Deterministic (a fixed seed), bounded (a few simulated seconds,
//! tens of thousands of requests each), runs in about a second.
//!
//! `cargo run -q -p bench --bin capacity [-- --json <path>]`: a Markdown table on stdout,
//! the same figures as JSON at `<path>`. `-- --cost [--lambda <lambda.json>]`: the cost
//! per active user-month of the same workload instead (`cost.rs`).

mod cost;
mod model;
mod simulate;

use serde_json::{json, Value};
use shared::store::keys::SHARDS;

use model::{
    Layout, PARTITION_BYTES, PARTITION_RCU, PARTITION_WCU, PEAK_FACTOR, SECONDS, SEED, WORKLOAD,
};
use simulate::{pct, simulate, usage};

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let json_path = match args.as_slice() {
        [] => None,
        [flag, path] if flag == "--json" => Some(path.clone()),
        [cost] if cost == "--cost" => {
            print!("{}", cost::report(None)?);
            return Ok(());
        }
        [cost, flag, path] if cost == "--cost" && flag == "--lambda" => {
            print!("{}", cost::report(Some(std::path::Path::new(path)))?);
            return Ok(());
        }
        _ => anyhow::bail!("usage: capacity [--json <path> | --cost [--lambda <lambda.json>]]"),
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
