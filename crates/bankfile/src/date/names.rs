//! Month names as banks print them (`05 Jan 2024`, `5-JAN-24`, `Jan 5, 2024`,
//! `05. März 2024`, `5 janv. 2024`): English, German, French, Spanish, Italian, Dutch and
//! Portuguese, the languages of the header aliases.

use time::Month;

use crate::text::fold;

/// Full names by month, folded (lower case, no accents: `marz`, `aout`, `fevrier`).
#[rustfmt::skip]
const FULL: [&[&str]; 12] = [
    &["january", "januar", "janner", "janvier", "enero", "gennaio", "januari", "janeiro"],
    &["february", "februar", "fevrier", "febrero", "febbraio", "februari", "fevereiro"],
    &["march", "marz", "mars", "marzo", "maart", "marco"],
    &["april", "avril", "abril", "aprile"],
    &["may", "mai", "mayo", "maggio", "mei", "maio"],
    &["june", "juni", "juin", "junio", "giugno", "junho"],
    &["july", "juli", "juillet", "julio", "luglio", "julho"],
    &["august", "aout", "agosto", "augustus"],
    &["september", "septembre", "septiembre", "settembre", "setembro"],
    &["october", "oktober", "octobre", "octubre", "ottobre", "outubro"],
    &["november", "novembre", "noviembre", "novembro"],
    &["december", "dezember", "decembre", "diciembre", "dicembre", "dezembro"],
];

/// Abbreviations that are no beginning of a full name: German `Mrz`, Dutch `mrt`.
const OTHER: [(&str, Month); 2] = [("mrz", Month::March), ("mrt", Month::March)];

/// Shortest beginning of a name read as the month.
const MIN_LETTERS: usize = 3;

/// The month a word names: a full name, or a beginning of at least three letters that
/// begins names of one month only (`Jan`, `Sept`, `janv.`, `févr.`; not `jui`, which
/// begins `juin` and `juillet`), in any case, with or without accents and a final dot.
pub fn month(word: &str) -> Option<Month> {
    let word = word.strip_suffix('.').unwrap_or(word);
    if word.len() < MIN_LETTERS || word.len() > 12 || !word.chars().all(char::is_alphabetic) {
        return None;
    }
    let word = fold(word);
    if let Some((_, m)) = OTHER.iter().find(|(w, _)| *w == word) {
        return Some(*m);
    }
    let mut found = FULL
        .iter()
        .zip(1u8..)
        .filter(|(names, _)| names.iter().any(|n| n.starts_with(word.as_str())))
        .map(|(_, m)| m);
    match (found.next(), found.next()) {
        (Some(m), None) => Month::try_from(m).ok(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_their_beginnings() {
        use Month::*;
        for (word, m) in [
            ("Jan", Some(January)),
            ("JAN", Some(January)),
            ("january", Some(January)),
            ("Jänner", Some(January)),
            ("janv.", Some(January)),
            ("févr.", Some(February)),
            ("Mär", Some(March)),
            ("März", Some(March)),
            ("Mrz", Some(March)),
            ("mrt", Some(March)),
            ("mars", Some(March)),
            ("Sept", Some(September)),
            ("set", Some(September)),
            ("juin", Some(June)),
            ("juil.", Some(July)),
            ("août", Some(August)),
            ("ago", Some(August)),
            ("okt", Some(October)),
            ("out", Some(October)),
            ("ott", Some(October)),
            ("Dez.", Some(December)),
            ("dic", Some(December)),
            ("gen", Some(January)),
            ("ene", Some(January)),
            ("mei", Some(May)),
            ("Mai", Some(May)),
            // Too short, shared by two months, no month, not a word.
            ("ju", None),
            ("jui", None),
            ("ma", None),
            ("Janx", None),
            ("Monday", None),
            ("12", None),
            ("", None),
            (".", None),
            ("Janua7", None),
            ("decembers", None),
        ] {
            assert_eq!(month(word), m, "{word}");
        }
    }

    #[test]
    fn the_table_is_folded_and_no_two_months_share_a_full_name() {
        for names in FULL {
            for n in names {
                assert_eq!(fold(n), *n);
            }
        }
        for (i, names) in FULL.iter().enumerate() {
            for n in names.iter() {
                let others = FULL.iter().enumerate().filter(|(j, _)| *j != i);
                assert!(others.flat_map(|(_, o)| o.iter()).all(|o| o != n), "{n}");
            }
        }
    }
}
