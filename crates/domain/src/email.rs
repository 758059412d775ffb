//! E-mail addresses, the login identifier. Parsed once at the edge.

/// A syntactically plausible e-mail address, at most 254 characters.
///
/// The stored form keeps the user's spelling; `normalized()` (lower case) is the
/// uniqueness key, so `Ann@Example.com` and `ann@example.com` are one account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Email(String);

pub const EMAIL_MAX_LEN: usize = 254;

impl Email {
    pub fn parse(raw: &str) -> Result<Self, String> {
        let s = raw.trim();
        if s.is_empty() {
            return Err("must not be empty".into());
        }
        if s.chars().count() > EMAIL_MAX_LEN {
            return Err(format!("must be at most {EMAIL_MAX_LEN} characters"));
        }
        let Some((local, domain)) = s.rsplit_once('@') else {
            return Err("must be an e-mail address".into());
        };
        let valid_local = !local.is_empty() && local.len() <= 64 && !local.contains('@');
        let valid_domain = domain.contains('.')
            && !domain.starts_with('.')
            && !domain.ends_with('.')
            && !domain.contains("..")
            && domain
                .chars()
                .all(|c| c.is_alphanumeric() || c == '-' || c == '.');
        if !valid_local || !valid_domain || s.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err("must be an e-mail address".into());
        }
        Ok(Self(s.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn normalized(&self) -> String {
        self.0.to_lowercase()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_ordinary_addresses_and_normalizes_case() {
        let e = Email::parse(" Ann.Lee+bank@Example.COM ").unwrap();
        assert_eq!(e.as_str(), "Ann.Lee+bank@Example.COM");
        assert_eq!(e.normalized(), "ann.lee+bank@example.com");
    }

    #[test]
    fn rejects_malformed_addresses() {
        for bad in [
            "",
            "plain",
            "@example.com",
            "a@",
            "a@b",
            "a@.com",
            "a b@c.com",
            "a@c..com",
            "a@c.com.",
        ] {
            assert!(Email::parse(bad).is_err(), "{bad:?} should be rejected");
        }
        assert!(Email::parse(&format!("{}@example.com", "a".repeat(250))).is_err());
    }
}
