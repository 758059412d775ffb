//! Case and accent folding, shared by the text and the patterns so both sides agree.

use unicode_normalization::char::is_combining_mark;
use unicode_normalization::UnicodeNormalization;

/// Folds text for comparison: Unicode NFKD, lowercase, accents dropped (see [`is_accent`]),
/// letters with a stroke (`ł`, `ø`, `đ`, `ı`, ...) spelled without it, `ß`, `æ` and `œ`
/// spelled `ss`, `ae` and `oe`, final `ς` as `σ`; then what is left is composed again, so
/// Hangul syllables, Japanese voiced kana and Indic letters with their vowel signs stay
/// whole. `"Café"` → `"cafe"`,
/// `"MÜNCHEN"` → `"munchen"`, `"Straße"` → `"strasse"`, `"ŁÓDŹ"` → `"lodz"`,
/// `"ﬁ"` → `"fi"`, `"ΟΔΟΣ"` and `"οδός"` → `"οδοσ"`.
pub fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    push_folded(&mut out, text);
    out
}

/// Whether a combining mark is an accent, dropped by folding: the combining diacritical
/// marks (Latin, Greek, Cyrillic accents after NFKD, and their supplements), and the
/// optional vowel points of Hebrew and Arabic. Other marks are letters of their script
/// and are kept: the vowel signs of Devanagari, Tamil, Thai, ... (`पानी` is not `पन`),
/// the voicing marks of Japanese kana (`ガ` is not `カ`).
fn is_accent(c: char) -> bool {
    matches!(
        c,
        '\u{0300}'..='\u{036F}'
            | '\u{1AB0}'..='\u{1AFF}'
            | '\u{1DC0}'..='\u{1DFF}'
            | '\u{20D0}'..='\u{20FF}'
            | '\u{FE20}'..='\u{FE2F}'
            | '\u{0591}'..='\u{05C7}'
            | '\u{064B}'..='\u{065F}'
            | '\u{0670}'
    )
}

fn push_folded(out: &mut String, text: &str) {
    if text.is_ascii() {
        out.extend(text.chars().map(|c| c.to_ascii_lowercase()));
        return;
    }
    let mut plain = String::with_capacity(text.len());
    for c in text.nfkd().flat_map(char::to_lowercase) {
        if is_accent(c) {
            continue;
        }
        match c {
            'ß' => plain.push_str("ss"),
            'æ' => plain.push_str("ae"),
            'œ' => plain.push_str("oe"),
            'ς' => plain.push('σ'),
            'ł' => plain.push('l'),
            'ø' => plain.push('o'),
            'đ' | 'ð' => plain.push('d'),
            'ı' => plain.push('i'),
            'ħ' => plain.push('h'),
            'ŧ' => plain.push('t'),
            c => plain.push(c),
        }
    }
    out.extend(plain.nfc());
}

/// Folds a regular expression's literal text the way [`fold`] folds the text it is matched
/// against, leaving its syntax alone:
/// - an escape (`\` and the next character; `\p{..}`, `\P{..}`, `\x{..}`, `\u{..}`, `\U{..}`
///   through the closing brace; `\pL` with its letter) is copied unchanged;
/// - a group's opening `(?` is copied unchanged through the first `:`, `)` or `>`, so flags
///   (`(?U)`, `(?-i:`) and group names (`(?P<Name>`) keep their meaning;
/// - any other ASCII character is lowercased (ASCII punctuation is kept as is);
/// - a non-ASCII character is folded like text, and any regex metacharacter the folding
///   produces (e.g. fullwidth `＊` → `*`) is escaped so it stays a literal; one that folds
///   to several letters (`ß` → `ss`) is grouped, so a quantifier after it applies to all;
/// - in a character class (`[...]`), a non-ASCII end of a range (`À-ÿ`) is kept as written
///   (the range stays the one written; the regex is case-insensitive).
///
/// Refused, with the reason: a letter that folds to several letters inside a character
/// class (`[ß]` could only match one of them), and an accent with no letter before it (it
/// would fold to nothing and leave an empty pattern or alternative that matches any text).
pub fn fold_pattern(pattern: &str) -> Result<String, String> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::with_capacity(pattern.len());
    // Open character classes (nested classes and `[:alpha:]` count too).
    let mut class = 0usize;
    // The last thing written is a literal an accent may follow.
    let mut after_letter = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        let mut letter = false;
        match c {
            '\\' => {
                out.push(c);
                let Some(&e) = chars.get(i) else { break };
                i += 1;
                out.push(e);
                if matches!(e, 'p' | 'P' | 'x' | 'u' | 'U') && chars.get(i) == Some(&'{') {
                    while let Some(&b) = chars.get(i) {
                        i += 1;
                        out.push(b);
                        if b == '}' {
                            break;
                        }
                    }
                } else if matches!(e, 'p' | 'P') {
                    if let Some(&l) = chars.get(i) {
                        i += 1;
                        out.push(l);
                    }
                }
                letter = true;
            }
            '(' if chars.get(i) == Some(&'?') => {
                out.push(c);
                while let Some(&g) = chars.get(i) {
                    i += 1;
                    out.push(g);
                    if matches!(g, ':' | ')' | '>') {
                        break;
                    }
                }
            }
            '[' => {
                class += 1;
                out.push(c);
                // `[^` and a `]` right after the opening are part of the class.
                if chars.get(i) == Some(&'^') {
                    out.push('^');
                    i += 1;
                }
                if chars.get(i) == Some(&']') {
                    out.push(']');
                    i += 1;
                }
            }
            ']' if class > 0 => {
                class -= 1;
                out.push(c);
            }
            c if c.is_ascii() => {
                out.push(c.to_ascii_lowercase());
                letter = c.is_ascii_alphanumeric();
            }
            c if class > 0 && is_range_end(&chars, i - 1) => {
                out.push(c);
                letter = true;
            }
            c => {
                // The letter with the marks written after it (`ｶﾞ`, `カ` + U+3099): they
                // fold together, as in the text (into `ガ`), not one by one.
                let mut letter_and_marks = String::from(c);
                while let Some(&m) = chars.get(i).filter(|&&m| is_mark(m)) {
                    letter_and_marks.push(m);
                    i += 1;
                }
                let folded = fold(&letter_and_marks);
                match folded.chars().count() {
                    0 if after_letter => {}
                    0 => {
                        return Err(format!(
                            "the accent U+{:04X} has no letter before it",
                            u32::from(c)
                        ))
                    }
                    1 => out.push_str(&regex::escape(&folded)),
                    _ if class > 0 => {
                        return Err(format!(
                            "`{c}` is compared as `{folded}`, which a character class cannot \
                             hold: write it outside the brackets"
                        ))
                    }
                    _ => {
                        out.push_str("(?:");
                        out.push_str(&regex::escape(&folded));
                        out.push(')');
                    }
                }
                letter = true;
            }
        }
        after_letter = letter;
    }
    Ok(out)
}

/// A mark that folds onto the letter before it: a combining mark, or a half-width kana
/// voicing mark (`ﾞ`, `ﾟ`).
fn is_mark(c: char) -> bool {
    !c.is_ascii() && (is_combining_mark(c) || matches!(c, '\u{FF9E}' | '\u{FF9F}'))
}

/// Whether `chars[at]`, inside a character class, is an end of a range `a-z`.
fn is_range_end(chars: &[char], at: usize) -> bool {
    let starts = chars.get(at + 1) == Some(&'-') && chars.get(at + 2).is_some_and(|&n| n != ']');
    let ends = at >= 2
        && chars[at - 1] == '-'
        && !matches!(chars[at - 2], '[' | '\\')
        && !(chars[at - 2] == '^' && at >= 3 && chars[at - 3] == '[');
    starts || ends
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
            ("Cafe\u{301}", "cafe"),
            // Greek capitals and a word's final sigma fold alike.
            ("ΟΔΟΣ ΕΡΜΟΥ", "οδοσ ερμου"),
            ("οδός", "οδοσ"),
            // Letters with a stroke, dotless i, ligature letters.
            ("ŻABKA ŁÓDŹ", "zabka lodz"),
            ("KØBENHAVN", "kobenhavn"),
            ("SARIYER", "sariyer"),
            ("Sarıyer", "sariyer"),
            ("ŒUVRE Æble", "oeuvre aeble"),
            // Hangul syllables stay whole, Japanese voiced kana keep their voicing.
            ("대국마트", "대국마트"),
            ("ガス", "ガス"),
            ("ｶﾞｽ", "ガス"),
        ] {
            assert_eq!(fold(text), folded, "{text:?}");
        }
        assert!(!fold("대국마트").contains(&fold("대구")));
        assert_ne!(fold("ガス"), fold("カス"));
    }

    #[test]
    fn folds_pattern_literals_only() {
        let ok = |p: &str| fold_pattern(p).unwrap();
        assert_eq!(ok(r"^CAFÉ\s+\D"), r"^cafe\s+\D");
        assert_eq!(ok(r"(?U)(?P<Name>X)\p{Lu}\pL"), r"(?U)(?P<Name>x)\p{Lu}\pL");
        assert_eq!(ok("a＊"), r"a\*");
        assert_eq!(ok("trailing\\"), "trailing\\");
        // Several letters from one stay together under a quantifier.
        assert_eq!(ok("^straß?e$"), "^stra(?:ss)?e$");
        // A range keeps its accented ends; a lone accented letter in a class is folded.
        assert_eq!(ok("^[A-Za-zÀ-ÖØ-öø-ÿ ]+$"), "^[a-za-zÀ-ÖØ-öø-ÿ ]+$");
        assert_eq!(ok("[éa-ÿ]"), "[ea-ÿ]");
        assert_eq!(ok("[^-é]"), "[^-e]");
        // A decomposed accent after its letter folds away with it.
        assert_eq!(ok("cafe\u{301}"), "cafe");
    }

    #[test]
    fn refuses_patterns_folding_cannot_keep() {
        for pattern in ["[ß]", "^[ﬁ]sh$", "\u{301}", "netflix|\u{301}", "(\u{301})"] {
            assert!(fold_pattern(pattern).is_err(), "{pattern:?}");
        }
    }
}
