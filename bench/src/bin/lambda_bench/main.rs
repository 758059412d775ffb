//! Cold start, warm path and memory of the real Lambda binaries, each beside a floor.
//!
//! Every function's release binary (built with the profile `make package` ships) runs as
//! Lambda runs it: a fresh process with Lambda's environment, taking API Gateway HTTP API
//! events from a Runtime API emulator on loopback and answering through it, against
//! DynamoDB Local. Beside them, interleaved run by run, the floors (`bench/floor`): bare
//! `lambda_http` binaries with aws-config and one DynamoDB client, each making the same
//! DynamoDB round trips as the functions compared with it (counted first: `census`).
//!
//! - Cold: spawn → first answer, `--cold` runs per binary (a new process each time).
//! - Warm: `--warm` invocations of one process per binary (round-robin over the binaries).
//! - Memory: that process's peak RSS (`VmHWM`) after its warm invocations.
//!
//! Prints a Markdown section and writes the raw figures as JSON (`--json PATH`). Figures
//! are reported, never asserted. `scripts/bench-lambda.sh` builds and runs it.

mod cases;
mod census;
mod emulator;
mod event;
mod fixture;
mod process;
mod report;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use event::Request;

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
    /// The row's name: the binary's, or the floor's with the calls it makes.
    name: String,
    /// The floor this row is compared with (a floor's own id for a floor).
    floor: &'static str,
    request: Box<dyn Fn(usize) -> Request>,
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
    calls: census::Calls,
    failures: Vec<String>,
}

fn main() -> anyhow::Result<()> {
    if std::env::args().nth(1).as_deref() == Some("--entropy-probe") {
        return report::entropy_probe();
    }
    tokio::runtime::Runtime::new()?.block_on(bench())
}

async fn bench() -> anyhow::Result<()> {
    let args = args()?;
    let endpoint =
        std::env::var("DYNAMODB_ENDPOINT").map_err(|_| anyhow::anyhow!("set DYNAMODB_ENDPOINT"))?;
    // The census logs in 3 times more.
    let logins = args.cold + args.login_warm + 4;
    let fixture = fixture::fixture(&endpoint, logins).await?;
    let mut cases = cases::cases(&fixture, &args);
    if let Some(only) = &args.only {
        cases.retain(|c| c.binary != FLOOR && only.iter().any(|o| o == c.binary));
        let floors: Vec<&str> = cases.iter().map(|c| c.floor).collect();
        let all = cases::cases(&fixture, &args);
        cases.extend(
            all.into_iter().filter(|c| {
                c.binary == FLOOR && floors.iter().any(|f| cases::is_floor(c.floor, f))
            }),
        );
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
    let env = process::Env {
        bin_dir: &bin_dir,
        endpoint: &endpoint,
        table: &fixture.table,
        logs: &logs,
        cwd: &cwd,
    };
    let mut figures: Vec<Figures> = cases.iter().map(|_| Figures::default()).collect();
    let started = Instant::now();
    let calls = census::census(&cases, &env, args.cold + args.login_warm + 1).await?;
    for (fig, calls) in figures.iter_mut().zip(calls) {
        fig.calls = calls;
    }
    eprintln!("census done in {:.1} s", started.elapsed().as_secs_f64());

    // Cold: run i of every binary, then run i + 1 of every binary, …
    for i in 0..args.cold {
        for (case, fig) in cases.iter().zip(figures.iter_mut()) {
            let mut process = process::spawn(case, &env).await?;
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
        let mut process = process::spawn(case, &env).await?;
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
    let entropy = report::entropy(args.cold)?;

    report::report(&args, &cases, &figures, &entropy)
}
