//! A job's rows as its chunk items hold them: JSON arrays of compact rows, each chunk at
//! most [`CHUNK_ROWS`] rows and [`CHUNK_BYTES`] bytes (DynamoDB items hold 400 KB).

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use time::Date;

use crate::imports::ImportRow;
use crate::{AppError, AppResult};

/// Rows per chunk: one chunk is one unit of work, a few seconds of writes.
pub(super) const CHUNK_ROWS: usize = 1_000;
/// Bytes of JSON per chunk.
const CHUNK_BYTES: usize = 300 * 1024;

/// A row with its import id (decided when the file was read), in short names.
#[derive(Serialize, Deserialize)]
struct Stored {
    r: usize,
    /// Julian day number.
    d: i32,
    a: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    c: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    n: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    p: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    t: Vec<String>,
    i: Option<String>,
    /// A split row's parts: amount, category, note.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    s: Vec<(String, Option<String>, Option<String>)>,
}

fn stored(row: &ImportRow) -> Stored {
    Stored {
        r: row.row,
        d: row.date.to_julian_day(),
        a: row.amount.to_string(),
        c: row.category.clone(),
        n: row.note.clone(),
        p: row.payee.clone(),
        t: row.tags.clone(),
        i: row.import_id.clone(),
        s: row
            .splits
            .iter()
            .map(|p| (p.amount.to_string(), p.category.clone(), p.note.clone()))
            .collect(),
    }
}

/// The rows in chunks, in order.
pub(super) fn encode(rows: &[ImportRow]) -> AppResult<Vec<String>> {
    let mut chunks = Vec::new();
    let (mut chunk, mut count) = (String::from("["), 0);
    for row in rows {
        let json = serde_json::to_string(&stored(row))
            .map_err(|e| AppError::Store(anyhow::Error::from(e).into()))?;
        if count == CHUNK_ROWS || (count > 0 && chunk.len() + json.len() + 2 > CHUNK_BYTES) {
            chunk.push(']');
            chunks.push(std::mem::replace(&mut chunk, String::from("[")));
            count = 0;
        }
        if count > 0 {
            chunk.push(',');
        }
        chunk.push_str(&json);
        count += 1;
    }
    if count > 0 {
        chunk.push(']');
        chunks.push(chunk);
    }
    Ok(chunks)
}

/// The rows of one chunk.
pub(super) fn decode(text: &str) -> AppResult<Vec<ImportRow>> {
    let bad = |what: &str| AppError::Store(anyhow::anyhow!("an import chunk holds {what}").into());
    let stored: Vec<Stored> = serde_json::from_str(text).map_err(|_| bad("no rows"))?;
    stored
        .into_iter()
        .map(|s| {
            Ok(ImportRow {
                row: s.r,
                date: Date::from_julian_day(s.d).map_err(|_| bad("a bad date"))?,
                amount: s.a.parse::<Decimal>().map_err(|_| bad("a bad amount"))?,
                category: s.c,
                note: s.n,
                payee: s.p,
                tags: s.t,
                import_id: s.i,
                splits: s
                    .s
                    .into_iter()
                    .map(|(a, category, note)| {
                        let amount = a.parse::<Decimal>().map_err(|_| bad("a bad amount"))?;
                        Ok(bankfile::SplitLine {
                            amount,
                            category,
                            note,
                        })
                    })
                    .collect::<AppResult<_>>()?,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(n: usize, note: &str) -> ImportRow {
        ImportRow {
            row: n,
            date: Date::from_calendar_date(2024, time::Month::March, 9).unwrap(),
            amount: Decimal::new(-12_345, 2),
            category: n.is_multiple_of(2).then(|| "Groceries".into()),
            note: Some(note.into()),
            payee: None,
            tags: vec!["a".into(), "b,\"c\"".into()],
            import_id: Some(format!("id-{n}")),
            splits: Vec::new(),
        }
    }

    #[test]
    fn chunks_hold_every_row_exactly_and_stay_small() {
        let rows: Vec<ImportRow> = (1..=2_500).map(|n| row(n, "Café \"x\"\n")).collect();
        let chunks = encode(&rows).unwrap();
        assert_eq!(chunks.len(), 3);
        let back: Vec<ImportRow> = chunks.iter().flat_map(|c| decode(c).unwrap()).collect();
        assert_eq!(back, rows);
        // Long notes: chunks are cut by size, not only by count.
        let rows: Vec<ImportRow> = (1..=1_000).map(|n| row(n, &"é".repeat(1000))).collect();
        let chunks = encode(&rows).unwrap();
        assert!(chunks.len() > 3, "{}", chunks.len());
        assert!(chunks.iter().all(|c| c.len() <= CHUNK_BYTES));
        let back: Vec<ImportRow> = chunks.iter().flat_map(|c| decode(c).unwrap()).collect();
        assert_eq!(back, rows);
    }
}
