//! Configuration, read once at cold start from the environment (and `.env` when present).

use std::fmt;

/// A secret that never prints.
#[derive(Clone)]
pub struct Secret(Vec<u8>);

impl Secret {
    pub fn new(bytes: Vec<u8>) -> Self {
        Self(bytes)
    }

    pub fn expose(&self) -> &[u8] {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(***)")
    }
}

/// Smallest accepted JWT signing secret: 256 bits.
pub const MIN_SECRET_BYTES: usize = 32;

/// Refuses secrets that cannot be secret: too short, a placeholder left in an example
/// file, or too uniform to be random (all zeros, one repeated character).
pub fn check_secret(bytes: &[u8]) -> Result<(), String> {
    if bytes.len() < MIN_SECRET_BYTES {
        return Err(format!("must be at least {MIN_SECRET_BYTES} bytes"));
    }
    let lower = String::from_utf8_lossy(bytes).to_lowercase();
    if ["replace", "change-me", "changeme", "placeholder", "xxxx"]
        .iter()
        .any(|w| lower.contains(w))
    {
        return Err("is a placeholder; generate one with `openssl rand -hex 32`".into());
    }
    let distinct = bytes
        .iter()
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    if distinct < 10 {
        return Err("is not random; generate one with `openssl rand -hex 32`".into());
    }
    Ok(())
}

/// Registrations allowed per client address per hour, unless configured.
pub const DEFAULT_REGISTRATIONS_PER_HOUR: u64 = 20;
/// How old a password login may be for a sensitive change without the password.
pub const DEFAULT_REAUTH_WINDOW_SECS: i64 = 300;
/// Failed logins one client address may make across all e-mails in 15 minutes.
pub const DEFAULT_LOGIN_FAILURES_PER_ADDRESS: u64 = 100;

/// Most of each kind one user may own (the caps are counted on the profile, in the same
/// transaction as each create, so concurrent creates never pass them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// `MAX_PROVIDERS_PER_USER` (default 10,000).
    pub providers: u64,
    /// `MAX_TAGS_PER_USER` (default 1,000).
    pub tags: u64,
    /// `MAX_CATEGORIES_PER_USER`: own categories (default 500).
    pub categories: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            providers: 10_000,
            tags: 1_000,
            categories: 500,
        }
    }
}

/// How mail leaves the service (`MAIL_TRANSPORT`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MailTransport {
    /// `smtp`, the default when `SMTP_PORT` or `SMTP_HOST` is set: `SMTP_HOST` (default
    /// 127.0.0.1), `SMTP_PORT` (default 1025), `SMTP_TLS=true` for STARTTLS.
    Smtp { host: String, port: u16, tls: bool },
    /// `ses`: Amazon SES v2 with the function's credentials (AWS).
    Ses,
    /// `off` (the default otherwise): nothing is sent; a warning is logged instead.
    Off,
}

#[derive(Debug, Clone)]
pub struct Config {
    /// `TABLE_NAME`: the DynamoDB table (default `personal-finance`).
    pub table_name: String,
    /// `DYNAMODB_ENDPOINT`: endpoint override for DynamoDB Local; unset in AWS.
    pub dynamodb_endpoint: Option<String>,
    /// `JWT_SECRET`: HS256 signing secret, at least 32 bytes. In AWS it comes from
    /// Secrets Manager (`JWT_SECRET_ARN`).
    pub jwt_secret: Option<Secret>,
    /// `JWT_SECRET_ARN`: Secrets Manager secret holding the signing secret.
    pub jwt_secret_arn: Option<String>,
    /// `REGISTRATIONS_PER_ADDRESS_PER_HOUR`: registrations one client address may make
    /// in an hour (default 20).
    pub registrations_per_hour: u64,
    /// `DOC_PATH`: where Swagger UI is served (default `/swagger-ui`).
    pub doc_path: String,
    /// `SORT`: operation order in Swagger UI (`method` or `alpha`).
    pub sort: String,
    /// `CORS_ALLOWED_ORIGINS`: comma-separated origins allowed to call the API from a browser.
    pub cors_allowed_origins: Vec<String>,
    /// `REAUTH_WINDOW_SECONDS`: how recent a password login must be for deleting oneself or
    /// changing one's e-mail without `currentPassword`, and for an admin's changes to
    /// other users' credentials (default 300).
    pub reauth_window_secs: i64,
    /// `LOGIN_FAILURES_PER_ADDRESS`: failed logins per client address across all e-mails
    /// in 15 minutes before 429 (default 100).
    pub login_failures_per_address: u64,
    /// `APP_URL`: the frontend that mailed links point to (default http://127.0.0.1:3000).
    pub app_url: String,
    /// `MAIL_FROM`: the sender of every mail (in AWS, the verified SES identity).
    pub mail_from: String,
    /// `MAIL_TRANSPORT` and its settings.
    pub mail_transport: MailTransport,
    /// `MAX_PROVIDERS_PER_USER`, `MAX_TAGS_PER_USER`, `MAX_CATEGORIES_PER_USER`.
    pub limits: Limits,
}

impl Config {
    /// Reads `.env` if present (never overriding real environment variables), then the environment.
    pub fn from_env() -> anyhow::Result<Self> {
        let _ = dotenvy::dotenv();
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        let list = |name: &str| -> Vec<String> {
            var(name)
                .map(|v| {
                    v.split(',')
                        .map(|s| s.trim().to_owned())
                        .filter(|s| !s.is_empty())
                        .collect()
                })
                .unwrap_or_default()
        };
        let jwt_secret = match var("JWT_SECRET") {
            Some(s) => {
                check_secret(s.as_bytes()).map_err(|e| anyhow::anyhow!("JWT_SECRET {e}"))?;
                Some(Secret::new(s.into_bytes()))
            }
            None => None,
        };
        let registrations_per_hour = match var("REGISTRATIONS_PER_ADDRESS_PER_HOUR") {
            Some(v) => v.trim().parse().ok().filter(|n| *n > 0).ok_or_else(|| {
                anyhow::anyhow!("REGISTRATIONS_PER_ADDRESS_PER_HOUR must be a positive integer")
            })?,
            None => DEFAULT_REGISTRATIONS_PER_HOUR,
        };
        let positive = |name: &str, default: u64| -> anyhow::Result<u64> {
            match var(name) {
                Some(v) => v
                    .trim()
                    .parse()
                    .ok()
                    .filter(|n| *n > 0)
                    .ok_or_else(|| anyhow::anyhow!("{name} must be a positive integer")),
                None => Ok(default),
            }
        };
        let reauth_window_secs =
            positive("REAUTH_WINDOW_SECONDS", DEFAULT_REAUTH_WINDOW_SECS as u64)? as i64;
        let login_failures_per_address = positive(
            "LOGIN_FAILURES_PER_ADDRESS",
            DEFAULT_LOGIN_FAILURES_PER_ADDRESS,
        )?;
        let defaults = Limits::default();
        let limits = Limits {
            providers: positive("MAX_PROVIDERS_PER_USER", defaults.providers)?,
            tags: positive("MAX_TAGS_PER_USER", defaults.tags)?,
            categories: positive("MAX_CATEGORIES_PER_USER", defaults.categories)?,
        };
        let smtp_set = var("SMTP_PORT").is_some() || var("SMTP_HOST").is_some();
        let mail_transport = match var("MAIL_TRANSPORT").as_deref() {
            Some("ses") => MailTransport::Ses,
            Some("off") => MailTransport::Off,
            Some("smtp") => smtp(&var)?,
            None if smtp_set => smtp(&var)?,
            None => MailTransport::Off,
            Some(other) => anyhow::bail!("MAIL_TRANSPORT must be smtp, ses or off, not {other}"),
        };
        let app_url = var("APP_URL").unwrap_or_else(|| "http://127.0.0.1:3000".into());
        let doc_path = var("DOC_PATH").unwrap_or_else(|| "/swagger-ui".into());
        if !doc_path.starts_with('/') || doc_path.len() < 2 {
            anyhow::bail!("DOC_PATH must start with '/' and name a path, e.g. /swagger-ui");
        }
        Ok(Self {
            table_name: var("TABLE_NAME").unwrap_or_else(|| "personal-finance".into()),
            dynamodb_endpoint: var("DYNAMODB_ENDPOINT"),
            jwt_secret,
            jwt_secret_arn: var("JWT_SECRET_ARN"),
            registrations_per_hour,
            doc_path: doc_path.trim_end_matches('/').to_owned(),
            sort: var("SORT").unwrap_or_else(|| "method".into()),
            cors_allowed_origins: list("CORS_ALLOWED_ORIGINS"),
            reauth_window_secs,
            login_failures_per_address,
            app_url: app_url.trim_end_matches('/').to_owned(),
            mail_from: var("MAIL_FROM")
                .unwrap_or_else(|| "Personal Finance <no-reply@localhost>".into()),
            mail_transport,
            limits,
        })
    }
}

/// The SMTP settings: `SMTP_HOST`, `SMTP_PORT`, `SMTP_TLS`.
fn smtp(var: &dyn Fn(&str) -> Option<String>) -> anyhow::Result<MailTransport> {
    let port = match var("SMTP_PORT") {
        Some(p) => p
            .trim()
            .parse()
            .map_err(|_| anyhow::anyhow!("SMTP_PORT must be a port number"))?,
        None => 1025,
    };
    Ok(MailTransport::Smtp {
        host: var("SMTP_HOST").unwrap_or_else(|| "127.0.0.1".into()),
        port,
        tls: var("SMTP_TLS").is_some_and(|v| v == "true" || v == "1"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_example_files_placeholders_fail_the_secret_check() {
        let example: serde_json::Value =
            serde_json::from_str(include_str!("../../../env.json.example")).unwrap();
        let placeholder = example["Parameters"]["JWT_SECRET"].as_str().unwrap();
        assert!(
            check_secret(placeholder.as_bytes()).is_err(),
            "{placeholder}"
        );
        assert!(check_secret(&[0u8; 64]).is_err(), "all zeros");
        assert!(check_secret(b"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa").is_err());
        assert!(check_secret(b"short").is_err());
    }

    #[test]
    fn random_secrets_pass() {
        assert!(check_secret(b"3f9a1c07be52d8e4a6f0c1d2e3b4a5968778695a4b3c2d1e0f").is_ok());
    }
}
