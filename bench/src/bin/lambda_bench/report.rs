//! The Markdown section and the JSON of the figures; the entropy probe.

use std::collections::BTreeMap;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::json;

use super::{Args, Case, Figures, FLOOR};

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
pub fn entropy_probe() -> anyhow::Result<()> {
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
pub fn entropy(runs: usize) -> anyhow::Result<(Vec<Duration>, Vec<Duration>)> {
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

pub fn report(
    args: &Args,
    cases: &[Case],
    figures: &[Figures],
    entropy: &(Vec<Duration>, Vec<Duration>),
) -> anyhow::Result<()> {
    // A row's floor: the floor case of its id.
    let floor_of = |case: &Case| {
        cases
            .iter()
            .position(|c| c.binary == FLOOR && c.floor == case.floor)
            .map(|i| (&cases[i], &figures[i]))
    };
    let mut out = String::new();
    out.push_str(&format!(
        "## Lambda binaries: cold start, warm path, memory\n\n\
         Release binaries (profile `{}`, x86_64) under a Runtime API emulator on loopback, \
         DynamoDB Local; {} cold runs (spawn → first answer) and {} warm invocations \
         (event queued → answer) per binary, interleaved with the floors (bare \
         `lambda_http` + aws-config + one DynamoDB client, making the DynamoDB calls named \
         in their row, one after the other; `+`: at once), each on tokio's default \
         multi-threaded runtime and again on its current-thread runtime (`· current-thread`), \
         the one the functions run on. Each row is compared with the (multi-threaded) \
         floor named in it, which makes the same round trips (calls: init · cold \
         invocation · warm invocation, counted through a proxy before the timed runs; \
         `≠` where they differ). Times in ms; ratio = function / floor (budget ≤ 1.2); \
         peak RSS (`VmHWM`) after the warm invocations (budget ≤ 12 MiB without argon2).\n\n",
        args.profile, args.cold, args.warm
    ));
    out.push_str(
        "| function | request | calls | floor | init p50 | cold p50 | floor cold p50 | ratio | warm p50 | warm p99 | floor warm p50 | ratio | VmHWM MiB |\n\
         | --- | --- | :-: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
    );
    let mut rows = Vec::new();
    for (case, fig) in cases.iter().zip(figures) {
        let cold = percentile(&fig.cold, 0.5);
        let warm = percentile(&fig.warm, 0.5);
        let warm99 = percentile(&fig.warm, 0.99);
        let init = percentile(&fig.init, 0.5);
        let floor = floor_of(case);
        let floor_cold = floor.and_then(|(_, f)| percentile(&f.cold, 0.5));
        let floor_warm = floor.and_then(|(_, f)| percentile(&f.warm, 0.5));
        let matched = floor.is_none_or(|(_, f)| f.calls.same_round_trips(&fig.calls));
        let mark = if matched { "" } else { " ≠" };
        let floor_name = match floor {
            Some((c, _)) if c.binary != case.binary => c.floor,
            _ => "",
        };
        let cold_ratio = ratio(cold, floor_cold);
        let warm_ratio = ratio(warm, floor_warm);
        let request = (case.request)(0).label();
        let mib = fig.vmhwm_kib.map(|k| k as f64 / 1024.0);
        out.push_str(&format!(
            "| {} | `{}` | {} | {} | {} | {} | {} | {}{mark} | {} | {} | {} | {}{mark} | {} |\n",
            case.name,
            request,
            fig.calls.counts(),
            floor_name,
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
            "name": case.name,
            "floor": case.floor,
            "request": request,
            "calls": {"init": fig.calls.init, "cold": fig.calls.cold, "warm": fig.calls.warm},
            "calls_match_floor": matched,
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
    out.push_str("\nThe calls, in order (init; cold invocation; warm invocation):\n\n");
    for (case, fig) in cases.iter().zip(figures) {
        let list = |v: &[String]| {
            if v.is_empty() {
                "–".into()
            } else {
                v.join(", ")
            }
        };
        out.push_str(&format!(
            "- {} `{}`: {}; {}; {}\n",
            case.name,
            (case.request)(0).label(),
            list(&fig.calls.init),
            list(&fig.calls.cold),
            list(&fig.calls.warm),
        ));
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
