//! Cold start, warm path and memory of the real Lambda binaries, each beside a floor.
//!
//! Every function's release binary (built with the profile `make package` ships) runs as
//! Lambda runs it: a fresh process with Lambda's environment, taking API Gateway HTTP API
//! events from a Runtime API emulator on loopback and answering through it, against
//! DynamoDB Local. Beside them, interleaved run by run, the floor (`bench/floor`): a bare
//! `lambda_http` binary with aws-config, one DynamoDB client and one `GetItem` per event.
//!
//! - Cold: spawn → first answer, `--cold` runs per binary (a new process each time).
//! - Warm: `--warm` invocations of one process per binary (round-robin over the binaries).
//! - Memory: that process's peak RSS (`VmHWM`) after its warm invocations.
//!
//! Prints a Markdown section and writes the raw figures as JSON (`--json PATH`). Figures
//! are reported, never asserted. `scripts/bench-lambda.sh` builds and runs it.

#[path = "lambda_bench/emulator.rs"]
mod emulator;
#[path = "lambda_bench/event.rs"]
mod event;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::Context as _;
use event::ApiRequest;
use serde_json::{json, Value};

const SECRET: &str = "lambda-bench-secret-0123456789abcdef-0123456789";
const PASSWORD: &str = "correct horse battery staple";
const FLOOR: &str = "lambda-floor";
/// One invocation's time limit (a cold start included).
const LIMIT: Duration = Duration::from_secs(30);

struct Args {
    bin_dir: PathBuf,
    json: Option<PathBuf>,
    cold: usize,
    warm: usize,
    login_warm: usize,
    only: Option<Vec<String>>,
    profile: String,
}

fn args() -> anyhow::Result<Args> {
    let mut args = Args {
        bin_dir: PathBuf::from("target/release"),
        json: std::env::var_os("LAMBDA_BENCH_JSON").map(PathBuf::from),
        cold: 20,
        warm: 300,
        login_warm: 40,
        only: None,
        profile: "release".into(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().with_context(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--bin-dir" => args.bin_dir = value()?.into(),
            "--json" => args.json = Some(value()?.into()),
            "--cold" => args.cold = value()?.parse()?,
            "--warm" => args.warm = value()?.parse()?,
            "--login-warm" => args.login_warm = value()?.parse()?,
            "--only" => args.only = Some(value()?.split(',').map(str::to_owned).collect()),
            "--profile" => args.profile = value()?,
            _ => anyhow::bail!(
                "usage: lambda_bench [--bin-dir DIR] [--json PATH] [--cold N] [--warm N] \
                 [--login-warm N] [--only fn,fn] [--profile NAME]"
            ),
        }
    }
    anyhow::ensure!(
        args.cold > 0 && args.warm > 0,
        "--cold and --warm must be > 0"
    );
    Ok(args)
}

/// One binary under test and the request it gets (the n-th invocation's request).
struct Case {
    binary: &'static str,
    request: Box<dyn Fn(usize) -> ApiRequest>,
    expect: u16,
    /// Warm invocations (login's argon2 makes each a few tens of ms, and each needs its
    /// own user: the per-e-mail login throttle).
    warm: usize,
    extra_env: Vec<(&'static str, String)>,
}

#[derive(Default)]
struct Figures {
    cold: Vec<Duration>,
    init: Vec<Duration>,
    warm: Vec<Duration>,
    vmhwm_kib: Option<u64>,
    failures: Vec<String>,
}

/// What the requests need: a user with data, its token, and users to log in.
struct Fixture {
    table: String,
    token: String,
    transaction_id: u64,
    user_id: u64,
    login_emails: Vec<String>,
}

async fn fixture(endpoint: &str, logins: usize) -> anyhow::Result<Fixture> {
    let table = format!("lambda-bench-{}", std::process::id());
    let secret = shared::config::Secret::new(SECRET.as_bytes().to_vec());
    let config = local::bench_config(&table, endpoint, &secret);
    let store = shared::store::Store::connect(&table, Some(endpoint)).await;
    store.ensure_table().await?;
    store.seed_global_categories("2026-01-01T00:00:00").await?;
    let state = shared::http::AppState {
        store,
        tokens: std::sync::Arc::new(shared::auth::token::TokenKeys::new(&secret)),
        mail: std::sync::Arc::new(shared::mail::Mailer::Off),
        config: std::sync::Arc::new(config),
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let base = format!("http://{}", listener.local_addr()?);
    let app = local::app(state).into_make_service_with_connect_info::<std::net::SocketAddr>();
    tokio::spawn(async move { axum::serve(listener, app).await });
    let http = reqwest::Client::new();
    let call = |method: reqwest::Method, path: &str, token: Option<&str>, body: Value| {
        let mut req = http.request(method, format!("{base}{path}")).json(&body);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        async move {
            let response = req.send().await?;
            let status = response.status();
            let body: Value = response.json().await.unwrap_or(Value::Null);
            anyhow::ensure!(status.is_success(), "{status}: {body}");
            Ok::<_, anyhow::Error>(body)
        }
    };
    let register = |email: String| {
        let body = json!({"firstname": "Bench", "lastname": "Mark", "email": email,
            "password": PASSWORD, "confirmPassword": PASSWORD});
        call(reqwest::Method::POST, "/auth/register", None, body)
    };
    let user = register("bench@example.com".into()).await?;
    let user_id = user["id"].as_u64().context("registered user's id")?;
    let login = call(
        reqwest::Method::POST,
        "/auth/login",
        None,
        json!({"email": "bench@example.com", "password": PASSWORD}),
    )
    .await?;
    let token = login["token"].as_str().context("token")?.to_owned();
    use reqwest::Method;
    for (path, body) in [
        ("/api/tags", json!({"tagName": "groceries"})),
        ("/api/providers", json!({"providerName": "Corner shop"})),
    ] {
        call(Method::POST, path, Some(&token), body).await?;
    }
    let mut transaction_id = 0;
    for i in 0..20 {
        let body = json!({"amount": format!("{}.25", 3 + i), "categoryId": 4,
            "date": format!("2026-{:02}-{:02}", 1 + i % 6, 1 + i), "note": "bench"});
        let created = call(Method::POST, "/api/transactions", Some(&token), body).await?;
        transaction_id = created["id"].as_u64().context("transaction id")?;
    }
    let mut login_emails = Vec::with_capacity(logins);
    for i in 0..logins {
        let email = format!("login-{i}@example.com");
        register(email.clone()).await?;
        login_emails.push(email);
    }
    Ok(Fixture {
        table,
        token,
        transaction_id,
        user_id,
        login_emails,
    })
}

fn cases(f: &Fixture, args: &Args) -> Vec<Case> {
    let token = f.token.clone();
    let authed = move |method, route| ApiRequest::new(method, route).bearer(&token);
    let get = |route: &'static str| {
        let authed = authed.clone();
        Box::new(move |_| authed("GET", route)) as Box<dyn Fn(usize) -> ApiRequest>
    };
    let case = |binary, request, expect| Case {
        binary,
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
    vec![
        Case {
            warm: args.login_warm,
            ..case(
                "auth",
                Box::new(move |n| {
                    ApiRequest::new("POST", "/auth/login")
                        .json(json!({"email": emails[n % emails.len()], "password": PASSWORD}))
                }),
                200,
            )
        },
        case(
            "transactions",
            Box::new(move |_| single("GET", "/api/transactions/{id}").param("id", id)),
            200,
        ),
        case(
            "transactions",
            Box::new(move |n| {
                create("POST", "/api/transactions").json(json!({
                    "amount": format!("{}.50", 1 + n % 90),
                    "categoryId": 4,
                    "date": "2026-03-01",
                    "note": "bench"
                }))
            }),
            201,
        ),
        case("categories", get("/api/categories"), 200),
        case("wallet", get("/api/wallet"), 200),
        case("users", get("/users/me"), 200),
        case("tags", get("/api/tags"), 200),
        case("providers", get("/api/providers"), 200),
        case(
            "insights",
            Box::new(move |_| {
                insights("GET", "/api/insights/monthly")
                    .query("from", "2026-01")
                    .query("to", "2026-12")
            }),
            200,
        ),
        case("sync", get("/api/sync"), 200),
        case(
            "imports",
            Box::new(move |_| export("GET", "/api/export").query("format", "json")),
            200,
        ),
        case(
            "docs",
            Box::new(|_| ApiRequest::new("GET", "/api-docs/openapi.json")),
            200,
        ),
        Case {
            extra_env: vec![
                ("FLOOR_PK", format!("USER#{}", f.user_id)),
                ("FLOOR_SK", format!("TXN#{id:016}")),
            ],
            ..case(FLOOR, Box::new(|_| ApiRequest::new("GET", "/floor")), 200)
        },
    ]
}

/// A running function process and its emulator.
struct Process {
    child: Child,
    emulator: emulator::Emulator,
    spawned: Instant,
    invocations: u64,
}

struct Env<'a> {
    bin_dir: &'a Path,
    endpoint: &'a str,
    table: &'a str,
    logs: &'a Path,
    cwd: &'a Path,
}

async fn spawn(case: &Case, env: &Env<'_>) -> anyhow::Result<Process> {
    let emulator = emulator::Emulator::start().await?;
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(env.logs.join(format!("{}.log", case.binary)))?;
    let mut command = Command::new(env.bin_dir.join(case.binary));
    command
        .env_clear()
        .current_dir(env.cwd)
        .env("AWS_LAMBDA_RUNTIME_API", emulator.addr.to_string())
        .env("AWS_LAMBDA_FUNCTION_NAME", format!("bench-{}", case.binary))
        .env("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "128")
        .env("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST")
        .env(
            "AWS_LAMBDA_LOG_GROUP_NAME",
            format!("/aws/lambda/bench-{}", case.binary),
        )
        .env("AWS_LAMBDA_LOG_STREAM_NAME", "2026/11/23/[$LATEST]bench")
        .env("AWS_EXECUTION_ENV", "AWS_Lambda_provided.al2023")
        .env("AWS_REGION", "eu-west-1")
        .env("AWS_DEFAULT_REGION", "eu-west-1")
        // DynamoDB Local keeps one namespace per access key: the fixture's (Store::connect
        // falls back to `local` when none is set).
        .env("AWS_ACCESS_KEY_ID", "local")
        .env("AWS_SECRET_ACCESS_KEY", "local")
        .env("AWS_SESSION_TOKEN", "bench-session-token")
        .env("TZ", ":UTC")
        .env("LANG", "en_US.UTF-8")
        .env("PATH", "/usr/local/bin:/usr/bin:/bin")
        .env("DYNAMODB_ENDPOINT", env.endpoint)
        .env("TABLE_NAME", env.table)
        .env("JWT_SECRET", SECRET)
        .stdin(Stdio::null())
        .stdout(log.try_clone()?)
        .stderr(log);
    // As template.yaml sets it (FUNCTION_RUST_LOG overrides).
    let level = std::env::var("FUNCTION_RUST_LOG").unwrap_or_else(|_| "info".into());
    command.env("RUST_LOG", level);
    for (k, v) in &case.extra_env {
        command.env(k, v);
    }
    let spawned = Instant::now();
    let child = command
        .spawn()
        .with_context(|| format!("starting {}", env.bin_dir.join(case.binary).display()))?;
    Ok(Process {
        child,
        emulator,
        spawned,
        invocations: 0,
    })
}

impl Process {
    /// One invocation: the time from queuing the event to the answer's arrival.
    async fn invoke(&mut self, case: &Case, n: usize) -> anyhow::Result<(Instant, Instant)> {
        let epoch_ms = time::OffsetDateTime::now_utc().unix_timestamp_nanos() / 1_000_000;
        let event = (case.request)(n).event(self.invocations, epoch_ms as i64);
        self.invocations += 1;
        let (queued, rx) = self.emulator.queue(&event);
        match self.emulator.wait(rx, LIMIT).await? {
            emulator::Outcome::Response { at, body } => {
                let (status, text) = emulator::http_answer(&body)?;
                anyhow::ensure!(
                    status == case.expect,
                    "status {status}, not {}: {}",
                    case.expect,
                    text.chars().take(300).collect::<String>()
                );
                Ok((queued, at))
            }
            emulator::Outcome::Error { body, .. } => anyhow::bail!("invocation error: {body}"),
        }
    }

    fn vmhwm_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
    }

    fn stop(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn percentile(samples: &[Duration], p: f64) -> Option<Duration> {
    if samples.is_empty() {
        return None;
    }
    let mut sorted = samples.to_vec();
    sorted.sort_unstable();
    let rank = ((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    Some(sorted[rank - 1])
}

fn fmt_ms(d: Option<Duration>) -> String {
    d.map_or("–".into(), |d| format!("{:.2}", ms(d)))
}

fn ratio(a: Option<Duration>, b: Option<Duration>) -> Option<f64> {
    match (a, b) {
        (Some(a), Some(b)) if !b.is_zero() => Some(a.as_secs_f64() / b.as_secs_f64()),
        _ => None,
    }
}

/// `--entropy-probe`: in this fresh process, the time of aws-lc's first and second
/// `RAND_bytes` (the first seeds its DRBG: CPU jitter entropy unless built with
/// `AWS_LC_SYS_NO_JITTER_ENTROPY=1`). In AWS the first TLS handshake pays it; against
/// DynamoDB Local over plain HTTP no function does, so it is measured apart.
fn entropy_probe() -> anyhow::Result<()> {
    let mut buf = [0u8; 32];
    let start = Instant::now();
    aws_lc_rs::rand::fill(&mut buf).map_err(|_| anyhow::anyhow!("RAND_bytes failed"))?;
    let first = start.elapsed();
    let start = Instant::now();
    aws_lc_rs::rand::fill(&mut buf).map_err(|_| anyhow::anyhow!("RAND_bytes failed"))?;
    let second = start.elapsed();
    println!("{} {}", first.as_nanos(), second.as_nanos());
    Ok(())
}

/// Runs the entropy probe in `runs` fresh processes: (first, second) fill times.
fn entropy(runs: usize) -> anyhow::Result<(Vec<Duration>, Vec<Duration>)> {
    let exe = std::env::current_exe()?;
    let (mut first, mut second) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        let out = Command::new(&exe).arg("--entropy-probe").output()?;
        anyhow::ensure!(out.status.success(), "entropy probe failed");
        let text = String::from_utf8(out.stdout)?;
        let mut ns = text.split_whitespace().map(str::parse::<u64>);
        match (ns.next(), ns.next()) {
            (Some(Ok(a)), Some(Ok(b))) => {
                first.push(Duration::from_nanos(a));
                second.push(Duration::from_nanos(b));
            }
            _ => anyhow::bail!("entropy probe printed {text:?}"),
        }
    }
    Ok((first, second))
}

fn main() -> anyhow::Result<()> {
    if std::env::args().nth(1).as_deref() == Some("--entropy-probe") {
        return entropy_probe();
    }
    tokio::runtime::Runtime::new()?.block_on(bench())
}

async fn bench() -> anyhow::Result<()> {
    let args = args()?;
    let endpoint =
        std::env::var("DYNAMODB_ENDPOINT").map_err(|_| anyhow::anyhow!("set DYNAMODB_ENDPOINT"))?;
    let logins = args.cold + args.login_warm + 1;
    let fixture = fixture(&endpoint, logins).await?;
    let mut cases = cases(&fixture, &args);
    if let Some(only) = &args.only {
        cases.retain(|c| c.binary == FLOOR || only.iter().any(|o| o == c.binary));
    }
    for case in &cases {
        let path = args.bin_dir.join(case.binary);
        anyhow::ensure!(
            path.is_file(),
            "no binary {}: build it first",
            path.display()
        );
    }
    let logs = PathBuf::from("target/bench-report/lambda-logs");
    let cwd = std::env::temp_dir().join(format!("lambda-bench-{}", std::process::id()));
    std::fs::create_dir_all(&logs)?;
    std::fs::create_dir_all(&cwd)?;
    for case in &cases {
        let _ = std::fs::remove_file(logs.join(format!("{}.log", case.binary)));
    }
    // Absolute: each process starts in its own empty directory (no `.env` to read).
    let bin_dir = std::fs::canonicalize(&args.bin_dir)?;
    let env = Env {
        bin_dir: &bin_dir,
        endpoint: &endpoint,
        table: &fixture.table,
        logs: &logs,
        cwd: &cwd,
    };
    let mut figures: Vec<Figures> = cases.iter().map(|_| Figures::default()).collect();
    let started = Instant::now();

    // Cold: run i of every binary, then run i + 1 of every binary, …
    for i in 0..args.cold {
        for (case, fig) in cases.iter().zip(figures.iter_mut()) {
            let mut process = spawn(case, &env).await?;
            match process.invoke(case, i).await {
                Ok((_, answered)) => {
                    fig.cold.push(answered - process.spawned);
                    if let Some(polled) = process.emulator.first_poll() {
                        fig.init.push(polled - process.spawned);
                    }
                }
                Err(e) => fig.failures.push(format!("cold run {i}: {e:#}")),
            }
            process.stop();
        }
    }
    eprintln!("cold runs done in {:.1} s", started.elapsed().as_secs_f64());

    // Warm: one process per binary, its first (cold) invocation not counted, then
    // round-robin; login continues with fresh users.
    let mut processes = Vec::with_capacity(cases.len());
    for (case, fig) in cases.iter().zip(figures.iter_mut()) {
        let mut process = spawn(case, &env).await?;
        if let Err(e) = process.invoke(case, args.cold).await {
            fig.failures.push(format!("warm process start: {e:#}"));
        }
        processes.push(process);
    }
    let rounds = cases.iter().map(|c| c.warm).max().unwrap_or(0);
    for j in 0..rounds {
        for ((case, fig), process) in cases.iter().zip(figures.iter_mut()).zip(&mut processes) {
            if j >= case.warm || fig.failures.len() > 5 {
                continue;
            }
            match process.invoke(case, args.cold + 1 + j).await {
                Ok((queued, answered)) => fig.warm.push(answered - queued),
                Err(e) => fig.failures.push(format!("warm invocation {j}: {e:#}")),
            }
        }
    }
    for (process, fig) in processes.into_iter().zip(figures.iter_mut()) {
        fig.vmhwm_kib = process.vmhwm_kib();
        process.stop();
    }
    eprintln!("all runs done in {:.1} s", started.elapsed().as_secs_f64());
    let _ = std::fs::remove_dir_all(&cwd);
    let entropy = entropy(args.cold)?;

    report(&args, &cases, &figures, &entropy)
}

fn report(
    args: &Args,
    cases: &[Case],
    figures: &[Figures],
    entropy: &(Vec<Duration>, Vec<Duration>),
) -> anyhow::Result<()> {
    let floor = cases
        .iter()
        .position(|c| c.binary == FLOOR)
        .map(|i| &figures[i]);
    let floor_cold = floor.and_then(|f| percentile(&f.cold, 0.5));
    let floor_warm = floor.and_then(|f| percentile(&f.warm, 0.5));
    let mut out = String::new();
    out.push_str(&format!(
        "## Lambda binaries: cold start, warm path, memory\n\n\
         Release binaries (profile `{}`, x86_64) under a Runtime API emulator on loopback, \
         DynamoDB Local; {} cold runs (spawn → first answer) and {} warm invocations \
         (event queued → answer) per binary, interleaved with the floor (bare \
         `lambda_http` + aws-config + one `GetItem`). Times in ms; ratio = function / floor \
         (budget ≤ 1.2); peak RSS (`VmHWM`) after the warm invocations (budget ≤ 12 MiB \
         without argon2).\n\n",
        args.profile, args.cold, args.warm
    ));
    out.push_str(
        "| function | request | init p50 | cold p50 | floor cold p50 | ratio | warm p50 | warm p99 | floor warm p50 | ratio | VmHWM MiB |\n\
         | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
    );
    let mut rows = Vec::new();
    for (case, fig) in cases.iter().zip(figures) {
        let cold = percentile(&fig.cold, 0.5);
        let warm = percentile(&fig.warm, 0.5);
        let warm99 = percentile(&fig.warm, 0.99);
        let init = percentile(&fig.init, 0.5);
        let cold_ratio = ratio(cold, floor_cold);
        let warm_ratio = ratio(warm, floor_warm);
        let request = (case.request)(0).label();
        let mib = fig.vmhwm_kib.map(|k| k as f64 / 1024.0);
        out.push_str(&format!(
            "| {} | `{}` | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            case.binary,
            request,
            fmt_ms(init),
            fmt_ms(cold),
            fmt_ms(floor_cold),
            cold_ratio.map_or("–".into(), |r| format!("{r:.2}×")),
            fmt_ms(warm),
            fmt_ms(warm99),
            fmt_ms(floor_warm),
            warm_ratio.map_or("–".into(), |r| format!("{r:.2}×")),
            mib.map_or("–".into(), |m| format!("{m:.1}")),
        ));
        let samples = |v: &[Duration]| v.iter().map(|d| ms(*d)).collect::<Vec<_>>();
        rows.push(json!({
            "function": case.binary,
            "request": request,
            "expected_status": case.expect,
            "init_p50_ms": init.map(ms),
            "cold_p50_ms": cold.map(ms),
            "cold_p99_ms": percentile(&fig.cold, 0.99).map(ms),
            "cold_ratio": cold_ratio,
            "warm_p50_ms": warm.map(ms),
            "warm_p99_ms": warm99.map(ms),
            "warm_ratio": warm_ratio,
            "vmhwm_kib": fig.vmhwm_kib,
            "cold_ms": samples(&fig.cold),
            "init_ms": samples(&fig.init),
            "warm_ms": samples(&fig.warm),
            "failures": fig.failures,
        }));
    }
    let (first, second) = (percentile(&entropy.0, 0.5), percentile(&entropy.1, 0.5));
    out.push_str(&format!(
        "\naws-lc's first `RAND_bytes` in a fresh process (seeds its DRBG; in AWS the first \
         TLS handshake pays it, here no function makes one): p50 {} ms, p99 {} ms over {} \
         processes; the second: {} ms.\n",
        fmt_ms(first),
        fmt_ms(percentile(&entropy.0, 0.99)),
        entropy.0.len(),
        fmt_ms(second),
    ));
    let failures: BTreeMap<&str, &Vec<String>> = cases
        .iter()
        .zip(figures)
        .filter(|(_, f)| !f.failures.is_empty())
        .map(|(c, f)| (c.binary, &f.failures))
        .collect();
    if !failures.is_empty() {
        out.push_str("\nFailures:\n\n");
        for (binary, list) in &failures {
            for f in list.iter().take(3) {
                out.push_str(&format!("- {binary}: {f}\n"));
            }
        }
    }
    println!("{out}");
    if let Some(path) = &args.json {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let doc = json!({
            "profile": args.profile,
            "target": std::env::consts::ARCH,
            "cores": std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1),
            "cold_runs": args.cold,
            "warm_invocations": args.warm,
            "login_warm_invocations": args.login_warm,
            "floor": FLOOR,
            "rows": rows,
            "aws_lc_first_rand_ms": entropy.0.iter().map(|d| ms(*d)).collect::<Vec<_>>(),
            "aws_lc_second_rand_ms": entropy.1.iter().map(|d| ms(*d)).collect::<Vec<_>>(),
            "aws_lc_first_rand_p50_ms": first.map(ms),
        });
        std::fs::write(path, serde_json::to_vec_pretty(&doc)?)?;
        eprintln!("raw figures: {}", path.display());
    }
    anyhow::ensure!(failures.is_empty(), "some invocations failed (above)");
    Ok(())
}
