//! What rules cost an import: the same CSV import (`POST /api/imports`, the path every
//! CSV takes) of [`ROWS`] rows by a user without rules and by one with [`RULES`] rules,
//! round by round in alternation (the order swapped every round), each round a file of
//! its own (new import ids). Reports rows per second and the units each import consumed.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::fixture::sign_up;
use super::meter::{Meter, Units};

pub const ROWS: usize = 2_000;
pub const RULES: usize = 200;
const ROUNDS: usize = 3;
/// Distinct payees in the file; rule `i` targets payee `i`, so a quarter of the rules
/// can match a row and most rows meet a matching rule somewhere in the 200.
const PAYEES: usize = 50;

/// Row `i` of the file of round `round`: (date, amount, note, payee).
pub(super) fn row(round: usize, i: usize) -> (String, String, String, String) {
    (
        format!("{}-{:02}-{:02}", 2015 + round, 1 + i % 12, 1 + i % 28),
        format!("-{}.{:02}", 1 + i % 150, i % 100),
        format!("card payment {round}-{i}"),
        format!("Merchant {} GmbH", i % PAYEES),
    )
}

/// The file of round `round`, `rows` rows: debits in Groceries over a year of their own
/// (an import takes a row seen before for a duplicate), each row its own.
pub(super) fn csv(round: usize, rows: usize) -> String {
    let mut out = String::from("date,amount,category,note,provider\n");
    for i in 0..rows {
        let (date, amount, note, payee) = row(round, i);
        out.push_str(&format!("{date},{amount},Groceries,{note},{payee}\n"));
    }
    out
}

/// Rule `i` of the [`RULES`]: by turns a `contains` on the payee with an amount bound, a
/// regular expression on the payee, and an amount range with a note condition.
fn rule(i: usize) -> Value {
    let conditions = match i % 3 {
        0 => json!([
            {"field": "payee", "op": "contains", "value": format!("merchant {i} ")},
            {"field": "amount", "op": "lt", "value": "120"}
        ]),
        1 => json!([
            {"field": "payee", "op": "matches", "value": format!(r"^merchant {i}\b.*(gmbh|ltd)$")}
        ]),
        _ => json!([
            {"field": "amount", "op": "between", "value": [format!("{}", 1 + i % 150), format!("{}.99", 1 + i % 150)]},
            {"field": "note", "op": "startsWith", "value": format!("standing order {i}")}
        ]),
    };
    json!({
        "name": format!("rule {i}"),
        "conditions": conditions,
        "actions": {"categoryId": 4 + (i % 9) as u64, "note": "by rule"},
    })
}

/// One side of the comparison: a user, and the import runs measured for it.
struct Side {
    token: String,
    times: Vec<Duration>,
    units: Units,
}

/// The median of some rounds' times (the upper one of an even count).
pub(super) fn median(times: &[Duration]) -> Duration {
    let mut t = times.to_vec();
    t.sort_unstable();
    t.get(t.len() / 2).copied().unwrap_or_default()
}

impl Side {
    fn rows_per_second(&self) -> f64 {
        ROWS as f64 / median(&self.times).as_secs_f64().max(f64::EPSILON)
    }
}

/// `POST /api/imports` of a CSV file.
pub(super) async fn post_csv(
    http: &reqwest::Client,
    base: &str,
    token: &str,
    file: String,
) -> reqwest::Result<reqwest::Response> {
    http.post(format!("{base}/api/imports"))
        .bearer_auth(token)
        .header("content-type", "text/csv")
        .body(file)
        .send()
        .await
}

/// Posts `file` to `POST /api/imports`: the time until the report (201) and the rows it
/// created (fewer than the file's when the request's time limit cut it short).
pub(super) async fn import_created(
    http: &reqwest::Client,
    base: &str,
    token: &str,
    file: String,
) -> anyhow::Result<(Duration, usize)> {
    let start = Instant::now();
    let r = post_csv(http, base, token, file).await?;
    let status = r.status();
    let report: Value = r.json().await?;
    let took = start.elapsed();
    let created = report["created"].as_u64().unwrap_or_default() as usize;
    anyhow::ensure!(status.as_u16() == 201, "import: {status} {report}");
    Ok((took, created))
}

/// Posts `file` (of [`ROWS`] rows) as [`import_created`] does: the time until the report,
/// which must say every row was created.
async fn import(
    http: &reqwest::Client,
    base: &str,
    token: &str,
    file: String,
) -> anyhow::Result<Duration> {
    let (took, created) = import_created(http, base, token, file).await?;
    anyhow::ensure!(created == ROWS, "import: {created} of {ROWS} rows created");
    Ok(took)
}

pub async fn run(http: &reqwest::Client, base: &str, meter: &Meter) -> anyhow::Result<String> {
    let mut sides = Vec::new();
    for (rules, email) in [
        (0, "import-0@example.com"),
        (RULES, "import-200@example.com"),
    ] {
        let (_, token) = sign_up(http, base, email).await?;
        for i in 0..rules {
            http.post(format!("{base}/api/rules"))
                .bearer_auth(&token)
                .json(&rule(i))
                .send()
                .await?
                .error_for_status()?;
        }
        sides.push(Side {
            token,
            times: Vec::new(),
            units: Units::default(),
        });
    }
    for round in 0..ROUNDS {
        let order: [usize; 2] = if round % 2 == 0 { [0, 1] } else { [1, 0] };
        for s in order {
            let side = &mut sides[s];
            let file = csv(round * 2 + s, ROWS);
            let (units, took) = meter.measure(import(http, base, &side.token, file)).await;
            side.times.push(took?);
            side.units = units;
        }
    }
    let (plain, ruled) = (&sides[0], &sides[1]);
    let mut out = String::from("## Import cost with rules\n\n");
    out.push_str(&format!(
        "The same CSV import (`POST /api/imports`, {ROWS} rows, 50 payees, `text/csv`) by a \
         user without rules and by one with {RULES} rules (by turns a payee `contains` with an \
         amount bound, a payee `matches` regular expression, and an amount `between` with a \
         note `startsWith`; a category and a note as actions), {ROUNDS} rounds in \
         alternation, a new file each round; the median round. Units: one import as \
         DynamoDB Local reported them.\n\n\
         | rules | rows/s | median import | RCU | WCU |\n|---|---|---|---|---|\n"
    ));
    for (rules, side) in [(0, plain), (RULES, ruled)] {
        out.push_str(&format!(
            "| {rules} | {:.0} | {:.2} s | {} | {} |\n",
            side.rows_per_second(),
            median(&side.times).as_secs_f64(),
            side.units.read,
            side.units.write,
        ));
    }
    out.push_str(&format!(
        "\nWith {RULES} rules an import runs at {:.2}× the rows per second of one without.\n",
        ruled.rows_per_second() / plain.rows_per_second()
    ));
    Ok(out)
}
