//! A function's process as Lambda runs it: a fresh process with Lambda's environment,
//! taking events from its own Runtime API emulator.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Instant;

use anyhow::Context as _;

use super::event::Request;
use super::{emulator, Case, LIMIT, SECRET};

/// A running function process and its emulator.
pub struct Process {
    child: Child,
    pub emulator: emulator::Emulator,
    pub spawned: Instant,
    invocations: u64,
}

pub struct Env<'a> {
    pub bin_dir: &'a Path,
    pub endpoint: &'a str,
    pub table: &'a str,
    pub logs: &'a Path,
    pub cwd: &'a Path,
}

pub async fn spawn(case: &Case, env: &Env<'_>) -> anyhow::Result<Process> {
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
    pub async fn invoke(&mut self, case: &Case, n: usize) -> anyhow::Result<(Instant, Instant)> {
        let epoch_ms = time::OffsetDateTime::now_utc().unix_timestamp_nanos() / 1_000_000;
        let request = (case.request)(n);
        let event = match &request {
            Request::Api(api) => api.event(self.invocations, epoch_ms as i64),
            Request::Event { payload, .. } => payload.clone(),
        };
        self.invocations += 1;
        let (queued, rx) = self.emulator.queue(&event);
        match self.emulator.wait(rx, LIMIT).await? {
            emulator::Outcome::Response { at, body } => {
                match request {
                    Request::Api(_) => {
                        let (status, text) = emulator::http_answer(&body)?;
                        anyhow::ensure!(
                            status == case.expect,
                            "status {status}, not {}: {}",
                            case.expect,
                            text.chars().take(300).collect::<String>()
                        );
                    }
                    Request::Event { expect, .. } => {
                        let answer: serde_json::Value = serde_json::from_slice(&body)?;
                        anyhow::ensure!(expect(&answer), "unexpected answer {answer}");
                    }
                }
                Ok((queued, at))
            }
            emulator::Outcome::Error { body, .. } => anyhow::bail!("invocation error: {body}"),
        }
    }

    pub fn vmhwm_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
    }

    pub fn stop(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
