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
    /// The address password resets went to before the last e-mail change, while the
    /// current one is unverified (see [`User::reset_address`]); `None` if the e-mail never
    /// changed.
    pub previous_email: Option<String>,
    /// Starts at 1; every change of the profile adds one (the ETag).
    pub version: u64,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
}

impl User {
    /// A user as registration makes one: role `user`, first session epoch, address not
    /// yet verified, version 1.
    pub fn new(
        id: u64,
        email: String,
        first_name: String,
        last_name: String,
        password_hash: String,
        now: Timestamp,
    ) -> Self {
        Self {
            id,
            email,
            first_name,
            last_name,
            password_hash,
            role: Role::User,
            session_epoch: 0,
            email_verified: false,
            previous_email: None,
            version: 1,
            created_at: now,
            updated_at: now,
        }
    }

    /// The e-mail as the uniqueness rule compares it.
    pub fn normalized_email(&self) -> String {
        self.email.to_lowercase()
    }

    /// Where a password reset is mailed: the current address once it is verified, or when
    /// the e-mail never changed (verified or not); after a change, until the new address
    /// is verified, the address resets went to before it. A token that changed the e-mail
    /// cannot also receive the links that set the password.
    pub fn reset_address(&self) -> &str {
        match &self.previous_email {
            Some(previous) if !self.email_verified => previous,
            _ => &self.email,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resets_go_to_the_previous_address_until_the_new_one_is_verified() {
        let now = Timestamp::parse("2026-01-01T00:00:00").unwrap();
        let mut u = User::new(
            1,
            "new@example.com".into(),
            "A".into(),
            "B".into(),
            String::new(),
            now,
        );
        assert_eq!(u.reset_address(), "new@example.com", "never changed");
        u.previous_email = Some("old@example.com".into());
        assert_eq!(u.reset_address(), "old@example.com");
        u.email_verified = true;
        assert_eq!(u.reset_address(), "new@example.com");
    }
}
