//! Imports that race: concurrent imports naming the same new categories and providers make
//! each once (the name reservations), and a job's worker retried after writing part of a
//! chunk counts its own rows created, not duplicates (the markers carry the job's id).

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use reqwest::Response;
use rust_decimal::Decimal;
use serde_json::{json, Value};
use shared::app::imports::job;
use shared::app::imports::REPEAT_MESSAGE;
use shared::store::import_jobs::StoredJob;

use crate::helpers::{next_link, spawn_app_and_user, TestApp, TestUser};
use crate::import_jobs::stopped_job;

/// New names per file.
const NAMES: usize = 20;

/// Import `k`'s file: a row a name, each its own amount (so no row is another import's).
fn named_file(k: usize) -> String {
    let mut file = String::from("date,amount,category,note,provider\n");
    for i in 0..NAMES {
        let day = 1 + i % 28;
        let cents = k * 1_000 + i + 1;
        let name = i % NAMES;
        file.push_str(&format!(
            "2026-10-{day:02},-{}.{:02},Race cat {name},import {k} row {i},Race payee {name}\n",
            cents / 100,
            cents % 100
        ));
    }
    file
}

/// Every item of a list, following `Link: <path>; rel="next"`.
async fn all_pages(app: &TestApp, user: &TestUser, first: &str) -> Vec<Value> {
    let (mut next, mut all) = (Some(first.to_owned()), Vec::new());
    while let Some(path) = next.take() {
        let r: Response = app.get(user, &path).await;
        assert_eq!(r.status(), 200, "{path}");
        next = next_link(&r);
        all.extend(r.json::<Vec<Value>>().await.expect("a list"));
        assert!(all.len() < 10_000, "the list does not end");
    }
    all
}

/// Ids by name among `items`' `field` that start with `prefix`.
fn ids_by_name(items: &[Value], field: &str, prefix: &str) -> BTreeMap<String, Vec<u64>> {
    let mut out: BTreeMap<String, Vec<u64>> = BTreeMap::new();
    for item in items {
        let name = item[field].as_str().expect("a name");
        if name.starts_with(prefix) {
            out.entry(name.to_owned())
                .or_default()
                .push(item["id"].as_u64().expect("an id"));
        }
    }
    out
}

#[tokio::test]
async fn concurrent_imports_naming_the_same_new_categories_and_providers_make_each_once() {
    let (app, user) = spawn_app_and_user().await;
    // Each import as a client makes it: one that stopped part way or left rows to repeat
    // (eight writers on one wallet outlast retries and the time limit on a slow machine)
    // is repeated, as its answer says.
    let import = |k: usize| {
        let (app, user) = (&app, &user);
        async move {
            for _ in 0..8 {
                let r = app.upload(user, "", "text/csv", named_file(k)).await;
                let status = r.status();
                let body: Value = r.json().await.expect("a report");
                if status == 409 && body["detail"].to_string().contains("repeat it") {
                    continue;
                }
                assert_eq!(status, 201, "import {k}: {body}");
                let errors = body["errors"].as_array().unwrap();
                if !errors.is_empty() {
                    let repeat = errors.iter().all(|e| e["message"] == REPEAT_MESSAGE);
                    assert!(repeat, "import {k}: {body}");
                    continue;
                }
                // The rows an earlier try wrote are duplicates now.
                return body["created"].as_u64().unwrap() + body["duplicates"].as_u64().unwrap();
            }
            panic!("import {k} never ended");
        }
    };
    let reports = tokio::join!(
        import(0),
        import(1),
        import(2),
        import(3),
        import(4),
        import(5),
        import(6),
        import(7)
    );
    let reports = [
        reports.0, reports.1, reports.2, reports.3, reports.4, reports.5, reports.6, reports.7,
    ];
    assert_eq!(reports, [NAMES as u64; 8]);

    let categories = all_pages(&app, &user, "/api/categories?limit=100").await;
    let categories = ids_by_name(&categories, "categoryName", "Race cat ");
    let providers = all_pages(&app, &user, "/api/providers?limit=100").await;
    let providers = ids_by_name(&providers, "providerName", "Race payee ");
    for (kind, made) in [("category", &categories), ("provider", &providers)] {
        assert_eq!(made.len(), NAMES, "{kind}: {made:?}");
        assert!(made.values().all(|ids| ids.len() == 1), "{kind}: {made:?}");
    }

    // Every row names its category and provider by the one id each name has.
    let rows = all_pages(&app, &user, "/api/transactions?limit=200").await;
    assert_eq!(rows.len(), 8 * NAMES);
    let mut used: BTreeMap<usize, (BTreeSet<u64>, BTreeSet<u64>)> = BTreeMap::new();
    for t in &rows {
        let note = t["note"].as_str().expect("a note");
        let i: usize = note.rsplit(' ').next().unwrap().parse().unwrap();
        let entry = used.entry(i % NAMES).or_default();
        entry.0.insert(t["categoryId"].as_u64().unwrap());
        entry.1.insert(t["providerId"].as_u64().unwrap());
    }
    assert_eq!(used.len(), NAMES);
    for (name, (category, provider)) in used {
        let want_category = &categories[&format!("Race cat {name}")];
        let want_provider = &providers[&format!("Race payee {name}")];
        assert_eq!(category.into_iter().collect::<Vec<_>>(), *want_category);
        assert_eq!(provider.into_iter().collect::<Vec<_>>(), *want_provider);
    }
}

/// A job's file: `rows` rows, each its own amount; the balance they make.
fn job_file(rows: usize) -> (String, Decimal) {
    let mut file = String::from("Date,Amount,Memo\n");
    let mut balance = Decimal::ZERO;
    let first = time::Date::from_calendar_date(2020, time::Month::January, 1).unwrap();
    for i in 0..rows {
        let date = first + time::Duration::days((i % 2_000) as i64);
        let amount = -Decimal::new(i as i64 + 1, 2);
        file.push_str(&format!("{date},{amount},row {i}\n"));
        balance += amount;
    }
    (file, balance)
}

/// A worker that wrote the first 400 rows of the first chunk and was retried before it
/// saved its progress: the retried one finds those rows' markers its own and counts them
/// created, so `created + duplicates` is exactly the rows.
#[tokio::test]
async fn a_job_retried_after_writing_part_of_a_chunk_counts_every_row_once() {
    let (app, user) = spawn_app_and_user().await;
    let store = &app.state.store;
    let (file, balance) = job_file(4_000);
    let job_ref = stopped_job(&app, &user, &file).await;
    let location = format!("/api/imports/{}", job_ref.job_id);

    // The job as it was before its first chunk, and that chunk.
    let before = store
        .get_import_job(user.id, job_ref.job_id)
        .await
        .unwrap()
        .unwrap();
    let doc: Value = serde_json::from_str(&before.doc).unwrap();
    let expires_at = doc["progress"]["expiresAt"].as_i64().unwrap();
    let chunk = store
        .get_import_chunk(user.id, job_ref.job_id, 0)
        .await
        .unwrap()
        .unwrap();
    let chunk_rows: Vec<Value> = serde_json::from_str(&chunk).unwrap();
    assert_eq!(chunk_rows.len(), 1_000);

    // The worker writes part of the chunk (its first 400 rows) ...
    let part = serde_json::to_string(&chunk_rows[..400]).unwrap();
    store
        .put_import_chunks(user.id, job_ref.job_id, &[part], expires_at)
        .await
        .unwrap();
    let far = Instant::now() + Duration::from_secs(3600);
    assert!(job::work_chunks(store, job_ref, far, 1).await.unwrap());
    let partly: Value = app.get_json(&user, &location).await;
    assert_eq!(partly["created"], 400, "{partly}");

    // ... and is retried from the progress it had before (its save never happened).
    store
        .put_import_chunks(user.id, job_ref.job_id, &[chunk], expires_at)
        .await
        .unwrap();
    let now = store
        .get_import_job(user.id, job_ref.job_id)
        .await
        .unwrap()
        .unwrap();
    let retried = StoredJob {
        doc: before.doc.clone(),
        step: now.step + 1,
    };
    store
        .put_import_job(user.id, job_ref.job_id, &retried, expires_at)
        .await
        .unwrap();
    assert!(!job::work_chunks(store, job_ref, far, usize::MAX)
        .await
        .unwrap());

    let done: Value = app.get_json(&user, &location).await;
    assert_eq!(done["status"], "done", "{done}");
    assert_eq!(
        (&done["rows"], &done["created"], &done["duplicates"]),
        (&json!(4_000), &json!(4_000), &json!(0)),
        "{done}"
    );
    let shown: Decimal = app.balance(&user).await.parse().unwrap();
    assert_eq!(shown, balance);

    // The same file again: every row a duplicate now (the markers are another job's).
    let again = app.upload(&user, "", "text/csv", file).await;
    assert_eq!(again.status(), 202);
    let location = again.headers()["location"].to_str().unwrap().to_owned();
    let mut last = Value::Null;
    for _ in 0..400 {
        last = app.get_json(&user, &location).await;
        if last["status"] != "running" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    assert_eq!(
        (&last["status"], &last["created"], &last["duplicates"]),
        (&json!("done"), &json!(0), &json!(4_000)),
        "{last}"
    );
}
