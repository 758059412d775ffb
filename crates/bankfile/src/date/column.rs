//! A date column's format: the one that reads the most of its cells, and which trailing
//! cells have the shape of a date at all.

use super::{names, DateFormat};
use crate::FileError;

/// The format that reads the most cells of a column. `Ok(None)` when none reads any;
/// [`FileError::AmbiguousDate`] when formats tie and give different dates.
pub fn detect(cells: &[&str]) -> Result<Option<DateFormat>, FileError> {
    let cells: Vec<&str> = cells
        .iter()
        .copied()
        .filter(|c| !c.trim().is_empty())
        .collect();
    let counts: Vec<usize> = DateFormat::CANDIDATES
        .iter()
        .map(|f| cells.iter().filter(|c| f.read(c).is_some()).count())
        .collect();
    let best = counts.iter().copied().max().unwrap_or(0);
    if best == 0 {
        return Ok(None);
    }
    let tied: Vec<DateFormat> = DateFormat::CANDIDATES
        .iter()
        .zip(&counts)
        .filter(|(_, n)| **n == best)
        .map(|(f, _)| *f)
        .collect();
    let Some(&first) = tied.first() else {
        return Ok(None);
    };
    let sample = cells
        .iter()
        .find(|c| first.read(c).is_some())
        .copied()
        .unwrap_or("");
    let differ = tied[1..]
        .iter()
        .any(|f| cells.iter().any(|c| f.read(c) != first.read(c)));
    if differ {
        return Err(FileError::AmbiguousDate {
            candidates: tied
                .iter()
                .map(|f| f.shown_as(sample).to_string())
                .collect(),
        });
    }
    Ok(Some(first.shown_as(sample)))
}

/// Whether a cell has the shape of a date (digit groups and separators), valid or not:
/// trailing lines whose date cells lack it are summaries, not rows.
pub fn looks_like_date(raw: &str) -> bool {
    let raw = &*super::cjk_date(raw);
    let date = raw.trim().split([' ', 'T']).next().unwrap_or("");
    let groups = date.split(['/', '.', '-']).collect::<Vec<_>>();
    let digits = |s: &&str| !s.is_empty() && s.len() <= 4 && s.bytes().all(|b| b.is_ascii_digit());
    let words: Vec<&str> = raw
        .split(|c: char| c.is_whitespace() || matches!(c, '/' | '.' | '-' | ','))
        .filter(|w| !w.is_empty())
        .take(3)
        .collect();
    let named = words.len() == 3
        && words.iter().filter(|w| digits(w)).count() == 2
        && words.iter().any(|w| names::month(w).is_some());
    named
        || (groups.len() == 3 && groups.iter().all(digits))
        || (date.len() == 8 && date.bytes().all(|b| b.is_ascii_digit()))
}
