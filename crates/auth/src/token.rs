//! Access tokens: HS256 JWTs with `iss`, `aud`, `sub`, `exp` required and checked, the
//! algorithm pinned (a token signed otherwise, or `alg: none`, is refused).

use jsonwebtoken::{decode, encode, Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};

use pf_config::Secret;
use pf_domain::Role;

pub const ISSUER: &str = "personal-finance-api";
pub const AUDIENCE: &str = "personal-finance-clients";
/// Access tokens live 15 minutes.
pub const ACCESS_TTL_SECS: i64 = 15 * 60;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Claims {
    pub iss: String,
    pub aud: String,
    /// The user id, as a string (RFC 7519).
    pub sub: String,
    pub exp: i64,
    pub iat: i64,
    /// When the password login (or reset) that started this session happened (OpenID
    /// Connect's `auth_time`); a refresh keeps it.
    pub auth_time: i64,
    pub role: Role,
    /// The profile's session epoch when the session began (see `User::session_epoch`): a
    /// reset, logout-all, e-mail or role change moves it, and the token's login then no
    /// longer counts as recent for a re-authentication (absent: 0).
    #[serde(default)]
    pub sep: u64,
}

/// What a valid access token says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verified {
    pub user_id: u64,
    pub role: Role,
    pub auth_time: i64,
    /// The session epoch the token was issued in (`sep`).
    pub epoch: u64,
}

/// Signs and checks tokens with one secret.
pub struct TokenKeys {
    cursors: super::cursor::CursorKey,
    /// Derives device tokens (its own key, never the signing secret itself).
    devices: [u8; 32],
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
}

impl std::fmt::Debug for TokenKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TokenKeys(***)")
    }
}

impl TokenKeys {
    pub fn new(secret: &Secret) -> Self {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.set_issuer(&[ISSUER]);
        validation.set_audience(&[AUDIENCE]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        validation.leeway = 5;
        Self {
            cursors: super::cursor::CursorKey::derive(secret),
            devices: super::cursor::derive_key(secret, "personal-finance device key v1"),
            encoding: EncodingKey::from_secret(secret.expose()),
            decoding: DecodingKey::from_secret(secret.expose()),
            validation,
        }
    }

    /// The device token of session `family` of the user: 192 bits of HMAC-SHA256 under
    /// the device key, URL-safe (32 characters). Every step of one session (its login and
    /// each refresh) answers the same token, so a session keeps one device item however
    /// often it refreshes; nobody without the secret can make one.
    pub fn device_token(&self, user_id: u64, family: &str) -> String {
        use base64::Engine;
        use hmac::{Hmac, KeyInit, Mac};
        let mut mac = Hmac::<sha2::Sha256>::new_from_slice(&self.devices).expect("any key");
        mac.update(&user_id.to_be_bytes());
        mac.update(family.as_bytes());
        let full = mac.finalize().into_bytes();
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&full[..24])
    }

    /// The key that seals and opens page cursors (derived from the same secret).
    pub fn cursors(&self) -> &super::cursor::CursorKey {
        &self.cursors
    }

    /// A fresh access token for the user, of a session whose password login was at
    /// `auth_time` (Unix seconds) in session epoch `epoch`.
    pub fn issue(
        &self,
        user_id: u64,
        role: Role,
        auth_time: i64,
        epoch: u64,
    ) -> anyhow::Result<String> {
        let now = time::OffsetDateTime::now_utc().unix_timestamp();
        let claims = Claims {
            iss: ISSUER.into(),
            aud: AUDIENCE.into(),
            sub: user_id.to_string(),
            exp: now + ACCESS_TTL_SECS,
            iat: now,
            auth_time,
            role,
            sep: epoch,
        };
        Ok(encode(
            &Header::new(Algorithm::HS256),
            &claims,
            &self.encoding,
        )?)
    }

    /// The user id, role and login time of a valid token, or `None` for anything else.
    pub fn verify(&self, token: &str) -> Option<Verified> {
        let data = decode::<Claims>(token, &self.decoding, &self.validation).ok()?;
        Some(Verified {
            user_id: data.claims.sub.parse().ok()?,
            role: data.claims.role,
            auth_time: data.claims.auth_time,
            epoch: data.claims.sep,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_keys;

    #[test]
    fn issued_tokens_verify_and_others_do_not() {
        let (k, other) = test_keys(TokenKeys::new);
        let t = k.issue(42, Role::User, 1_700_000_000, 3).unwrap();
        let v = k.verify(&t).unwrap();
        assert_eq!(
            (v.user_id, v.role, v.auth_time, v.epoch),
            (42, Role::User, 1_700_000_000, 3)
        );
        assert_eq!(other.verify(&t), None);
        assert_eq!(k.verify("garbage"), None);
    }

    #[test]
    fn a_sessions_device_token_is_its_own_and_only_the_secret_makes_it() {
        let (k, other) = test_keys(TokenKeys::new);
        let token = k.device_token(42, "family-a");
        assert_eq!(token.len(), 32);
        assert_eq!(
            token,
            k.device_token(42, "family-a"),
            "every step: the same"
        );
        assert_ne!(token, k.device_token(42, "family-b"));
        assert_ne!(token, k.device_token(43, "family-a"));
        assert_ne!(token, other.device_token(42, "family-a"));
    }
}
