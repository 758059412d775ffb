//! Passwords as users choose them: length rules and a common-password list, nothing else.

use std::fmt;

pub const PASSWORD_MIN_LEN: usize = 15;
pub const PASSWORD_MAX_LEN: usize = 128;

/// A new password that passed the policy (NIST 800-63B: length, no composition rules,
/// common passwords refused). Never printed.
pub struct Password(String);

/// Passwords long enough to pass the length rule that still appear in breach lists.
const COMMON: &[&str] = &[
    "123456789012345",
    "1234567890123456",
    "12345678901234567890",
    "passwordpassword",
    "password1234567",
    "password12345678",
    "qwertyuiopasdfgh",
    "qwertyuiopasdfghjkl",
    "1q2w3e4r5t6y7u8i",
    "aaaaaaaaaaaaaaa",
    "iloveyouiloveyou",
    "letmeinletmeinletmein",
    "abcdefghijklmnop",
    "abc123abc123abc123",
    "welcome123456789",
    "administrator123",
    "changemechangeme",
    "trustno1trustno1",
    "000000000000000",
    "111111111111111",
];

impl Password {
    pub fn parse(raw: &str) -> Result<Self, String> {
        let len = raw.chars().count();
        if len < PASSWORD_MIN_LEN {
            return Err(format!("must be at least {PASSWORD_MIN_LEN} characters"));
        }
        if len > PASSWORD_MAX_LEN {
            return Err(format!("must be at most {PASSWORD_MAX_LEN} characters"));
        }
        let lower = raw.to_lowercase();
        let one_char = lower.chars().all(|c| lower.starts_with(c));
        if one_char || COMMON.contains(&lower.as_str()) {
            return Err("is too common; choose a less guessable password".into());
        }
        Ok(Self(raw.to_owned()))
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Password {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Password(***)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enforces_length_bounds() {
        assert!(Password::parse("short-password").is_err());
        assert!(Password::parse("correct horse battery").is_ok());
        assert!(Password::parse(&"x1".repeat(65)).is_err());
    }

    #[test]
    fn refuses_common_and_single_character_passwords() {
        assert!(Password::parse("PasswordPassword").is_err());
        assert!(Password::parse("zzzzzzzzzzzzzzzzzz").is_err());
    }

    #[test]
    fn never_prints_the_secret() {
        let p = Password::parse("correct horse battery").unwrap();
        assert_eq!(format!("{p:?}"), "Password(***)");
    }
}
