//! Large imports: a file of more than 3,000 valid rows is imported by a job (202, polled
//! at `GET /api/imports/{id}`) that creates every row exactly once, also when a job
//! stops half way and the file is posted again.

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::str::FromStr;
use std::time::{Duration, Instant};

use rust_decimal::Decimal;
use serde_json::{json, Value};
use shared::app::imports::job::{self, Continuation, JobRef};
use shared::app::imports::{self, ImportOptions, Submitted};
use shared::app::AppResult;
use shared::store::import_jobs::StoredJob;
use shared::store::Store;
use time::{Date, Duration as Days, Month};

use crate::helpers::{assert_problem, spawn_app_and_user, TestApp, TestUser};

const PAYEES: [&str; 12] = [
    "REWE Markt",
    "Aldi Süd",
    "Deutsche Bahn",
    "Stadtwerke",
    "Shell",
    "Amazon EU",
    "Apotheke am Markt",
    "Café Central",
    "Telekom",
    "Edeka Müller",
    "IKEA",
    "Kino Palast",
];

/// Per month: (money out, money in, rows).
pub(crate) type Months = BTreeMap<String, (Decimal, Decimal, u64)>;

/// A household's history: `rows` rows from 2016 over about ten years, a salary every
/// month and spending in between (amounts with cents, a dozen payees), the balance and
/// the monthly totals it makes.
fn history(rows: usize, salt: u64) -> (String, Decimal, Months) {
    let mut file = String::from("Date,Amount,Payee,Memo\n");
    let (mut balance, mut months) = (Decimal::ZERO, Months::new());
    let first = Date::from_calendar_date(2016, Month::January, 1).unwrap();
    for i in 0..rows {
        let date = first + Days::days((i * 3650 / rows) as i64);
        let salary = i % 40 == 0;
        let cents = (i as u64 * 7_919 + salt * 131) % 25_000 + 1;
        let amount = if salary {
            Decimal::new(234_567 + (i as i64 % 100), 2)
        } else {
            -Decimal::new(cents as i64, 2)
        };
        let payee = if salary {
            "ACME GmbH"
        } else {
            PAYEES[i % PAYEES.len()]
        };
        file.push_str(&format!("{date},{amount},{payee},\"row {i}, {salt}\"\n"));
        balance += amount;
        let month = format!("{}-{:02}", date.year(), date.month() as u8);
        let entry = months.entry(month).or_default();
        if amount < Decimal::ZERO {
            entry.0 -= amount;
        } else {
            entry.1 += amount;
        }
        entry.2 += 1;
    }
    (file, balance, months)
}

impl TestApp {
    /// Posts a file that becomes a job (202, `Location` its URL), polls the job until it
    /// ends and returns it.
    async fn import_by_job(&self, user: &TestUser, file: &str) -> Value {
        let r = self.upload(user, "", "text/csv", file.to_owned()).await;
        assert_eq!(r.status(), 202);
        let location = r.headers()["location"].to_str().unwrap().to_owned();
        let started: Value = r.json().await.unwrap();
        assert_eq!(location, format!("/api/imports/{}", started["id"]));
        assert_eq!(started["status"], "running");
        assert!(started["finishedAt"].is_null());
        self.wait_for(user, &location).await
    }

    async fn wait_for(&self, user: &TestUser, location: &str) -> Value {
        // Bounded so that a job that never ends fails the test instead of hanging it.
        for _ in 0..4_000 {
            let job: Value = self.get_json(user, location).await;
            if job["status"] != "running" {
                assert!(job["finishedAt"].is_string(), "{job}");
                return job;
            }
            tokio::time::sleep(Duration::from_millis(300)).await;
        }
        panic!("the job at {location} does not end");
    }

    /// The monthly totals the insights show, from 2016 to 2026.
    pub(crate) async fn months(&self, user: &TestUser) -> Months {
        let mut months = Months::new();
        for (from, to) in [
            ("2016-01", "2018-12"),
            ("2019-01", "2021-12"),
            ("2022-01", "2024-12"),
            ("2025-01", "2026-12"),
        ] {
            let path = format!("/api/insights/monthly?from={from}&to={to}");
            let shown: Vec<Value> = self.get_json(user, &path).await;
            for m in shown {
                let mut entry = (Decimal::ZERO, Decimal::ZERO, 0);
                for c in m["categories"].as_array().unwrap() {
                    let total = Decimal::from_str(&c["total"]["amount"].to_string()).unwrap();
                    if c["type"] == "DEBIT" {
                        entry.0 += total;
                    } else {
                        entry.1 += total;
                    }
                    entry.2 += c["count"].as_u64().unwrap();
                }
                if entry.2 > 0 {
                    months.insert(m["month"].as_str().unwrap().to_owned(), entry);
                }
            }
        }
        months
    }

    pub(crate) async fn assert_history(&self, user: &TestUser, balance: Decimal, months: &Months) {
        let shown = Decimal::from_str(&self.balance(user).await).unwrap();
        assert_eq!(shown, balance);
        assert_eq!(&self.months(user).await, months);
    }
}

#[tokio::test]
async fn a_decade_of_history_is_imported_whole_by_a_job_and_once_only() {
    let (app, user) = spawn_app_and_user().await;
    let (file, balance, months) = history(20_000, 1);
    assert_eq!(months.len(), 120);
    let started = Instant::now();
    let job = app.import_by_job(&user, &file).await;
    eprintln!("a job of 20,000 rows took {:?}", started.elapsed());
    assert_eq!(
        (
            &job["status"],
            &job["rows"],
            &job["created"],
            &job["duplicates"]
        ),
        (&json!("done"), &json!(20_000), &json!(20_000), &json!(0)),
        "{}",
        job["errors"]
    );
    assert_eq!(job["errors"], json!([]));
    app.assert_history(&user, balance, &months).await;

    // Another user's job is not found, nor is a malformed id.
    let location = format!("/api/imports/{}", job["id"]);
    let stranger = app.new_user().await;
    assert_problem(app.get(&stranger, &location).await, 404).await;
    assert_problem(app.get(&user, "/api/imports/x").await, 404).await;

    // The same file again: a new job that creates nothing.
    let again = app.import_by_job(&user, &file).await;
    assert_ne!(again["id"], job["id"]);
    assert_eq!(
        (&again["status"], &again["created"], &again["duplicates"]),
        (&json!("done"), &json!(0), &json!(20_000))
    );
    app.assert_history(&user, balance, &months).await;
}

/// A continuation that never goes on: the job waits for the test to work on it.
struct Stopped;

impl Continuation for Stopped {
    fn resume<'a>(
        &'a self,
        _store: &'a Store,
        _job: JobRef,
    ) -> Pin<Box<dyn Future<Output = AppResult<()>> + Send + 'a>> {
        Box::pin(async { Ok(()) })
    }
}

/// A job started as a request starts it, but that nothing goes on with: its reference.
pub(crate) async fn stopped_job(app: &TestApp, user: &TestUser, file: &str) -> JobRef {
    let store = &app.state.store;
    let statement = imports_fn::parse::read(file.as_bytes(), Default::default()).unwrap();
    let options = ImportOptions {
        default_category_id: None,
        dry_run: false,
        deadline: Instant::now() + imports::TIME_BUDGET,
    };
    let rows = imports_fn::parse::rows(statement);
    let wallet = store.get_wallet(user.id).await.unwrap().unwrap();
    let submitted = imports::submit(store, wallet, rows, options, &Stopped).await;
    let Ok(Submitted::Job(stopped)) = submitted else {
        panic!("not a job: {submitted:?}");
    };
    JobRef {
        user_id: user.id,
        job_id: stopped.id,
    }
}

/// A job started as a request starts it, worked through `chunks` chunks (of 1,000 rows)
/// and then left by its worker: its reference and its location.
async fn abandoned_job(
    app: &TestApp,
    user: &TestUser,
    file: &str,
    chunks: usize,
) -> (JobRef, String) {
    let job_ref = stopped_job(app, user, file).await;
    let far = Instant::now() + Duration::from_secs(3600);
    let store = &app.state.store;
    assert!(job::work_chunks(store, job_ref, far, chunks).await.unwrap());
    (job_ref, format!("/api/imports/{}", job_ref.job_id))
}

/// Makes a job look as if its worker saved its last progress long ago (more than
/// [`job::STALL_SECS`]): the next read fails it.
async fn age(app: &TestApp, user: &TestUser, job_ref: JobRef) {
    let store = &app.state.store;
    let stored = store
        .get_import_job(user.id, job_ref.job_id)
        .await
        .unwrap()
        .unwrap();
    let mut doc: Value = serde_json::from_str(&stored.doc).unwrap();
    let now = time::OffsetDateTime::now_utc().unix_timestamp();
    doc["progress"]["savedAt"] = json!(now - job::STALL_SECS - 60);
    let expires_at = doc["progress"]["expiresAt"].as_i64().unwrap();
    let old = StoredJob {
        doc: doc.to_string(),
        step: stored.step + 1,
    };
    store
        .put_import_job(user.id, job_ref.job_id, &old, expires_at)
        .await
        .unwrap();
}

/// One import job at a time per user: another large file while one runs is `409` naming
/// the running job, a file imported within its request is not a job and goes through,
/// another user's job holds nobody else up, and once the job ended the file is taken.
#[tokio::test]
async fn a_second_large_file_waits_for_the_running_job_and_a_small_one_does_not() {
    let (app, user) = spawn_app_and_user().await;
    let (file, _, _) = history(4_000, 1);
    let running = stopped_job(&app, &user, &file).await;
    let (other_file, _, _) = history(3_500, 2);
    let r = app.upload(&user, "", "text/csv", other_file.clone()).await;
    let problem = assert_problem(r, 409).await;
    let detail = problem["detail"].as_str().unwrap();
    assert!(detail.contains(&running.job_id.to_string()), "{problem}");

    let (small, _, _) = history(3_000, 3);
    let r = app.upload(&user, "", "text/csv", small).await;
    assert_eq!(r.status(), 201, "within the request, not a job");
    let stranger = app.new_user().await;
    let r = app
        .upload(&stranger, "", "text/csv", other_file.clone())
        .await;
    assert_eq!(r.status(), 202);

    // The running job ends (here: its worker vanished, so a read fails it): the next
    // file is a job.
    age(&app, &user, running).await;
    let r = app.upload(&user, "", "text/csv", other_file).await;
    assert_eq!(r.status(), 202);
}

#[tokio::test]
async fn a_job_whose_wallet_changed_currency_fails_without_booking_a_row() {
    let (app, user) = spawn_app_and_user().await;
    let (file, _, _) = history(4_000, 1);
    let job_ref = stopped_job(&app, &user, &file).await;
    let usd = json!({"name": "Main", "initialBalance": 0, "currency": "USD"});
    assert_eq!(app.put(&user, "/api/wallet", &usd).await.status(), 200);
    let far = Instant::now() + Duration::from_secs(3600);
    job::work_chunks(&app.state.store, job_ref, far, 4)
        .await
        .unwrap();
    let job: Value = app
        .get_json(&user, &format!("/api/imports/{}", job_ref.job_id))
        .await;
    assert_eq!(
        (&job["status"], &job["created"]),
        (&json!("failed"), &json!(0))
    );
    let why = job["errors"].as_array().unwrap().last().unwrap()["message"].to_string();
    assert!(why.contains("currency changed from EUR to USD"), "{why}");
    let list = app.list_transactions(&user, "").await;
    let body: Value = list.json().await.unwrap();
    assert_eq!(body, json!([]), "no row was booked");
}

#[tokio::test]
async fn a_job_stopped_half_way_is_finished_by_posting_the_file_again() {
    let (app, user) = spawn_app_and_user().await;
    let (file, balance, months) = history(6_000, 2);
    let (job_ref, location) = abandoned_job(&app, &user, &file, 3).await;
    let half: Value = app.get_json(&user, &location).await;
    assert_eq!(
        (&half["status"], &half["created"], &half["finishedAt"]),
        (&json!("running"), &json!(3_000), &Value::Null)
    );

    // Once it is failed (its worker saved nothing for the stall time), posting the file
    // again imports the rest, and every row is there once.
    age(&app, &user, job_ref).await;
    let rest = app.import_by_job(&user, &file).await;
    assert_eq!(
        (&rest["status"], &rest["created"], &rest["duplicates"]),
        (&json!("done"), &json!(3_000), &json!(3_000)),
        "{}",
        rest["errors"]
    );
    app.assert_history(&user, balance, &months).await;
}

/// A job whose worker vanished (the process stopped, Lambda's retries ran out) does not
/// stay `running` for ever: once it saved nothing for [`job::STALL_SECS`], a read fails
/// it, a late worker stops there, and posting the file again imports the rest.
#[tokio::test]
async fn a_job_whose_worker_vanished_is_failed_when_read_and_the_file_posted_again_ends_it() {
    let (app, user) = spawn_app_and_user().await;
    let (file, balance, months) = history(4_000, 1);
    let store = &app.state.store;
    let (job_ref, location) = abandoned_job(&app, &user, &file, 1).await;
    let running: Value = app.get_json(&user, &location).await;
    assert_eq!(running["status"], "running");

    // Its last progress, as if saved long ago.
    age(&app, &user, job_ref).await;

    let failed: Value = app.get_json(&user, &location).await;
    assert_eq!(
        (&failed["status"], &failed["created"]),
        (&json!("failed"), &json!(1_000))
    );
    assert!(failed["finishedAt"].is_string());
    let why = failed["errors"].as_array().unwrap().last().unwrap();
    assert!(
        why["message"].to_string().contains("worker stopped"),
        "{why}"
    );
    assert_eq!(
        why["row"], 1_001,
        "the first row of the chunk it did not reach"
    );
    // A late worker finds it failed and writes nothing.
    let far = Instant::now() + Duration::from_secs(3600);
    assert!(!job::work_chunks(store, job_ref, far, 1).await.unwrap());
    let after: Value = app.get_json(&user, &location).await;
    assert_eq!(after["created"], 1_000);

    let rest = app.import_by_job(&user, &file).await;
    assert_eq!(
        (&rest["status"], &rest["created"], &rest["duplicates"]),
        (&json!("done"), &json!(3_000), &json!(1_000))
    );
    app.assert_history(&user, balance, &months).await;
}

#[tokio::test]
async fn a_file_over_the_row_limit_is_refused_naming_the_limit() {
    let (app, user) = spawn_app_and_user().await;
    let max = imports_fn::parse::MAX_ROWS;
    let mut file = String::from("date,amount\n");
    for i in 0..=max {
        file.push_str(&format!("2024-01-{:02},-{}.50\n", i % 28 + 1, i % 90 + 1));
    }
    let problem = assert_problem(app.upload(&user, "", "text/csv", file).await, 400).await;
    assert_eq!(
        problem["detail"],
        format!("the file has more than {max} data rows; split it")
    );
}
