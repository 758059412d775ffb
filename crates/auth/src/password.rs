//! Password hashing: argon2id with OWASP's minimum (m=19456 KiB, t=2, p=1), PHC strings.

use argon2::password_hash::{phc::PasswordHash, PasswordHasher, PasswordVerifier};
use argon2::{Algorithm, Argon2, Params, Version};

fn hasher() -> Argon2<'static> {
    // Parameters are constants known to be valid.
    let params = Params::new(19_456, 2, 1, None).unwrap_or_default();
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

pub fn hash(password: &str) -> anyhow::Result<String> {
    hasher()
        .hash_password(password.as_bytes())
        .map(|h| h.to_string())
        .map_err(|e| anyhow::anyhow!("hashing failed: {e}"))
}

/// Verifies against a stored hash; `None` (unknown user) still spends the same work on a
/// fixed dummy hash so the response time does not reveal whether the e-mail exists.
pub fn verify(password: &str, stored: Option<&str>) -> bool {
    let dummy = dummy_hash();
    let target = stored.unwrap_or(dummy);
    let Ok(parsed) = PasswordHash::new(target) else {
        return false;
    };
    let ok = Argon2::default()
        .verify_password(password.as_bytes(), &parsed)
        .is_ok();
    ok && stored.is_some()
}

/// True when the stored hash uses weaker parameters than today's, so it should be rehashed.
pub fn needs_rehash(stored: &str) -> bool {
    let Ok(parsed) = PasswordHash::new(stored) else {
        return true;
    };
    let current = Params::new(19_456, 2, 1, None).unwrap_or_default();
    match Params::try_from(&parsed) {
        Ok(p) => {
            p.m_cost() < current.m_cost()
                || p.t_cost() < current.t_cost()
                || parsed.algorithm.as_str() != "argon2id"
        }
        Err(_) => true,
    }
}

/// Password hashes computed at once per instance: each takes 19 MiB and a core for tens
/// of milliseconds, so a burst of logins or registrations queues instead of exhausting
/// memory (a Lambda instance serves one request at a time; the local server many).
pub const MAX_CONCURRENT_HASHES: usize = 4;
/// How long a request waits for a hashing slot before it is answered 503.
pub const HASH_QUEUE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

static SLOTS: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(MAX_CONCURRENT_HASHES);
static IN_FLIGHT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
static PEAK: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// No hashing slot came free in time: the instance is saturated.
#[derive(Debug, thiserror::Error)]
#[error("too many password checks in progress")]
pub struct Busy;

/// The most hashes that have run at once in this process (for tests and diagnostics).
pub fn peak_concurrency() -> usize {
    PEAK.load(std::sync::atomic::Ordering::Relaxed)
}

/// Runs `work` on the blocking pool within the instance's hashing slots.
async fn bounded<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> anyhow::Result<T> {
    use std::sync::atomic::Ordering;
    let _permit = tokio::time::timeout(HASH_QUEUE_TIMEOUT, SLOTS.acquire())
        .await
        .map_err(|_| Busy)??;
    let now = IN_FLIGHT.fetch_add(1, Ordering::SeqCst) + 1;
    PEAK.fetch_max(now, Ordering::SeqCst);
    let result = tokio::task::spawn_blocking(work).await;
    IN_FLIGHT.fetch_sub(1, Ordering::SeqCst);
    Ok(result?)
}

/// [`hash`] off the async workers: argon2 takes tens of milliseconds of CPU.
pub async fn hash_off_thread(password: String) -> anyhow::Result<String> {
    bounded(move || hash(&password)).await?
}

/// [`verify`] off the async workers.
pub async fn verify_off_thread(password: String, stored: Option<String>) -> anyhow::Result<bool> {
    bounded(move || verify(&password, stored.as_deref())).await
}

fn dummy_hash() -> &'static str {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DUMMY.get_or_init(|| hash("dummy password used for timing equality").unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_verify_and_use_argon2id_with_owasp_parameters() {
        let h = hash("correct horse battery").unwrap();
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{h}");
        assert!(verify("correct horse battery", Some(&h)));
        assert!(!verify("wrong horse battery", Some(&h)));
        assert!(!verify("correct horse battery", None));
        assert!(!needs_rehash(&h));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn a_burst_of_hashes_never_runs_more_than_the_bound_at_once() {
        let tasks: Vec<_> = (0..(MAX_CONCURRENT_HASHES * 4))
            .map(|i| tokio::spawn(hash_off_thread(format!("password number {i}"))))
            .collect();
        for t in tasks {
            assert!(t.await.unwrap().unwrap().starts_with("$argon2id$"));
        }
        let peak = peak_concurrency();
        assert!(
            (1..=MAX_CONCURRENT_HASHES).contains(&peak),
            "peak {peak} hashes at once"
        );
    }

    #[test]
    fn weaker_hashes_need_rehash() {
        let weak = Argon2::new(
            Algorithm::Argon2id,
            Version::V0x13,
            Params::new(4096, 1, 1, None).unwrap(),
        )
        .hash_password(b"correct horse battery")
        .unwrap()
        .to_string();
        assert!(needs_rehash(&weak));
        assert!(verify("correct horse battery", Some(&weak)));
    }
}
