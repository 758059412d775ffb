//! Case and accent folding, shared by the text and the patterns so both sides agree.

use unicode_normalization::char::is_combining_mark;
use unicode_normalization::UnicodeNormalization;

/// Folds text for comparison: Unicode NFKD, lowercase, combining marks dropped, and `ß`
/// spelled `ss`. `"Café"` → `"cafe"`, `"MÜNCHEN"` → `"munchen"`, `"Straße"` → `"strasse"`,
/// `"ﬁ"` → `"fi"`.
pub fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    push_folded(&mut out, text);
    out
}

fn push_folded(out: &mut String, text: &str) {
    if text.is_ascii() {
        out.extend(text.chars().map(|c| c.to_ascii_lowercase()));
        return;
    }
    for c in text.nfkd().flat_map(char::to_lowercase) {
        if is_combining_mark(c) {
            continue;
        }
        if c == 'ß' {
            out.push_str("ss");
        } else {
            out.push(c);
        }
    }
}

/// Folds a regular expression's literal text the way [`fold`] folds the text it is matched
/// against, leaving its syntax alone:
/// - an escape (`\` and the next character; `\p{..}`, `\P{..}`, `\x{..}`, `\u{..}`, `\U{..}`
///   through the closing brace; `\pL` with its letter) is copied unchanged;
/// - a group's opening `(?` is copied unchanged through the first `:`, `)` or `>`, so flags
///   (`(?U)`, `(?-i:`) and group names (`(?P<Name>`) keep their meaning;
/// - any other ASCII character is lowercased (ASCII punctuation is kept as is);
/// - a non-ASCII character is folded like text, and any regex metacharacter the folding
///   produces (e.g. fullwidth `＊` → `*`) is escaped so it stays a literal.
pub fn fold_pattern(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len());
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                out.push(c);
                let Some(e) = chars.next() else { break };
                out.push(e);
                if matches!(e, 'p' | 'P' | 'x' | 'u' | 'U') && chars.peek() == Some(&'{') {
                    for b in chars.by_ref() {
                        out.push(b);
                        if b == '}' {
                            break;
                        }
                    }
                } else if matches!(e, 'p' | 'P') {
                    if let Some(l) = chars.next() {
                        out.push(l);
                    }
                }
            }
            '(' if chars.peek() == Some(&'?') => {
                out.push(c);
                for g in chars.by_ref() {
                    out.push(g);
                    if matches!(g, ':' | ')' | '>') {
                        break;
                    }
                }
            }
            c if c.is_ascii() => out.push(c.to_ascii_lowercase()),
            c => {
                let mut buf = [0u8; 4];
                out.push_str(&regex::escape(&fold(c.encode_utf8(&mut buf))));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_text() {
        for (text, folded) in [
            ("Café de Flore", "cafe de flore"),
            ("MÜNCHEN", "munchen"),
            ("Straße", "strasse"),
            ("ＡＭＺＮ", "amzn"),
            ("İstanbul", "istanbul"),
        ] {
            assert_eq!(fold(text), folded, "{text:?}");
        }
    }

    #[test]
    fn folds_pattern_literals_only() {
        assert_eq!(fold_pattern(r"^CAFÉ\s+\D"), r"^cafe\s+\D");
        assert_eq!(
            fold_pattern(r"(?U)(?P<Name>X)\p{Lu}\pL"),
            r"(?U)(?P<Name>x)\p{Lu}\pL"
        );
        assert_eq!(fold_pattern("a＊"), r"a\*");
        assert_eq!(fold_pattern("trailing\\"), "trailing\\");
    }
}
