//! A schedule's exceptions over a long life: those of occurrences long created or passed
//! are pruned, so past edits never fill the per-schedule limit; the limit of changes
//! still to come stays a 409 that names it.

use serde_json::json;
use shared::domain::recurring::{Exception, MAX_ALL_EXCEPTIONS, MAX_EXCEPTIONS};
use time::{Date, Duration, OffsetDateTime};

use crate::helpers::{assert_problem, spawn_app_and_user};

fn today() -> Date {
    OffsetDateTime::now_utc().date()
}

#[tokio::test]
async fn long_past_exceptions_are_pruned_and_the_limit_still_holds_for_upcoming_ones() {
    let (app, user) = spawn_app_and_user().await;
    let body = json!({"amount": "10.00", "categoryId": 4, "start": today().to_string(),
        "rrule": "FREQ=DAILY"});
    let id = app.create(&user, "/api/recurring", &body).await;
    let store = &app.state.store;

    // Years of edits stored as a long-lived schedule has them: the whole limit of
    // exceptions of days long created or passed, and one of last month's.
    let mut r = store.get_recurring(user.id, id).await.unwrap().unwrap();
    let old = today() - Duration::days(4_000);
    for n in 0..MAX_ALL_EXCEPTIONS as i64 - 1 {
        r.exceptions
            .insert(old + Duration::days(n), Exception::Skip);
    }
    let recent = today() - Duration::days(30);
    r.exceptions.insert(recent, Exception::Skip);
    r.done = Some(today() - Duration::days(1));
    r.version += 1;
    store.put_recurring(&r, Some(r.version - 1)).await.unwrap();
    assert_eq!(r.exceptions.len(), MAX_ALL_EXCEPTIONS);

    // One more change to come: accepted, the long past ones pruned, last month's kept.
    let next = today() + Duration::days(3);
    let path = format!("/api/recurring/{id}/occurrences/{next}");
    let r2 = app.put(&user, &path, &json!({"skip": true})).await;
    assert_eq!(r2.status(), 200, "{:?}", r2.text().await);
    let stored = store.get_recurring(user.id, id).await.unwrap().unwrap();
    let kept: Vec<Date> = stored.exceptions.keys().copied().collect();
    assert_eq!(kept, [recent, next]);

    // Changes still to come stop at the limit, with a 409 naming it.
    let mut r = stored;
    for n in 0..MAX_EXCEPTIONS as i64 - 1 {
        let nominal = next + Duration::days(1 + n);
        r.exceptions.insert(nominal, Exception::Skip);
    }
    r.version += 1;
    store.put_recurring(&r, Some(r.version - 1)).await.unwrap();
    assert_eq!(r.upcoming_exceptions(), MAX_EXCEPTIONS);
    let beyond = next + Duration::days(MAX_EXCEPTIONS as i64 + 5);
    let path = format!("/api/recurring/{id}/occurrences/{beyond}");
    let problem = assert_problem(app.put(&user, &path, &json!({"skip": true})).await, 409).await;
    let detail = problem["detail"].as_str().unwrap();
    assert!(
        detail.contains(&format!("at most {MAX_EXCEPTIONS}")),
        "{problem}"
    );
    let after = store.get_recurring(user.id, id).await.unwrap().unwrap();
    assert_eq!(after.exceptions.len(), MAX_EXCEPTIONS + 1);
}
