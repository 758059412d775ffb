//! What an active user costs a month under the model's workload, per service: every
//! request of [`WORKLOAD`] priced at AWS list prices (`bench::prices`) with the units the
//! model gives it (as AWS bills them, `docs/CAPACITY.md`) and the Lambda time its function
//! took warm in the Lambda benchmark (`lambda.json` of `scripts/bench-lambda.sh`). Money
//! in exact decimals; presentation only.

use std::path::Path;

use bench::prices::{dec, Cost, HASHING_MEMORY_MB, MEMORY_MB};
use rust_decimal::Decimal;
use serde_json::Value;

use super::model::{accesses, Layout, Op, WORKLOAD};

/// Days in an average month (365.25 / 12).
const MONTH_DAYS: &str = "30.4375";
/// Billed milliseconds when no Lambda figures are given.
const DEFAULT_MS: i64 = 10;

/// The function that answers `op`, its memory, and the Lambda benchmark's request whose
/// warm time stands in for it (the same request, or the nearest one measured).
fn function(op: Op) -> (&'static str, i64, &'static str) {
    match op {
        Op::CreateGlobal | Op::CreateOwn | Op::Update | Op::Delete => {
            ("transactions", MEMORY_MB, "POST /api/transactions")
        }
        Op::List | Op::Get => ("transactions", MEMORY_MB, "GET /api/transactions/{id}"),
        Op::Wallet => ("wallet", MEMORY_MB, "GET /api/wallet"),
        Op::Categories => ("categories", MEMORY_MB, "GET /api/categories"),
        Op::Sync => ("sync", MEMORY_MB, "GET /api/sync"),
        Op::Insights => ("insights", MEMORY_MB, "GET /api/insights/monthly"),
        Op::Login | Op::Register => ("auth", HASHING_MEMORY_MB, "POST /auth/login"),
        // No password hash: a point read's time, at the auth function's memory.
        Op::Refresh => ("auth", HASHING_MEMORY_MB, "GET /users/me"),
        Op::ProfileChange => ("users", HASHING_MEMORY_MB, "GET /users/me"),
        Op::TagCreate => ("tags", MEMORY_MB, "POST /api/transactions"),
    }
}

/// Warm p50 by request label, from `lambda.json`, rounded up to Lambda's billed ms.
fn warm_ms(lambda: Option<&Value>, request: &str) -> Option<i64> {
    let rows = lambda?.get("rows")?.as_array()?;
    let row = rows.iter().find(|r| r["request"] == request)?;
    Some(row["warm_p50_ms"].as_f64()?.ceil() as i64)
}

/// One request of `op`: its function's cost at `ms`, with the model's units.
fn per_call(op: Op, ms: i64) -> (Decimal, Decimal, Cost) {
    let (read, write) = accesses(op, 1 << 40, Layout::After)
        .iter()
        .fold((0.0, 0.0), |(r, w), a| (r + a.rcu, w + a.wcu));
    let (read, write) = (
        Decimal::try_from(read).unwrap_or_default(),
        Decimal::try_from(write).unwrap_or_default(),
    );
    let (_, memory, _) = function(op);
    let million = Cost::per_million(memory, ms, read, write);
    (
        read,
        write,
        million.times(Decimal::ONE / Decimal::from(1_000_000)),
    )
}

/// The section: the headline (per service, per active user-month and per million calls of
/// the workload) and the requests it adds up.
pub fn report(lambda_json: Option<&Path>) -> anyhow::Result<String> {
    let lambda: Option<Value> = match lambda_json {
        Some(p) => Some(serde_json::from_slice(&std::fs::read(p)?)?),
        None => None,
    };
    let month = dec(MONTH_DAYS);
    let (mut user_month, mut calls) = (Cost::default(), Decimal::ZERO);
    let mut detail = String::from(
        "| request | per user a day | function (MB) | billed ms | RCU | WCU | $ per million |\n\
         |---|---|---|---|---|---|---|\n",
    );
    for (op, per_day) in WORKLOAD {
        let per_day = Decimal::try_from(*per_day).unwrap_or_default();
        let (name, memory, request) = function(*op);
        let measured = warm_ms(lambda.as_ref(), request);
        let ms = measured.unwrap_or(DEFAULT_MS);
        let (read, write, one) = per_call(*op, ms);
        user_month = user_month.plus(&one.times(per_day * month));
        calls += per_day * month;
        let stand_in = if measured.is_some() {
            format!("{ms} (`{request}`)")
        } else {
            format!("{ms} (assumed)")
        };
        detail.push_str(&format!(
            "| {op:?} | {per_day} | {name} ({memory}) | {stand_in} | {read} | {write} | {:.2} |\n",
            one.total() * Decimal::from(1_000_000)
        ));
    }
    let per_million = user_month.times(Decimal::from(1_000_000) / calls);
    let mut out = format!(
        "## Cost per active user\n\n\
         Under the capacity model's workload ({per_day:.1} requests per active user a day, \
         {calls:.0} a month of {MONTH_DAYS} days; [docs/CAPACITY.md](docs/CAPACITY.md)), \
         at AWS list prices (us-east-1, arm64, on demand: HTTP API $1.00 per million \
         requests, Lambda $0.20 per million + $0.0000133334 per GB-s, DynamoDB $0.125 per \
         million read and $0.625 per million write units), each request's units as AWS bills \
         them and its function's warm p50 in the Lambda benchmark below as billed time \
         (cold starts and storage, about $0.0003 a user-month after a year, not included):\n\n\
         | service | $ per active user-month | $ per million calls |\n|---|---|---|\n",
        per_day = WORKLOAD.iter().map(|(_, n)| n).sum::<f64>(),
        calls = calls.round_dp(0),
    );
    for (service, month, million) in [
        (
            "API Gateway",
            user_month.api_gateway,
            per_million.api_gateway,
        ),
        ("Lambda", user_month.lambda, per_million.lambda),
        ("DynamoDB", user_month.dynamodb, per_million.dynamodb),
    ] {
        out.push_str(&format!(
            "| {service} | {:.4} | {:.2} |\n",
            month.round_dp(4),
            million.round_dp(2)
        ));
    }
    out.push_str(&format!(
        "| **total** | **{:.4}** | **{:.2}** |\n\n<details><summary>The requests it adds up</summary>\n\n{detail}\n</details>\n",
        user_month.total().round_dp(4),
        per_million.total().round_dp(2)
    ));
    Ok(out)
}
