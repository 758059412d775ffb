//! Tamper-proof opaque cursors: the position a page ends at, authenticated with a key
//! derived from the server's signing secret and bound to the caller, so a client can only
//! hand back cursors this service issued to it. Anything else is simply invalid (a 400),
//! never a query DynamoDB would refuse.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

use pf_config::Secret;

type HmacSha256 = Hmac<Sha256>;

/// Bytes of the tag kept in a cursor (128 bits).
const TAG_BYTES: usize = 16;
/// Longest cursor accepted, in characters.
pub const MAX_CURSOR_LEN: usize = 512;

/// A key for one use (`label`) derived from the secret: HMAC-SHA256(secret, label).
pub fn derive_key(secret: &Secret, label: &str) -> [u8; 32] {
    let mut mac = HmacSha256::new_from_slice(secret.expose()).expect("HMAC takes any key");
    mac.update(label.as_bytes());
    let mut key = [0u8; 32];
    key.copy_from_slice(&mac.finalize().into_bytes());
    key
}

/// Signs and opens cursors.
pub struct CursorKey {
    key: [u8; 32],
}

impl std::fmt::Debug for CursorKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CursorKey(***)")
    }
}

impl CursorKey {
    /// A key of its own for cursors (never the token signing key itself).
    pub fn derive(secret: &Secret) -> Self {
        Self {
            key: derive_key(secret, "personal-finance cursor key v1"),
        }
    }

    fn tag(&self, purpose: &str, user_id: u64, payload: &[u8]) -> [u8; TAG_BYTES] {
        let mut mac = HmacSha256::new_from_slice(&self.key).expect("HMAC takes any key");
        mac.update(purpose.as_bytes());
        mac.update(&[0]);
        mac.update(&user_id.to_be_bytes());
        mac.update(payload);
        let full = mac.finalize().into_bytes();
        let mut tag = [0u8; TAG_BYTES];
        tag.copy_from_slice(&full[..TAG_BYTES]);
        tag
    }

    /// The opaque cursor for `payload`, usable by `user_id` only and for `purpose` only
    /// (a list cursor is no sync cursor).
    pub fn seal(&self, purpose: &str, user_id: u64, payload: &str) -> String {
        let tag = self.tag(purpose, user_id, payload.as_bytes());
        format!(
            "{}.{}",
            URL_SAFE_NO_PAD.encode(payload),
            URL_SAFE_NO_PAD.encode(tag)
        )
    }

    /// The payload of a cursor this key sealed for `purpose` and `user_id`, or `None`.
    pub fn open(&self, purpose: &str, user_id: u64, cursor: &str) -> Option<String> {
        if cursor.len() > MAX_CURSOR_LEN {
            return None;
        }
        let (payload, tag) = cursor.split_once('.')?;
        let payload = URL_SAFE_NO_PAD.decode(payload).ok()?;
        let tag = URL_SAFE_NO_PAD.decode(tag).ok()?;
        let mut mac = HmacSha256::new_from_slice(&self.key).expect("HMAC takes any key");
        mac.update(purpose.as_bytes());
        mac.update(&[0]);
        mac.update(&user_id.to_be_bytes());
        mac.update(&payload);
        // Constant-time comparison of the truncated tag.
        mac.verify_truncated_left(&tag).ok()?;
        if tag.len() != TAG_BYTES {
            return None;
        }
        String::from_utf8(payload).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_keys;

    #[test]
    fn sealed_cursors_open_for_their_user_only() {
        let (k, other) = test_keys(CursorKey::derive);
        let c = k.seal("list", 7, "TXN#2026-01-01#1|TXN#1");
        assert_eq!(
            k.open("list", 7, &c).as_deref(),
            Some("TXN#2026-01-01#1|TXN#1")
        );
        assert_eq!(k.open("list", 8, &c), None, "bound to the user");
        assert_eq!(k.open("sync", 7, &c), None, "bound to its purpose");
        assert_eq!(other.open("list", 7, &c), None, "bound to its key");
    }

    #[test]
    fn forged_and_altered_cursors_do_not_open() {
        let (k, _) = test_keys(CursorKey::derive);
        let forged = URL_SAFE_NO_PAD.encode("TXN#~~|TXN#1");
        assert_eq!(k.open("list", 7, &forged), None);
        let c = k.seal("list", 7, "TXN#2026-01-01#1|TXN#1");
        let (_, tag) = c.split_once('.').unwrap();
        let altered = format!("{}.{tag}", URL_SAFE_NO_PAD.encode("TXN#~~|TXN#1"));
        assert_eq!(k.open("list", 7, &altered), None);
        let short_tag = format!("{}.{}", c.split_once('.').unwrap().0, &tag[..4]);
        assert_eq!(k.open("list", 7, &short_tag), None);
        assert_eq!(k.open("list", 7, ""), None);
        assert_eq!(k.open("list", 7, "a.b.c"), None);
    }
}
