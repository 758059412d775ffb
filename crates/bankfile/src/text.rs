//! Text helpers: the CSV-injection escape of exports and its exact inverse, the tags
//! cell, and folding for case- and accent-insensitive matching.

/// First characters that make a spreadsheet evaluate a cell (OWASP CSV injection).
const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

fn needs_escape(text: &str) -> bool {
    let rest = text.trim_start_matches(' ');
    rest.starts_with(FORMULA_STARTS) || rest.starts_with('\'')
}

/// Escapes a text cell for export: a leading `'` when its first non-space character is
/// `=` `+` `-` `@` tab or CR, or `'` itself (so that the import's unescape gives back
/// exactly the original).
pub fn escape_cell(text: &str) -> String {
    if needs_escape(text) {
        format!("'{text}")
    } else {
        text.to_owned()
    }
}

/// Reverses [`escape_cell`]: drops a leading `'` whose rest, after leading spaces,
/// starts with a formula character or `'`. Compatible with the older escape, which
/// looked at the first character only.
pub fn unescape_cell(text: &str) -> &str {
    match text.strip_prefix('\'') {
        Some(rest) if needs_escape(rest) => rest,
        _ => text,
    }
}

/// Joins tag names into one cell: `;` separates, a `;` or `\` inside a name is
/// escaped as `\;` or `\\`.
pub fn join_tags<S: AsRef<str>>(tags: &[S]) -> String {
    let mut cell = String::new();
    for (i, tag) in tags.iter().enumerate() {
        if i > 0 {
            cell.push(';');
        }
        for c in tag.as_ref().chars() {
            if c == ';' || c == '\\' {
                cell.push('\\');
            }
            cell.push(c);
        }
    }
    cell
}

/// Splits a tags cell (the inverse of [`join_tags`]): names trimmed, empty ones dropped;
/// a `\` before another character than `;` or `\` stays as it is.
pub fn split_tags(cell: &str) -> Vec<String> {
    let mut tags = Vec::new();
    let mut current = String::new();
    let mut chars = cell.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if matches!(chars.peek(), Some(';' | '\\')) => {
                current.extend(chars.next());
            }
            ';' => tags.push(std::mem::take(&mut current)),
            c => current.push(c),
        }
    }
    tags.push(current);
    tags.into_iter()
        .map(|t| t.trim().to_owned())
        .filter(|t| !t.is_empty())
        .collect()
}

/// Lower case without accents, `ß` as `ss` and German `ae` `oe` `ue` as `a` `o` `u`,
/// words (runs of letters and digits) separated by one space.
pub fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(256));
    let mut space = false;
    for c in text.chars().take(200).flat_map(char::to_lowercase) {
        let base = match c {
            'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' => 'a',
            'ç' | 'č' | 'ć' => 'c',
            'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ę' => 'e',
            'ì' | 'í' | 'î' | 'ï' => 'i',
            'ñ' | 'ń' => 'n',
            'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' => 'o',
            'ù' | 'ú' | 'û' | 'ü' => 'u',
            'ý' | 'ÿ' => 'y',
            'ł' => 'l',
            'š' | 'ś' => 's',
            'ž' | 'ź' | 'ż' => 'z',
            'ß' => {
                out.push('s');
                's'
            }
            c => c,
        };
        if base.is_alphanumeric() {
            if space && !out.is_empty() {
                out.push(' ');
            }
            space = false;
            out.push(base);
        } else {
            space = true;
        }
    }
    out.replace("ae", "a").replace("oe", "o").replace("ue", "u")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_round_trip_exactly() {
        for text in [
            "=SUM(A1)", "'=x", "'plain", "-5 fee", "plain", "@me", "", "  =cmd", " 'x", "' =x",
            "\tx", "  ", "'", "''",
        ] {
            assert_eq!(unescape_cell(&escape_cell(text)), text, "{text:?}");
        }
        assert_eq!(escape_cell("  +1"), "'  +1");
        // The older escape's output ('=SUM(A1), ''quoted) reads back the same.
        for (cell, text) in [
            ("'hello", "'hello"),
            ("'=SUM(A1)", "=SUM(A1)"),
            ("''quoted", "'quoted"),
        ] {
            assert_eq!(unescape_cell(cell), text, "{cell:?}");
        }
    }

    #[test]
    fn tags_with_semicolons_survive() {
        let tags = ["a;b", "c\\d", "plain", "x\\;y"];
        assert_eq!(split_tags(&join_tags(&tags)), tags);
        assert_eq!(split_tags("weekly; food;;"), ["weekly", "food"]);
        assert_eq!(split_tags("a\\b"), ["a\\b"]);
    }

    #[test]
    fn folding() {
        assert_eq!(fold("Auftraggeber/Empfänger"), "auftraggeber empfanger");
        assert_eq!(fold("Empfaenger"), "empfanger");
        assert_eq!(fold(" Débit  (EUR) "), "debit eur");
        assert_eq!(fold("Straße"), "strasse");
    }
}
