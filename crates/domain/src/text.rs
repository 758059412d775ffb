//! Bounded free text: person and object names, transaction notes.

/// Trims and checks a required name: 1..=`max` characters, no control characters.
pub fn parse_name(raw: &str, max: usize) -> Result<String, String> {
    let s = raw.trim();
    if s.is_empty() {
        return Err("must not be empty".into());
    }
    check(s, max)?;
    Ok(s.to_owned())
}

/// Trims and checks an optional note: up to `max` characters; empty becomes `None`.
pub fn parse_note(raw: Option<&str>, max: usize) -> Result<Option<String>, String> {
    match raw.map(str::trim) {
        None | Some("") => Ok(None),
        Some(s) => {
            // Notes may span lines; other control characters are refused.
            if s.chars().any(|c| c.is_control() && c != '\n' && c != '\t') {
                return Err("must not contain control characters".into());
            }
            if s.chars().count() > max {
                return Err(format!("must be at most {max} characters"));
            }
            Ok(Some(s.to_owned()))
        }
    }
}

fn check(s: &str, max: usize) -> Result<(), String> {
    if s.chars().count() > max {
        return Err(format!("must be at most {max} characters"));
    }
    if s.chars().any(char::is_control) {
        return Err("must not contain control characters".into());
    }
    Ok(())
}

/// Names (people, wallets, categories, tags, providers) are at most this long.
pub const NAME_MAX_LEN: usize = 100;
/// Transaction notes are at most this long.
pub const NOTE_MAX_LEN: usize = 1000;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_trimmed_and_bounded() {
        assert_eq!(parse_name("  Ann ", 100).unwrap(), "Ann");
        assert!(parse_name("   ", 100).is_err());
        assert!(parse_name(&"é".repeat(101), 100).is_err());
        assert!(parse_name(&"é".repeat(100), 100).is_ok());
        assert!(parse_name("a\u{0}b", 100).is_err());
    }

    #[test]
    fn notes_are_optional_and_bounded() {
        assert_eq!(parse_note(None, 10).unwrap(), None);
        assert_eq!(parse_note(Some("  "), 10).unwrap(), None);
        assert_eq!(
            parse_note(Some("line\nline"), 10).unwrap().as_deref(),
            Some("line\nline")
        );
        assert!(parse_note(Some("12345678901"), 10).is_err());
    }
}
