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
    /// `ADMIN_EMAILS`: comma-separated e-mails that become ADMIN when they register.
    pub admin_emails: Vec<String>,
    /// `DOC_PATH`: where Swagger UI is served (default `/swagger-ui`).
    pub doc_path: String,
    /// `SORT`: operation order in Swagger UI (`method` or `alpha`).
    pub sort: String,
    /// `CORS_ALLOWED_ORIGINS`: comma-separated origins allowed to call the API from a browser.
    pub cors_allowed_origins: Vec<String>,
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
            Some(s) if s.len() < MIN_SECRET_BYTES => {
                anyhow::bail!("JWT_SECRET must be at least {MIN_SECRET_BYTES} bytes")
            }
            Some(s) => Some(Secret::new(s.into_bytes())),
            None => None,
        };
        let doc_path = var("DOC_PATH").unwrap_or_else(|| "/swagger-ui".into());
        if !doc_path.starts_with('/') || doc_path.len() < 2 {
            anyhow::bail!("DOC_PATH must start with '/' and name a path, e.g. /swagger-ui");
        }
        Ok(Self {
            table_name: var("TABLE_NAME").unwrap_or_else(|| "personal-finance".into()),
            dynamodb_endpoint: var("DYNAMODB_ENDPOINT"),
            jwt_secret,
            jwt_secret_arn: var("JWT_SECRET_ARN"),
            admin_emails: list("ADMIN_EMAILS")
                .into_iter()
                .map(|e| e.to_lowercase())
                .collect(),
            doc_path: doc_path.trim_end_matches('/').to_owned(),
            sort: var("SORT").unwrap_or_else(|| "method".into()),
            cors_allowed_origins: list("CORS_ALLOWED_ORIGINS"),
        })
    }
}
