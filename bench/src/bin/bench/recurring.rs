//! The recurring job's cost per 1,000 due occurrences: [`SCHEDULES`] daily schedules
//! created through the API with `backfill`, each [`DAYS`] days in the past, then one
//! `run_due` (the job the recurring function runs hourly and `make run` every minute) over
//! the due-date index, timed and metered.

use std::time::{Duration, Instant};

use serde_json::json;
use shared::store::Store;

use super::fixture::sign_up;
use super::meter::Meter;

const SCHEDULES: usize = 10;
const DAYS: i64 = 100;

pub async fn run(
    http: &reqwest::Client,
    base: &str,
    store: &Store,
    meter: &Meter,
) -> anyhow::Result<String> {
    let (_, token) = sign_up(http, base, "recurring@example.com").await?;
    let today = shared::app::recurring::today();
    let start = today - time::Duration::days(DAYS - 1);
    for i in 0..SCHEDULES {
        let body = json!({"amount": format!("{}.00", 10 + i), "categoryId": 4,
            "start": start.to_string(), "rrule": "FREQ=DAILY", "backfill": true,
            "note": format!("schedule {i}")});
        http.post(format!("{base}/api/recurring"))
            .bearer_auth(&token)
            .json(&body)
            .send()
            .await?
            .error_for_status()?;
    }
    let deadline = Instant::now() + Duration::from_secs(600);
    let started = Instant::now();
    let (units, report) = meter
        .measure(shared::app::recurring::run_due(store, today, deadline))
        .await;
    let took = started.elapsed();
    let report = report.map_err(|e| anyhow::anyhow!("run_due: {e:?}"))?;
    let due = SCHEDULES * DAYS as usize;
    anyhow::ensure!(
        report.created == due && report.finished && report.failed == 0,
        "the job did not create the {due} occurrences: {report:?}"
    );
    let per = 1000.0 / due as f64;
    let aws_write = units.aws_write();
    Ok(format!(
        "## The recurring job per 1,000 due occurrences\n\n\
         {SCHEDULES} daily schedules created with `backfill` {DAYS} days back, then one run of \
         the job (`shared::app::recurring::run_due`: a `Query` of the due-date index per \
         shard, then per schedule its item and one `TransactWriteItems` per occurrence) \
         creating {created} transactions in {calls} DynamoDB calls.\n\n\
         | per 1,000 occurrences | wall time | RCU | WCU reported by DynamoDB Local | WCU billed by AWS | items written in transactions |\n\
         |---|---|---|---|---|---|\n\
         | {SCHEDULES} schedules × {DAYS} days | {:.2} s | {:.0} | {:.0} | {:.0} | {:.0} (+ {:.0} index copies) |\n\n\
         AWS bills every item of a `TransactWriteItems` twice (2 units per item up to 1 KB), \
         its condition checks and local-index copies included, counted here from the calls \
         sent; DynamoDB Local's own report leaves some of them out. Reads as reported (an absent key reads as 0 here, at least 0.5 in AWS).\n",
        took.as_secs_f64() * per,
        units.read * per,
        units.write * per,
        aws_write * per,
        f64::from(units.transact_items) * per,
        f64::from(units.index_copies) * per,
        created = report.created,
        calls = units.calls,
    ))
}
