//! An import against its raw floor, and a large import by a job: `make bench` (section
//! `imports`, the server in this process) and `scripts/bench-import.sh` (against a server
//! `make run` started, with its DynamoDB Local).
//!
//! The floor: the same rows written raw as the service stores them, per row the
//! transaction, its import marker and its change entry carrying the item (3 items), with
//! `BatchWriteItem` of 25 items per call, one call after the other, into a table of its
//! own without indexes on the same DynamoDB Local. [`ROUNDS`] rounds of each in
//! alternation (the order swapped every round), a new file every round; the median round.
//! The job: a file of [`JOB_ROWS`] rows posted once (202, `Location` the job), its job
//! polled until done.

use std::str::FromStr;
use std::time::{Duration, Instant};

use aws_sdk_dynamodb::types::{
    AttributeDefinition, BillingMode, KeySchemaElement, KeyType, ScalarAttributeType,
};
use serde_json::{json, Value};
use shared::domain::{CategoryType, Currency, Money};
use shared::store::keys::{import_sk, user_pk};
use shared::store::Item;

use super::fixture::{global_transaction, json_ok, log_in, put_items, sign_up, PASSWORD};
use super::imports::{csv, import_created, median, post_csv, row, ROWS};
use super::meter::{Meter, Units};
use super::sync::{entries, n, s};

/// Rows of the large import (a job: more than `SYNC_ROWS`).
pub const JOB_ROWS: usize = 20_000;
const ROUNDS: usize = 3;
/// The job's file: a year of its own (the floor's rounds take 2015 to 2017).
const JOB_ROUND: usize = 10;
const POLL: Duration = Duration::from_millis(200);
/// Within an access token's 15 minutes.
const JOB_TIMEOUT: Duration = Duration::from_secs(840);

/// Where the same runs through `make run`.
const MAKE_RUN: &str = "\nThe same through `make run` as a newcomer starts it (its debug \
    build, DynamoDB Local on 127.0.0.1:8000 with its data on disk): `make bench-import` \
    (`scripts/bench-import.sh`) while `make run` runs; its last figures are in \
    [docs/bench/import-make-run.md](docs/bench/import-make-run.md).\n";

/// Where it runs.
pub struct Target<'a> {
    pub http: &'a reqwest::Client,
    pub base: &'a str,
    /// A client of the DynamoDB Local the server uses, with the meter.
    pub client: &'a aws_sdk_dynamodb::Client,
    pub meter: &'a Meter,
    /// Whether the meter also sees the service's calls (the server in this process).
    pub service_metered: bool,
}

/// The rows of round `round` as the floor writes them for `user_id`: 3 items a row.
fn floor_items(user_id: u64, round: usize) -> anyhow::Result<Vec<Item>> {
    let at = shared::domain::time::Timestamp::parse("2026-01-01T00:00:00")
        .map_err(anyhow::Error::msg)?;
    let format = time::macros::format_description!("[year]-[month]-[day]");
    let pk = user_pk(user_id);
    let (mut items, mut txns) = (Vec::new(), Vec::new());
    let mut seen = std::collections::HashMap::new();
    for i in 0..ROWS {
        let (date, amount, note, _) = row(round, i);
        // The import id the service derives: amount, date and the occurrence of the pair.
        let occurrence = seen.entry((amount.clone(), date.clone())).or_insert(0);
        *occurrence += 1;
        let money = Money::new(rust_decimal::Decimal::from_str(&amount)?, Currency::eur())
            .map_err(|e| anyhow::anyhow!("{e:?}"))?;
        let day = time::Date::parse(&date, format)?;
        // Ids of its own (the table is the floor's): new ones every round.
        let id = 1 + (round * ROWS + i) as u64;
        let category = (4, CategoryType::Debit);
        let mut txn = global_transaction(user_id, id, money, day, category, at);
        (txn.details.note, txn.details.provider_id) = (Some(note), Some(1 + (i % 50) as u64));
        let item = shared::store::items::transaction::to_item(&txn);
        items.push(Item::from([
            ("PK".to_owned(), s(&pk)),
            (
                "SK".to_owned(),
                s(import_sk(&format!("{amount}:{date}:{occurrence}"))),
            ),
            ("transactionId".to_owned(), n(id)),
            ("createdAt".to_owned(), s("2026-01-01T00:00:00")),
        ]));
        txns.push((id, item));
    }
    items.extend(entries(
        user_id,
        1 + (round * ROWS) as u64,
        ROWS as u64,
        &txns,
    ));
    items.extend(txns.into_iter().map(|(_, item)| item));
    Ok(items)
}

async fn create_table(client: &aws_sdk_dynamodb::Client, name: &str) -> anyhow::Result<()> {
    let mut create = client
        .create_table()
        .table_name(name)
        .billing_mode(BillingMode::PayPerRequest);
    for (key, kind) in [("PK", KeyType::Hash), ("SK", KeyType::Range)] {
        create = create
            .attribute_definitions(
                AttributeDefinition::builder()
                    .attribute_name(key)
                    .attribute_type(ScalarAttributeType::S)
                    .build()?,
            )
            .key_schema(
                KeySchemaElement::builder()
                    .attribute_name(key)
                    .key_type(kind)
                    .build()?,
            );
    }
    create.send().await?;
    Ok(())
}

/// One side: its rounds' times, the fewest rows a round created and the units of its
/// last round.
#[derive(Default)]
struct Side {
    times: Vec<Duration>,
    fewest: Option<usize>,
    units: Units,
}

/// The import and the floor in alternation, into the floor table `table`.
async fn rounds(t: &Target<'_>, user: (u64, &str), table: &str) -> anyhow::Result<[Side; 2]> {
    let mut sides = [Side::default(), Side::default()];
    for round in 0..ROUNDS {
        let order: [usize; 2] = if round % 2 == 0 { [0, 1] } else { [1, 0] };
        for side in order {
            let (units, took) = if side == 0 {
                let file = csv(round, ROWS);
                t.meter
                    .measure(import_created(t.http, t.base, user.1, file))
                    .await
            } else {
                let items = floor_items(user.0, round)?;
                let start = Instant::now();
                let (units, put) = t.meter.measure(put_items(t.client, table, items)).await;
                (units, put.map(|()| (start.elapsed(), ROWS)))
            };
            let (took, created) = took?;
            let s = &mut sides[side];
            s.fewest = Some(s.fewest.map_or(created, |f| f.min(created)));
            s.times.push(took);
            s.units = units;
        }
    }
    Ok(sides)
}

/// What the job did and when.
struct JobRun {
    /// Until the 202.
    answered: Duration,
    /// Until the job was seen done.
    took: Duration,
    job: Value,
}

/// Posts the file of [`JOB_ROWS`] rows and polls its job until it ends.
async fn job(http: &reqwest::Client, base: &str, token: &str) -> anyhow::Result<JobRun> {
    let file = csv(JOB_ROUND, JOB_ROWS);
    let start = Instant::now();
    let r = post_csv(http, base, token, file).await?;
    let answered = start.elapsed();
    let status = r.status();
    let location = r.headers().get("location").cloned();
    let started: Value = r.json().await?;
    let location = match (status.as_u16(), location) {
        (202, Some(l)) => l.to_str()?.to_owned(),
        _ => anyhow::bail!("the import did not start a job: {status} {started}"),
    };
    loop {
        let job = json_ok(http.get(format!("{base}{location}")).bearer_auth(token)).await?;
        if job["status"] != "running" {
            let took = start.elapsed();
            anyhow::ensure!(
                job["status"] == "done" && job["created"] == json!(JOB_ROWS),
                "the job at {location} ended: {job}"
            );
            return Ok(JobRun {
                answered,
                took,
                job,
            });
        }
        anyhow::ensure!(
            start.elapsed() < JOB_TIMEOUT,
            "the job at {location} still runs after {JOB_TIMEOUT:?}"
        );
        tokio::time::sleep(POLL).await;
    }
}

/// Both measurements for `user`, the floor in a table of its own deleted afterwards; the
/// section of the report.
pub async fn run(t: &Target<'_>, user: (u64, &str)) -> anyhow::Result<String> {
    let table = format!("bench-floor-{}", std::process::id());
    create_table(t.client, &table).await?;
    let measured = rounds(t, user, &table).await;
    let dropped = t.client.delete_table().table_name(&table).send().await;
    let [api, floor] = measured?;
    dropped?;
    let job = job(t.http, t.base, user.1).await?;
    Ok(report(t, &api, &floor, &job))
}

fn report(t: &Target<'_>, api: &Side, floor: &Side, job: &JobRun) -> String {
    let (api_time, floor_time) = (median(&api.times), median(&floor.times));
    let rate = |d: Duration, rows: usize| rows as f64 / d.as_secs_f64().max(f64::EPSILON);
    let mut out = String::from("## Import against the raw floor\n\n");
    out.push_str(&format!(
        "`POST /api/imports` of a {ROWS}-row CSV (as in the section on rules, no rules) \
         against its raw floor: the same rows as the service stores them, 3 items a row (the \
         transaction, its import marker, its change entry carrying the item: {} items), \
         written with `BatchWriteItem` of 25 items per call, one call after the other, into a \
         table of its own without indexes on the same DynamoDB Local. {ROUNDS} rounds of \
         each in alternation (the order swapped every round), a new file each round; the \
         median round. Calls, items written and write units as AWS bills them (2 an item \
         of a `TransactWriteItems`, its index copies included): the last round{}.\n\n\
         | side | rows/s | median | DynamoDB calls | items written | WCU |\n|---|---|---|---|---|---|\n",
        3 * ROWS,
        if t.service_metered {
            ""
        } else {
            " (the import's are the server's, not seen from here)"
        },
    ));
    let seen = |u: &Units, items: u32| {
        let wcu = format!("{:.0}", u.aws_write());
        [u.calls.to_string(), items.to_string(), wcu].join(" | ")
    };
    let unseen = "— | — | —".to_owned();
    let api_units = match t.service_metered {
        true => seen(
            &api.units,
            api.units.transact_items + api.units.index_copies,
        ),
        false => unseen,
    };
    let floor_units = seen(&floor.units, 3 * ROWS as u32);
    for (name, time, units) in [
        ("`POST /api/imports`", api_time, api_units),
        ("raw `BatchWriteItem` floor", floor_time, floor_units),
    ] {
        out.push_str(&format!(
            "| {name} | {:.0} | {:.2} s | {units} |\n",
            rate(time, ROWS),
            time.as_secs_f64(),
        ));
    }
    if let Some(fewest) = api.fewest.filter(|&f| f < ROWS) {
        out.push_str(&format!(
            "\nThe request's time limit cut an import short (created {fewest} of {ROWS} rows \
             at the fewest, the rest reported as to repeat): the import's time is that of \
             fewer rows than the floor's.\n"
        ));
    }
    let ratio = api_time.as_secs_f64() / floor_time.as_secs_f64().max(f64::EPSILON);
    out.push_str(&format!(
        "\nThe import takes {ratio:.2}× the floor's time (target: within 3×).\n\n"
    ));
    let errors = job.job["errors"].as_array().map_or(0, Vec::len);
    out.push_str(&format!(
        "A {JOB_ROWS}-row CSV posted once: answered 202 with `Location: /api/imports/{{id}}` \
         after {:.2} s, then `GET /api/imports/{{id}}` every {} ms until the job's status is \
         `done`.\n\n\
         | rows | wall time | rows/s | created | duplicates | row errors |\n|---|---|---|---|---|---|\n\
         | {JOB_ROWS} | {:.1} s | {:.0} | {} | {} | {errors} |\n\n\
         The job runs at {:.2}× the rows per second of the floor above.\n{}",
        job.answered.as_secs_f64(),
        POLL.as_millis(),
        job.took.as_secs_f64(),
        rate(job.took, JOB_ROWS),
        job.job["created"],
        job.job["duplicates"],
        rate(job.took, JOB_ROWS) / rate(floor_time, ROWS),
        if t.service_metered { MAKE_RUN } else { "" },
    ));
    out
}

/// `scripts/bench-import.sh`: the same against a running server at `base` (`make run`)
/// and its DynamoDB Local at `endpoint`, for a user of its own deleted afterwards.
pub async fn against(base: &str, endpoint: &str) -> anyhow::Result<String> {
    let meter = Meter::default();
    let config = super::fixture::client_config(endpoint).await;
    let client = aws_sdk_dynamodb::Client::from_conf(config.interceptor(meter.clone()).build());
    let http = reqwest::Client::new();
    let stamp = time::OffsetDateTime::now_utc().unix_timestamp();
    let email = format!("bench-import-{stamp}@example.com");
    let (user_id, token) = sign_up(&http, base, &email).await?;
    let target = Target {
        http: &http,
        base,
        client: &client,
        meter: &meter,
        service_metered: false,
    };
    let measured = run(&target, (user_id, &token)).await;
    // The user and their 26,000 transactions go again (202: repeat until purged).
    let token = log_in(&http, base, &email).await?;
    for _ in 0..100 {
        let r = http
            .delete(format!("{base}/users/{user_id}"))
            .bearer_auth(&token)
            .json(&json!({ "currentPassword": PASSWORD }))
            .send()
            .await?;
        if r.status().as_u16() != 202 {
            r.error_for_status()?;
            break;
        }
    }
    measured
}
