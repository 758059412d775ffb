//! A bounded load test on loopback: a fixed mixed workload (reads, lists and writes of
//! many users) against the local server for a fixed time at several concurrencies;
//! throughput, p50/p99, errors, and the CPU each side used, which tells what limits it.

use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use serde_json::Value;

use super::stats::Stats;

/// Concurrencies tried, each for [`SECONDS`].
pub const CONCURRENCY: [usize; 4] = [1, 4, 16, 64];
pub const SECONDS: u64 = 8;
/// Users the workers share (worker `i` acts for user `i % USERS`).
const USERS: usize = 64;

pub struct Run {
    /// The mixed workload, or its reads only.
    pub reads_only: bool,
    pub concurrency: usize,
    pub requests: u64,
    pub errors: u64,
    pub elapsed: Duration,
    pub latency: Stats,
    /// CPU seconds per second: this process (server and load generator), DynamoDB Local.
    pub cpu: (f64, Option<f64>),
}

impl Run {
    pub fn throughput(&self) -> f64 {
        self.requests as f64 / self.elapsed.as_secs_f64()
    }
}

/// CPU seconds a process has used (utime + stime, in clock ticks of 1/100 s).
fn cpu_seconds(pid: &str) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name (which may hold spaces) start after the last ')'.
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

struct User {
    token: String,
    ids: Vec<u64>,
}

/// One worker's loop until `until`: latencies and errors.
async fn worker(
    http: reqwest::Client,
    base: String,
    mut user: User,
    seed: u64,
    reads_only: bool,
    until: Instant,
) -> (Vec<Duration>, u64) {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    // The user's transactions to read (untimed).
    if let Ok(r) = http
        .get(format!("{base}/api/transactions?limit=50"))
        .bearer_auth(&user.token)
        .send()
        .await
    {
        if let Ok(Value::Array(page)) = r.json::<Value>().await {
            user.ids
                .extend(page.iter().filter_map(|t| t["id"].as_u64()));
        }
    }
    let (mut samples, mut errors) = (Vec::new(), 0);
    while Instant::now() < until {
        let pick: u32 = rng.random_range(0..if reads_only { 65 } else { 100 });
        let id = user
            .ids
            .get(rng.random_range(0..user.ids.len().max(1)))
            .copied();
        let body = serde_json::json!({"amount": format!("{}.{:02}", rng.random_range(1..500), rng.random_range(0..100)), "categoryId": 4, "date": "2026-03-01"});
        let req = match (pick, id) {
            (0..=29, _) => http.get(format!("{base}/api/transactions?limit=50")),
            (30..=44, _) => http.get(format!("{base}/api/wallet")),
            (45..=54, Some(id)) => http.get(format!("{base}/api/transactions/{id}")),
            (55..=64, _) => http.get(format!("{base}/api/categories")),
            (65..=69, Some(id)) => http
                .put(format!("{base}/api/transactions/{id}"))
                .json(&body),
            (70..=72, Some(_)) if user.ids.len() > 1 => {
                let id = user.ids.swap_remove(0);
                http.delete(format!("{base}/api/transactions/{id}"))
            }
            _ => http.post(format!("{base}/api/transactions")).json(&body),
        };
        let is_create = req
            .try_clone()
            .and_then(|r| r.build().ok())
            .is_some_and(|r| r.method() == reqwest::Method::POST);
        let start = Instant::now();
        match req.bearer_auth(&user.token).send().await {
            Ok(r) if r.status().is_success() => {
                let text = r.text().await.unwrap_or_default();
                samples.push(start.elapsed());
                if is_create {
                    if let Some(id) = serde_json::from_str::<Value>(&text)
                        .ok()
                        .and_then(|v| v["id"].as_u64())
                    {
                        user.ids.push(id);
                    }
                }
            }
            _ => errors += 1,
        }
    }
    (samples, errors)
}

pub async fn run(http: &reqwest::Client, base: &str) -> anyhow::Result<Vec<Run>> {
    let mut users = Vec::new();
    for i in 0..USERS {
        let (_, token) =
            super::fixture::sign_up(http, base, &format!("load{i}@example.com")).await?;
        users.push(token);
    }
    let ddb = std::env::var("DDB_PID").ok();
    let mut runs = Vec::new();
    // Each user gets a few transactions to read first.
    for token in &users {
        for _ in 0..3 {
            super::fixture::create_transaction(http, base, token, "2026-03-01").await?;
        }
    }
    for (reads_only, concurrency) in [false, true]
        .into_iter()
        .flat_map(|r| CONCURRENCY.map(|c| (r, c)))
    {
        let cpu_before = (cpu_seconds("self"), ddb.as_deref().and_then(cpu_seconds));
        let start = Instant::now();
        let until = start + Duration::from_secs(SECONDS);
        let mut tasks = Vec::new();
        for w in 0..concurrency {
            let user = User {
                token: users[w % USERS].clone(),
                ids: Vec::new(),
            };
            tasks.push(tokio::spawn(worker(
                http.clone(),
                base.to_owned(),
                user,
                (concurrency * 1000 + w) as u64,
                reads_only,
                until,
            )));
        }
        let (mut samples, mut errors) = (Vec::new(), 0);
        for t in tasks {
            let (s, e) = t.await?;
            samples.extend(s);
            errors += e;
        }
        let elapsed = start.elapsed();
        let per_second = |before: Option<f64>, after: Option<f64>| {
            Some((after? - before?) / elapsed.as_secs_f64())
        };
        let cpu = (
            per_second(cpu_before.0, cpu_seconds("self")).unwrap_or_default(),
            per_second(cpu_before.1, ddb.as_deref().and_then(cpu_seconds)),
        );
        runs.push(Run {
            reads_only,
            concurrency,
            requests: samples.len() as u64,
            errors,
            elapsed,
            latency: Stats::of(samples),
            cpu,
        });
    }
    Ok(runs)
}

pub fn table(runs: &[Run]) -> String {
    let mut out = format!(
        "## Load: a mixed workload at several concurrencies\n\n\
         {USERS} users; each worker loops for {SECONDS} s over: 30% list a page of 50, 15% wallet, 10% one transaction, \
         10% categories, 5% update, 3% delete, the rest create (about 27%). Loopback only, the local server in this process, \
         DynamoDB Local in memory; CPU is CPU-seconds per second (2.00 = both cores).\n\n\
         The same with the reads only (list, wallet, one transaction, categories), to tell the writes' limit from the reads'.\n\n\
         | workload | concurrency | requests | errors | throughput | p50 | p99 | CPU: this process (server + load) | CPU: DynamoDB Local |\n|---|---|---|---|---|---|---|---|---|\n"
    );
    for r in runs {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {:.0} req/s | {:.2} ms | {:.2} ms | {:.2} | {} |\n",
            if r.reads_only { "reads only" } else { "mixed" },
            r.concurrency,
            r.requests,
            r.errors,
            r.throughput(),
            r.latency.p50_ms(),
            r.latency.p99_ms(),
            r.cpu.0,
            r.cpu
                .1
                .map(|c| format!("{c:.2}"))
                .unwrap_or_else(|| "not measured".into())
        ));
    }
    out
}
