//! A user: who they are, how they prove it, and what they may do.

use super::time::Timestamp;
use super::Role;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    pub id: u64,
    /// As registered (unique ignoring case).
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    /// argon2id, PHC string; never shown.
    pub password_hash: String,
    pub role: Role,
    /// Moved whenever every session must end (password, e-mail or role change, log out
    /// everywhere): sessions started at another epoch can no longer refresh.
    pub session_epoch: u64,
    /// The current e-mail was confirmed through a mailed link (or a password reset).
    pub email_verified: bool,
    /// Starts at 1; every change of the profile adds one (the ETag).
    pub version: u64,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
}

impl User {
    /// The e-mail as the uniqueness rule compares it.
    pub fn normalized_email(&self) -> String {
        self.email.to_lowercase()
    }
}
