//! Recurring transactions: real calendars through the API, per-occurrence changes, the
//! job creating due occurrences exactly once however it runs, and the forecast.

use std::time::{Duration, Instant};

use reqwest::Method;
use serde_json::{json, Value};
use shared::app::recurring::{run_due, run_due_from, PER_USER_PER_RUN};
use shared::store::keys::shard_of;
use shared::store::on_behalf_of;
use time::{Date, OffsetDateTime};

use crate::helpers::{assert_problem, error_fields, pluck, spawn_app_and_user, TestApp, TestUser};

fn today() -> Date {
    OffsetDateTime::now_utc().date()
}

fn day(d: Date) -> String {
    d.to_string()
}

fn days(n: i64) -> time::Duration {
    time::Duration::days(n)
}

async fn schedule(app: &TestApp, user: &TestUser, body: Value) -> u64 {
    app.create(user, "/api/recurring", &body).await
}

/// A DEBIT schedule of 10.00 in Groceries with this rule and start.
fn groceries(rrule: &str, start: &str) -> Value {
    json!({"amount": "10.00", "categoryId": 4, "start": start, "rrule": rrule})
}

/// [`groceries`] with `backfill`.
fn backfilled(rrule: &str, start: Date) -> Value {
    let mut body = groceries(rrule, &day(start));
    body["backfill"] = json!(true);
    body
}

/// `(date, nominalDate, status)` of the occurrences in the window.
async fn occurrences(app: &TestApp, user: &TestUser, id: u64, from: &str, to: &str) -> Vec<Value> {
    let path = format!("/api/recurring/{id}/occurrences?from={from}&to={to}");
    let r = app.get(user, &path).await;
    assert_eq!(r.status(), 200, "{path}");
    r.json().await.unwrap()
}

async fn dates(app: &TestApp, user: &TestUser, body: Value, from: &str, to: &str) -> Vec<String> {
    let id = schedule(app, user, body).await;
    occurrences(app, user, id, from, to)
        .await
        .iter()
        .map(|o| o["date"].as_str().unwrap().to_owned())
        .collect()
}

/// The job the hourly schedule runs, in the recurring function (its calls are that
/// function's, for the check of its IAM policy).
async fn run_job(app: &TestApp) -> shared::app::recurring::JobReport {
    let deadline = Instant::now() + Duration::from_secs(20);
    let job = run_due(&app.state.store, today(), deadline);
    on_behalf_of("recurring", job).await.unwrap()
}

#[tokio::test]
async fn month_ends_fall_on_the_last_day_including_february_in_leap_and_common_years() {
    let (app, user) = spawn_app_and_user().await;
    let rent = groceries("FREQ=MONTHLY;BYMONTHDAY=-1", "2024-01-01");
    let got = dates(&app, &user, rent, "2024-01-01", "2025-03-31").await;
    assert_eq!(got.len(), 15);
    assert_eq!(got[..3], ["2024-01-31", "2024-02-29", "2024-03-31"]);
    assert_eq!(got[12..], ["2025-01-31", "2025-02-28", "2025-03-31"]);
    assert!(got.contains(&"2024-04-30".to_owned()));
}

#[tokio::test]
async fn the_last_business_day_and_weekend_moves_land_on_weekdays() {
    let (app, user) = spawn_app_and_user().await;
    let salary = groceries(
        "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1",
        "2026-01-01",
    );
    let got = dates(&app, &user, salary, "2026-01-01", "2026-05-31").await;
    assert_eq!(
        got,
        [
            "2026-01-30",
            "2026-02-27",
            "2026-03-31",
            "2026-04-30",
            "2026-05-29"
        ]
    );
    // 2026-02-01 and 2026-03-01 are Sundays.
    let mut after = groceries("FREQ=MONTHLY", "2026-01-01");
    after["weekend"] = json!("after");
    let got = dates(&app, &user, after, "2026-01-01", "2026-03-31").await;
    assert_eq!(got, ["2026-01-01", "2026-02-02", "2026-03-02"]);
    let mut before = groceries("FREQ=MONTHLY", "2026-01-01");
    before["weekend"] = json!("before");
    before["backfill"] = json!(true);
    let id = schedule(&app, &user, before).await;
    let listed = occurrences(&app, &user, id, "2026-01-01", "2026-02-28").await;
    assert_eq!(listed[1]["date"], "2026-01-30");
    assert_eq!(listed[1]["nominalDate"], "2026-02-01");
    assert_eq!(listed[1]["status"], "scheduled");
    assert_eq!(listed[1]["amount"]["amount"].to_string(), "10.00");
}

#[tokio::test]
async fn count_and_until_end_a_schedule_and_skip_backward_keeps_the_31st_in_short_months() {
    let (app, user) = spawn_app_and_user().await;
    let loan = groceries("FREQ=MONTHLY;COUNT=24", "2026-01-15");
    let got = dates(&app, &user, loan, "2026-01-01", "2027-12-31").await;
    assert_eq!((got.len(), got[23].as_str()), (24, "2027-12-15"));
    // (rule, start, end of the window from 2026-01-01, the dates in it)
    let cases: [(&str, &str, &str, &[&str]); 4] = [
        (
            "FREQ=MONTHLY;COUNT=3",
            "2026-01-15",
            "2026-12-31",
            &["2026-01-15", "2026-02-15", "2026-03-15"],
        ),
        (
            "FREQ=WEEKLY;UNTIL=20260131",
            "2026-01-01",
            "2026-03-31",
            &[
                "2026-01-01",
                "2026-01-08",
                "2026-01-15",
                "2026-01-22",
                "2026-01-29",
            ],
        ),
        (
            "RSCALE=GREGORIAN;FREQ=MONTHLY;BYMONTHDAY=31;SKIP=BACKWARD",
            "2026-01-31",
            "2026-04-30",
            &["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30"],
        ),
        (
            "FREQ=MONTHLY;BYMONTHDAY=31",
            "2026-01-31",
            "2026-05-31",
            &["2026-01-31", "2026-03-31", "2026-05-31"],
        ),
    ];
    for (rrule, start, to, expected) in cases {
        let got = dates(&app, &user, groceries(rrule, start), "2026-01-01", to).await;
        assert_eq!(got, expected, "{rrule}");
    }
}

#[tokio::test]
async fn invalid_rules_and_bodies_are_400_naming_the_part() {
    let (app, user) = spawn_app_and_user().await;
    for (rrule, part) in [
        ("FREQ=HOURLY", "FREQ"),
        ("FREQ=MONTHLY;COUNT=2;UNTIL=20270101", ""),
        ("FREQ=MONTHLY;BYFOO=1", "BYFOO"),
    ] {
        let r = app
            .post(&user, "/api/recurring", &groceries(rrule, "2026-01-01"))
            .await;
        let problem = assert_problem(r, 400).await;
        assert_eq!(error_fields(&problem), ["rrule"], "{rrule}");
        assert!(problem.to_string().contains(part), "{rrule}: {problem}");
    }
    let mut bad = groceries("FREQ=DAILY", "2026-01-01");
    bad["weekend"] = json!("sunday");
    bad["amount"] = json!("1.234");
    let problem = assert_problem(app.post(&user, "/api/recurring", &bad).await, 400).await;
    assert_eq!(error_fields(&problem), ["weekend", "amount"]);
    let r = app
        .post(
            &user,
            "/api/recurring",
            &groceries("FREQ=DAILY", "2026-01-01"),
        )
        .await;
    assert_eq!(r.status(), 201);
    assert!(r.headers()["location"]
        .to_str()
        .unwrap()
        .starts_with("/api/recurring/"));
    assert_eq!(r.headers()["etag"], "\"1\"");
    let id: Value = r.json().await.unwrap();
    let path = format!("/api/recurring/{}/occurrences", id["id"]);
    let wide = format!("{path}?from=2026-01-01&to=2028-01-03");
    let problem = assert_problem(app.get(&user, &wide).await, 400).await;
    assert_eq!(error_fields(&problem), ["to"]);
    let one_day: Vec<Value> = app
        .get_json(&user, &format!("{path}?from=2026-01-05&to=2026-01-05"))
        .await;
    assert_eq!(one_day.len(), 1);
}

#[tokio::test]
async fn a_skipped_and_a_moved_occurrence_show_in_the_list_until_restored() {
    let (app, user) = spawn_app_and_user().await;
    let id = schedule(
        &app,
        &user,
        groceries("FREQ=MONTHLY;BYMONTHDAY=10", "2030-01-01"),
    )
    .await;
    let base = format!("/api/recurring/{id}/occurrences");
    let r = app
        .put(&user, &format!("{base}/2030-02-10"), &json!({"skip": true}))
        .await;
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["etag"], "\"2\"");
    let moved = json!({"date": "2030-03-12", "amount": "99.50"});
    let r = app.put(&user, &format!("{base}/2030-03-10"), &moved).await;
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["date"], "2030-03-12");
    let listed = occurrences(&app, &user, id, "2030-01-01", "2030-04-30").await;
    let seen: Vec<(String, String, String)> = listed
        .iter()
        .map(|o| {
            let s = |k: &str| o[k].as_str().unwrap().to_owned();
            (s("date"), s("status"), o["amount"]["amount"].to_string())
        })
        .collect();
    let row = |d: &str, s: &str, a: &str| (d.to_owned(), s.to_owned(), a.to_owned());
    assert_eq!(
        seen,
        [
            row("2030-01-10", "scheduled", "10.00"),
            row("2030-02-10", "skipped", "10.00"),
            row("2030-03-12", "scheduled", "99.50"),
            row("2030-04-10", "scheduled", "10.00"),
        ]
    );
    // Not an occurrence of the rule, or too far a move: 404 and 400.
    let r = app
        .put(&user, &format!("{base}/2030-02-11"), &json!({"skip": true}))
        .await;
    assert_problem(r, 404).await;
    let far = json!({"date": "2030-06-12"});
    assert_problem(
        app.put(&user, &format!("{base}/2030-04-10"), &far).await,
        400,
    )
    .await;
    // Restoring deletes the change; there is none to delete a second time.
    let skipped = format!("{base}/2030-02-10");
    for status in [204, 404] {
        assert_eq!(app.delete(&user, &skipped).await.status(), status);
    }
    let listed = occurrences(&app, &user, id, "2030-02-01", "2030-02-28").await;
    assert_eq!(listed[0]["status"], "scheduled");
}

/// The job creates occurrences in the order of their nominal dates: a move past another
/// occurrence still to come is `400` on `date` (it would wait for that one), and so is
/// the restore that would bring one back past a moved one (`409`); a skipped one is
/// passed freely.
#[tokio::test]
async fn an_occurrence_cannot_move_past_another_still_to_come() {
    let (app, user) = spawn_app_and_user().await;
    // Mondays: 2030-01-07, 01-14, 01-21, ...
    let id = schedule(&app, &user, groceries("FREQ=WEEKLY", "2030-01-07")).await;
    let second = format!("/api/recurring/{id}/occurrences/2030-01-14");
    for date in ["2030-01-06", "2030-01-22"] {
        let r = app.put(&user, &second, &json!({"date": date})).await;
        let problem = assert_problem(r, 400).await;
        assert_eq!(error_fields(&problem), ["date"], "{date}");
    }
    // Between the two, or on the day of one: fine.
    for date in ["2030-01-07", "2030-01-10", "2030-01-21"] {
        let r = app.put(&user, &second, &json!({"date": date})).await;
        assert_eq!(r.status(), 200, "{date}");
    }
    // Past a skipped one, which then may not come back.
    let first = skip(&app, &user, id, "2030-01-07").await;
    let r = app
        .put(&user, &second, &json!({"date": "2030-01-05"}))
        .await;
    assert_eq!(r.status(), 200);
    let problem = assert_problem(app.delete(&user, &first).await, 409).await;
    let detail = problem["detail"].as_str().unwrap();
    assert!(detail.contains("2030-01-14"), "{problem}");
    assert_eq!(app.delete(&user, &second).await.status(), 204);
    assert_eq!(app.delete(&user, &first).await.status(), 204);
}

#[tokio::test]
async fn backfill_creates_exactly_the_due_occurrences_once_however_the_job_runs() {
    let (app, user) = spawn_app_and_user().await;
    let start = today() - days(70);
    let weekly = schedule(&app, &user, backfilled("FREQ=WEEKLY", start)).await;
    // Without backfill only today's occurrence is due.
    let daily = schedule(
        &app,
        &user,
        groceries("FREQ=DAILY", &day(today() - days(5))),
    )
    .await;
    let future = schedule(
        &app,
        &user,
        groceries("FREQ=DAILY", &day(today() + days(1))),
    )
    .await;

    let (a, b, c) = tokio::join!(run_job(&app), run_job(&app), run_job(&app));
    assert_eq!(a.created + b.created + c.created, 12, "{a:?} {b:?} {c:?}");
    for _ in 0..3 {
        assert_eq!(run_job(&app).await.created, 0);
    }
    let listed = app.listed(&user, "?limit=200").await;
    assert_eq!(listed.len(), 12);
    assert_eq!(app.balance(&user).await, "-120.00");

    let window = (day(start - days(7)), day(today()));
    let occ = occurrences(&app, &user, weekly, &window.0, &window.1).await;
    assert_eq!(occ.len(), 11);
    for o in &occ {
        assert_eq!(o["status"], "created");
        let id = o["transactionId"].as_u64().unwrap();
        assert!(id > 0 && id < 1 << 53);
        let made = listed
            .iter()
            .find(|t| t["id"] == id)
            .expect("its transaction");
        assert_eq!(made["date"], o["date"]);
        assert_eq!(made["recurringId"], weekly);
    }
    // The daily one without backfill: days before its creation are passed over.
    let occ = occurrences(&app, &user, daily, &window.0, &window.1).await;
    let status: Vec<&str> = pluck(&occ, "status", Value::as_str);
    assert_eq!(
        status,
        ["skipped", "skipped", "skipped", "skipped", "skipped", "created"]
    );
    let created = occurrences(&app, &user, future, &window.0, &window.1).await;
    assert!(created.is_empty());
    // A created occurrence cannot change; deleting the schedule keeps its transactions.
    let path = format!("/api/recurring/{weekly}/occurrences/{}", day(start));
    assert_problem(app.put(&user, &path, &json!({"skip": true})).await, 409).await;
    assert_eq!(
        app.delete(&user, &format!("/api/recurring/{weekly}"))
            .await
            .status(),
        204
    );
    assert_eq!(run_job(&app).await.created, 0);
    let kept = app.listed(&user, "?limit=200").await;
    assert_eq!(kept.len(), 12);
    assert_eq!(
        kept.iter().filter(|t| t["recurringId"] == weekly).count(),
        11
    );
}

#[tokio::test]
async fn the_forecast_ends_at_the_balance_plus_the_scheduled_occurrences() {
    let (app, user) = spawn_app_and_user().await;
    app.add(&user, "42.10", 4, &day(today())).await;
    let mut weekly = groceries("FREQ=WEEKLY", &day(today() + days(1)));
    weekly["amount"] = json!(25);
    let weekly = schedule(&app, &user, weekly).await;
    let salary = json!({"amount": "500.00", "categoryId": 1, "start": day(today() + days(2)),
                        "rrule": "FREQ=MONTHLY"});
    schedule(&app, &user, salary).await;
    let skip = format!(
        "/api/recurring/{weekly}/occurrences/{}",
        day(today() + days(8))
    );
    assert_eq!(
        app.put(&user, &skip, &json!({"skip": true})).await.status(),
        200
    );

    let to = day(today() + days(28));
    let f: Value = app.get_json(&user, &format!("/api/forecast?to={to}")).await;
    assert_eq!(f["startBalance"]["amount"].to_string(), "-42.10");
    assert_eq!(f["startBalance"]["currency"]["code"], "EUR");
    // + 500.00 - 3 × 25.00 (one of the four weeks skipped)
    assert_eq!(f["endBalance"]["amount"].to_string(), "382.90");
    let points = f["points"].as_array().unwrap();
    assert_eq!(points.len(), 4);
    assert_eq!(points[0]["date"], day(today() + days(1)));
    assert_eq!(points[0]["change"]["amount"].to_string(), "-25.00");
    assert_eq!(points[3]["balance"], f["endBalance"]);
    let too_far = format!("/api/forecast?to={}", day(today() + days(800)));
    assert_problem(app.get(&user, &too_far).await, 400).await;
}

#[tokio::test]
async fn another_users_schedules_are_invisible() {
    let (app, owner) = spawn_app_and_user().await;
    let other = app.new_user().await;
    let id = schedule(&app, &owner, groceries("FREQ=DAILY", "2030-01-01")).await;
    let path = format!("/api/recurring/{id}");
    assert_problem(app.get(&other, &path).await, 404).await;
    let body = groceries("FREQ=WEEKLY", "2030-01-01");
    assert_problem(app.put(&other, &path, &body).await, 404).await;
    assert_problem(app.delete(&other, &path).await, 404).await;
    let occ = format!("{path}/occurrences?from=2030-01-01&to=2030-01-31");
    assert_problem(app.get(&other, &occ).await, 404).await;
    let skip = format!("{path}/occurrences/2030-01-02");
    assert_problem(app.put(&other, &skip, &json!({"skip": true})).await, 404).await;
    let listed: Vec<Value> = app.get_json(&other, "/api/recurring").await;
    assert!(listed.is_empty());
    // The owner's category is not the other user's to use (as on a transaction).
    let (_, _, category) = app.create_refs(&owner, "t", "p", "Rent").await;
    let mut theirs = groceries("FREQ=DAILY", "2030-01-01");
    theirs["categoryId"] = json!(category);
    let problem = assert_problem(app.post(&other, "/api/recurring", &theirs).await, 400).await;
    assert_eq!(error_fields(&problem), ["categoryId"]);
    // The owner still sees it, with its version.
    let r = app.call(Method::GET, &path, Some(&owner), None).await;
    assert_eq!(r.headers()["etag"], "\"1\"");
}

#[tokio::test]
async fn edits_are_versioned_and_lists_page_with_a_link() {
    let (app, user) = spawn_app_and_user().await;
    for _ in 0..3 {
        schedule(&app, &user, groceries("FREQ=DAILY", "2030-01-01")).await;
    }
    let r = app.get(&user, "/api/recurring?limit=2").await;
    let link = r.headers()["link"].to_str().unwrap().to_owned();
    let first: Vec<Value> = r.json().await.unwrap();
    assert_eq!(first.len(), 2);
    let next = link.trim_start_matches('<').split('>').next().unwrap();
    let second: Vec<Value> = app.get_json(&user, next).await;
    assert_eq!(second.len(), 1);
    let id = second[0]["id"].as_u64().unwrap();
    let path = format!("/api/recurring/{id}");
    let body = groceries("FREQ=WEEKLY", "2030-01-01");
    let stale = app.put_if_match(&user, &path, "\"7\"", &body).await;
    assert_eq!(stale.status(), 412);
    let r = app.put_if_match(&user, &path, "\"1\"", &body).await;
    assert_eq!(r.status(), 200);
    let updated: Value = r.json().await.unwrap();
    assert_eq!(
        (updated["rrule"].as_str(), updated["nextDate"].as_str()),
        (Some("FREQ=WEEKLY"), Some("2030-01-01"))
    );
}

#[tokio::test]
async fn a_user_keeps_at_most_100_schedules() {
    let (app, user) = spawn_app_and_user().await;
    for _ in 0..100 {
        schedule(&app, &user, groceries("FREQ=DAILY", "2030-01-01")).await;
    }
    let r = app
        .post(
            &user,
            "/api/recurring",
            &groceries("FREQ=DAILY", "2030-01-01"),
        )
        .await;
    assert_problem(r, 409).await;
}

/// The first Saturday on or after `d`.
fn saturday_from(mut d: Date) -> Date {
    while d.weekday() != time::Weekday::Saturday {
        d = d.next_day().unwrap();
    }
    d
}

#[tokio::test]
async fn a_first_occurrence_moved_before_start_is_still_scheduled_and_created() {
    let (app, user) = spawn_app_and_user().await;
    // A start on a coming Saturday, moved to the Friday before: scheduled, and next.
    let start = saturday_from(today() + days(8));
    let mut ahead = groceries("FREQ=WEEKLY", &day(start));
    ahead["weekend"] = json!("before");
    let ahead = schedule(&app, &user, ahead).await;
    let friday = day(start - days(1));
    let list = occurrences(&app, &user, ahead, &day(today()), &day(start + days(7))).await;
    assert_eq!(list[0]["date"], friday.as_str(), "{list:?}");
    assert_eq!(list[0]["nominalDate"], day(start));
    assert_eq!(list[0]["status"], "scheduled");
    let shown: Value = app
        .get_json(&user, &format!("/api/recurring/{ahead}"))
        .await;
    assert_eq!(shown["nextDate"], friday.as_str());

    // Backfilled from a past Saturday: its Friday is created with the others.
    let start = saturday_from(today() - days(40));
    let mut past = backfilled("FREQ=WEEKLY", start);
    past["weekend"] = json!("before");
    let past = schedule(&app, &user, past).await;
    let due = (0..)
        .map(|k| start - days(1) + days(7 * k))
        .take_while(|d| *d <= today())
        .count();
    assert_eq!(run_job(&app).await.created, due);
    let list = occurrences(&app, &user, past, &day(start - days(7)), &day(today())).await;
    let first = &list[0];
    assert_eq!(first["date"], day(start - days(1)).as_str());
    assert_eq!(first["status"], "created", "{list:?}");
    let statuses: Vec<&str> = pluck(&list, "status", Value::as_str);
    assert_eq!(statuses, vec!["created"; due]);
}

#[tokio::test]
async fn a_new_calendar_plans_from_the_edit_on_and_the_old_ones_transactions_stay() {
    let (app, user) = spawn_app_and_user().await;
    let start = today() - days(75);
    let mut body = backfilled("FREQ=MONTHLY;BYMONTHDAY=-1", start);
    let id = schedule(&app, &user, body.clone()).await;
    let created = run_job(&app).await.created;
    assert!(created >= 2, "{created}");
    // Another day of the month, from the same start: nothing before today is created
    // again, and nothing the new calendar did not create shows as created.
    body["rrule"] = json!("FREQ=MONTHLY;BYMONTHDAY=15");
    let path = format!("/api/recurring/{id}");
    let r = app.put(&user, &path, &body).await;
    assert_eq!(r.status(), 200);
    let edited: Value = r.json().await.unwrap();
    assert_eq!(edited["backfill"], true);
    assert_eq!(
        run_job(&app).await.created,
        usize::from(today().day() == 15)
    );
    let list = occurrences(&app, &user, id, &day(start), &day(today() - days(1))).await;
    assert!(!list.is_empty());
    for o in &list {
        assert_eq!(o["status"], "skipped", "{o}");
        assert!(o["transactionId"].is_null(), "{o}");
    }
    let txns: Value = app
        .get_json(&user, &format!("/api/transactions?from={}", day(start)))
        .await;
    let items = txns["items"].as_array().or(txns.as_array()).unwrap();
    let mine = items.iter().filter(|t| t["recurringId"] == id).count();
    assert_eq!(mine, created + usize::from(today().day() == 15));
}

/// A schedule holds its amount in the wallet's currency: while one exists the currency
/// cannot change (409, as with budgets), so no occurrence is booked at a EUR amount in a
/// JPY or USD wallet; once it is deleted the change goes through.
#[tokio::test]
async fn the_wallet_currency_stays_while_a_schedule_holds_amounts_in_it() {
    let (app, user) = spawn_app_and_user().await;
    let rent = json!({"amount": "1200.50", "categoryId": 4, "start": day(today() + days(3)),
        "rrule": "FREQ=MONTHLY"});
    let id = schedule(&app, &user, rent).await;
    let jpy = json!({"name": "Main", "initialBalance": 0, "currency": "JPY"});
    let problem = assert_problem(app.put(&user, "/api/wallet", &jpy).await, 409).await;
    let detail = problem["detail"].as_str().unwrap();
    assert!(detail.contains("recurring"), "{detail}");
    let wallet: Value = app.get_json(&user, "/api/wallet").await;
    assert_eq!(wallet["currency"]["code"], "EUR", "{wallet}");
    // The same currency (a rename) is no change of currency.
    let renamed = json!({"name": "Daily", "initialBalance": 0, "currency": "EUR"});
    assert_eq!(app.put(&user, "/api/wallet", &renamed).await.status(), 200);

    let path = format!("/api/recurring/{id}");
    assert_eq!(app.delete(&user, &path).await.status(), 204);
    assert_eq!(app.put(&user, "/api/wallet", &jpy).await.status(), 200);
}

/// Skips the occurrence at `nominal`; answers its path.
async fn skip(app: &TestApp, user: &TestUser, id: u64, nominal: &str) -> String {
    let path = format!("/api/recurring/{id}/occurrences/{nominal}");
    let r = app.put(user, &path, &json!({"skip": true})).await;
    assert_eq!(r.status(), 200, "{path}");
    path
}

/// A skip of today or later stays the user's: the job passing the days before it (a daily
/// schedule creating today's) does not pass the skip, so restoring it works; a skip the
/// job has passed (its day is over) cannot be restored, with a 409 that says so.
#[tokio::test]
async fn a_skip_still_to_come_stays_restorable_after_the_job_runs() {
    let (app, user) = spawn_app_and_user().await;
    let daily = schedule(&app, &user, groceries("FREQ=DAILY", &day(today()))).await;
    let next = day(today() + days(1));
    let skipped_today = skip(&app, &user, daily, &day(today())).await;
    let tomorrow = skip(&app, &user, daily, &next).await;
    assert_eq!(run_job(&app).await.created, 0);
    // Today's skip, restored the same day after the job ran: created on the next run.
    assert_eq!(app.delete(&user, &skipped_today).await.status(), 204);
    assert_eq!(run_job(&app).await.created, 1);
    assert_eq!(app.delete(&user, &tomorrow).await.status(), 204);
    let listed = occurrences(&app, &user, daily, &next, &next).await;
    assert_eq!(listed[0]["status"], "scheduled", "{listed:?}");

    let start = today() - days(14);
    let weekly = schedule(&app, &user, backfilled("FREQ=WEEKLY", start)).await;
    let first = skip(&app, &user, weekly, &day(start)).await;
    assert_eq!(run_job(&app).await.created, 2);
    let problem = assert_problem(app.delete(&user, &first).await, 409).await;
    assert!(
        problem["detail"].as_str().unwrap().contains("passed"),
        "{problem}"
    );
    let listed = occurrences(&app, &user, weekly, &day(start), &day(start)).await;
    assert_eq!(listed[0]["status"], "skipped");
}

/// An occurrence moved to today from a week ahead is created today; a new calendar then
/// shows nothing up to that nominal date as created (no transaction id without its
/// transaction), and plans from a few days after it.
#[tokio::test]
async fn a_new_calendar_after_an_early_creation_shows_only_transactions_that_exist() {
    let (app, user) = spawn_app_and_user().await;
    let nominal = today() + days(7);
    let mut body = groceries("FREQ=WEEKLY", &day(nominal));
    let id = schedule(&app, &user, body.clone()).await;
    let moved = format!("/api/recurring/{id}/occurrences/{}", day(nominal));
    let early = json!({"date": day(today())});
    assert_eq!(app.put(&user, &moved, &early).await.status(), 200);
    assert_eq!(run_job(&app).await.created, 1);
    body["rrule"] = json!("FREQ=DAILY");
    body["start"] = json!(day(today()));
    assert_eq!(
        app.put(&user, &format!("/api/recurring/{id}"), &body)
            .await
            .status(),
        200
    );
    // The new calendar begins three days after the nominal date created (a Saturday's
    // moved to the Monday after would not count either).
    let begins = nominal + days(3);
    let listed = occurrences(&app, &user, id, &day(today()), &day(begins)).await;
    let statuses: Vec<&str> = pluck(&listed, "status", Value::as_str);
    let mut expected = vec!["skipped"; 10];
    expected.push("scheduled");
    assert_eq!(statuses, expected, "{listed:?}");
    let shown: Value = app.get_json(&user, &format!("/api/recurring/{id}")).await;
    assert_eq!(shown["nextDate"], day(begins));
    assert_eq!(run_job(&app).await.created, 0);
    assert_eq!(app.listed(&user, "").await.len(), 1);
}

/// A backfill creates at most 1,000 past occurrences: a daily rule 1,000 days back is
/// refused naming `backfill`, 999 days back (1,000 with today) is accepted, and without
/// backfill any start is.
#[tokio::test]
async fn a_backfill_is_bounded_to_a_thousand_past_occurrences() {
    let (app, user) = spawn_app_and_user().await;
    let daily_since = |n: i64| backfilled("FREQ=DAILY", today() - days(n));
    let r = app.post(&user, "/api/recurring", &daily_since(1000)).await;
    let problem = assert_problem(r, 400).await;
    assert_eq!(error_fields(&problem), ["backfill"], "{problem}");
    schedule(&app, &user, daily_since(999)).await;
    let old = groceries("FREQ=DAILY", "1990-01-01");
    let id = schedule(&app, &user, old).await;
    let shown: Value = app.get_json(&user, &format!("/api/recurring/{id}")).await;
    assert_eq!(shown["nextDate"], day(today()), "{shown}");
}

/// One user's backlog (schedules backfilled years back: thousands of occurrences due)
/// does not hold up anyone else's: a run, even one that starts at that user's shard,
/// gives them [`PER_USER_PER_RUN`] occurrences and then creates the other user's due
/// one; the backlog goes on in the next runs.
#[tokio::test]
async fn a_heavy_users_backlog_does_not_delay_another_users_occurrence_past_one_run() {
    let (app, heavy) = spawn_app_and_user().await;
    let long_ago = today() - days(990);
    for _ in 0..3 {
        schedule(&app, &heavy, backfilled("FREQ=DAILY", long_ago)).await;
    }
    let other = app.new_user().await;
    let due = schedule(&app, &other, groceries("FREQ=DAILY", &day(today()))).await;

    // A deadline far shorter than the 2,974 writes take (locally, under load, 50 ms each),
    // ample for the share and one more.
    let deadline = Instant::now() + Duration::from_secs(45);
    let first = shard_of(heavy.id);
    let run = run_due_from(&app.state.store, today(), deadline, first);
    let report = on_behalf_of("recurring", run).await.unwrap();
    let listed = occurrences(&app, &other, due, &day(today()), &day(today())).await;
    assert_eq!(listed[0]["status"], "created", "{report:?} {listed:?}");
    assert_eq!(report.created, PER_USER_PER_RUN + 1, "{report:?}");
    assert!(report.finished && report.deferred >= 1, "{report:?}");

    // The next run goes on with the backlog where this one stopped.
    let deadline = Instant::now() + Duration::from_secs(45);
    let run = run_due_from(&app.state.store, today(), deadline, first);
    let next = on_behalf_of("recurring", run).await.unwrap();
    assert_eq!(next.created, PER_USER_PER_RUN, "{next:?}");
}
