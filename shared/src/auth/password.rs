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

/// [`hash`] off the async workers: argon2 takes tens of milliseconds of CPU.
pub async fn hash_off_thread(password: String) -> anyhow::Result<String> {
    tokio::task::spawn_blocking(move || hash(&password)).await?
}

/// [`verify`] off the async workers.
pub async fn verify_off_thread(password: String, stored: Option<String>) -> anyhow::Result<bool> {
    Ok(tokio::task::spawn_blocking(move || verify(&password, stored.as_deref())).await?)
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
