//! The request each binary gets (one representative request per function, two for
//! transactions, and the import job's and the schedule's events) and the floors they are
//! compared with: each makes the same DynamoDB round trips as the rows named after it.

use serde_json::json;
use shared::store::keys::{
    global_pk, import_job_sk, shard_of, user_pk, CAT_PREFIX, PROFILE, SHARDS, TXN_PREFIX,
};
use shared::store::recurring::recur_sk;
use shared::store::rules::RULE_PREFIX;
use shared::store::seed::SEEDED_SK;

use super::event::{ApiRequest, Request};
use super::fixture::Fixture;
use super::{Args, Case, FLOOR, PASSWORD};

/// The floors: (id, calls at init, calls per event), as `bench/floor` reads them.
fn floors(f: &Fixture) -> Vec<(&'static str, String, String)> {
    let user = user_pk(f.user_id);
    let epoch = format!("get5s {user} {PROFILE}");
    let seeded = format!("get {} {SEEDED_SK}", global_pk(0));
    let txn = format!("get {user} {TXN_PREFIX}{:016}", f.transaction_id);
    let tomorrow = time::OffsetDateTime::now_utc()
        .date()
        .next_day()
        .map_or_else(
            || "9".to_owned(),
            |d| format!("{:04}-{:02}-{:02}", d.year(), u8::from(d.month()), d.day()),
        );
    let due: Vec<String> = (0..SHARDS)
        .map(|s| format!("due RECUR#{s} {tomorrow}"))
        .collect();
    let (job_user, job_id) = f.job;
    vec![
        ("no call", String::new(), String::new()),
        ("get", String::new(), txn.clone()),
        ("epoch; get", String::new(), format!("{epoch}; {txn}")),
        ("get at init; epoch; get", seeded, format!("{epoch}; {txn}")),
        (
            "get at init; epoch; query; query",
            format!("get {} {SEEDED_SK}", global_pk(0)),
            format!(
                "{epoch}; query {} {CAT_PREFIX}; query {user} {CAT_PREFIX}",
                global_pk(shard_of(f.user_id))
            ),
        ),
        (
            "epoch; query rules",
            String::new(),
            format!("{epoch}; query {user} {RULE_PREFIX}"),
        ),
        (
            "epoch; get schedule",
            String::new(),
            format!("{epoch}; get {user} {}", recur_sk(f.schedule_id)),
        ),
        (
            "epoch; get wallet",
            String::new(),
            format!("{epoch}; get {user} WALLET"),
        ),
        (
            "epoch; get profile",
            String::new(),
            format!("{epoch}; get {user} {PROFILE}"),
        ),
        (
            "epoch; query tags",
            String::new(),
            format!("{epoch}; query {user} TAG#"),
        ),
        (
            "epoch; query providers",
            String::new(),
            format!("{epoch}; query {user} PROV#"),
        ),
        (
            "get job",
            String::new(),
            format!("get {} {}", user_pk(job_user), import_job_sk(job_id)),
        ),
        ("16 × query GSI1", String::new(), due.join("; ")),
    ]
}

pub fn cases(f: &Fixture, args: &Args) -> Vec<Case> {
    let token = f.token.clone();
    let authed = move |method, route| ApiRequest::new(method, route).bearer(&token);
    let get = |route: &'static str| {
        let authed = authed.clone();
        Box::new(move |_| authed("GET", route).into()) as Box<dyn Fn(usize) -> Request>
    };
    let case = |binary, floor, request, expect| Case {
        binary,
        name: binary.to_owned(),
        floor,
        request,
        expect,
        warm: args.warm,
        extra_env: vec![],
    };
    let id = f.transaction_id;
    let emails = f.login_emails.clone();
    let create = authed.clone();
    let insights = authed.clone();
    let single = authed.clone();
    let export = authed.clone();
    let rules = authed.clone();
    let recurring = authed.clone();
    let schedule = f.schedule_id;
    let (job_user, job_id) = f.job;
    let mut cases = vec![
        Case {
            warm: args.login_warm,
            ..case(
                "auth",
                "get",
                Box::new(move |n| {
                    ApiRequest::new("POST", "/auth/login")
                        .json(json!({"email": emails[n % emails.len()], "password": PASSWORD}))
                        .into()
                }),
                200,
            )
        },
        case(
            "transactions",
            "get at init; epoch; get",
            Box::new(move |_| {
                single("GET", "/api/transactions/{id}")
                    .param("id", id)
                    .into()
            }),
            200,
        ),
        case(
            "transactions",
            "get at init; epoch; get",
            Box::new(move |n| {
                create("POST", "/api/transactions")
                    .json(json!({
                        "amount": format!("{}.50", 1 + n % 90),
                        "categoryId": 4,
                        "date": "2026-03-01",
                        "note": "bench"
                    }))
                    .into()
            }),
            201,
        ),
        case(
            "categories",
            "get at init; epoch; query; query",
            get("/api/categories"),
            200,
        ),
        case("wallet", "epoch; get wallet", get("/api/wallet"), 200),
        case("users", "epoch; get profile", get("/users/me"), 200),
        case("tags", "epoch; query tags", get("/api/tags"), 200),
        case(
            "providers",
            "epoch; query providers",
            get("/api/providers"),
            200,
        ),
        case(
            "insights",
            "epoch; get",
            Box::new(move |_| {
                insights("GET", "/api/insights/monthly")
                    .query("from", "2026-01")
                    .query("to", "2026-12")
                    .into()
            }),
            200,
        ),
        case("sync", "epoch; get", get("/api/sync"), 200),
        case(
            "rules",
            "epoch; query rules",
            Box::new(move |_| {
                rules("POST", "/api/rules/test")
                    .json(json!({"payee": "Corner shop", "amount": "4.20", "type": "DEBIT"}))
                    .into()
            }),
            200,
        ),
        case(
            "recurring",
            "epoch; get schedule",
            Box::new(move |_| {
                recurring("GET", "/api/recurring/{id}/occurrences")
                    .param("id", schedule)
                    .query("from", "2026-01-01")
                    .query("to", "2026-12-31")
                    .into()
            }),
            200,
        ),
        case(
            "recurring",
            "16 × query GSI1",
            Box::new(|_| Request::Event {
                label: "scheduled event (the hourly job)",
                payload: json!({
                    "version": "0",
                    "id": "cdc73f9d-aea9-11e3-9d5a-835b769c0d9c",
                    "detail-type": "Scheduled Event",
                    "source": "aws.events",
                    "account": "123456789012",
                    "time": "2026-12-01T00:00:00Z",
                    "region": "eu-west-1",
                    "resources": ["arn:aws:events:eu-west-1:123456789012:rule/bench"],
                    "detail": {}
                }),
                expect: |answer| answer["finished"] == true,
            }),
            200,
        ),
        case(
            "imports",
            "epoch; get",
            Box::new(move |_| export("GET", "/api/export").query("format", "json").into()),
            200,
        ),
        case(
            "imports",
            "get job",
            Box::new(move |_| Request::Event {
                label: "import job event (job ended)",
                payload: json!({"importJob": {"userId": job_user, "jobId": job_id}}),
                expect: |answer| answer["more"] == false,
            }),
            200,
        ),
        case(
            "docs",
            "no call",
            Box::new(|_| ApiRequest::new("GET", "/api-docs/openapi.json").into()),
            200,
        ),
    ];
    for (floor, init, ops) in floors(f) {
        // Each floor twice: on `#[tokio::main]`'s default multi-threaded runtime (what the
        // rows are compared with), and on the current-thread runtime the functions run on.
        let current: &'static str = Box::leak(format!("{floor}{CURRENT_THREAD}").into());
        for (id, runtime) in [(floor, "multi_thread"), (current, "current_thread")] {
            cases.push(Case {
                name: format!("floor: {id}"),
                extra_env: vec![
                    ("FLOOR_INIT", init.clone()),
                    ("FLOOR_OPS", ops.clone()),
                    ("FLOOR_PK", user_pk(f.user_id)),
                    ("FLOOR_SK", format!("{TXN_PREFIX}{:016}", f.transaction_id)),
                    ("FLOOR_RUNTIME", runtime.into()),
                ],
                ..case(
                    FLOOR,
                    id,
                    Box::new(|_| ApiRequest::new("GET", "/floor").into()),
                    200,
                )
            });
        }
    }
    cases
}

/// The suffix of a floor run on tokio's current-thread runtime.
pub const CURRENT_THREAD: &str = " · current-thread";

/// Whether `floor` is the floor `named` (on either runtime).
pub fn is_floor(floor: &str, named: &str) -> bool {
    floor == named || floor.strip_suffix(CURRENT_THREAD) == Some(named)
}
