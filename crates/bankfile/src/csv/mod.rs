//! CSV in any dialect: delimiter, preamble, header aliases, date format and decimal
//! separator are detected over the whole file; overrides in [`Options`] win.

mod aliases;
mod dialect;
pub(crate) mod header;
mod headerless;
mod holds;
mod preamble;
mod row;
mod words;

use crate::amount::{self, currency_of, detect_decimal};
use crate::date::{detect, looks_like_date, DateFormat};
use crate::{Detected, Field, FileError, Options, Statement};
use row::{Columns, Reading};

/// Records kept beyond the row cap while reading, for trailing summary lines.
const SUMMARY_SLACK: usize = 50;

pub fn parse(text: &str, encoding: &str, options: &Options) -> Result<Statement, FileError> {
    let layout = dialect::layout(text, options)?;
    let columns = Columns::new(&layout.headers, &layout.fields);
    let cap = options.row_cap();
    // The data records after the header, numbered from 1; blank lines and repeated
    // headers are no rows.
    let mut records: Vec<(usize, Vec<String>)> = Vec::new();
    let header_key: Vec<String> = layout
        .headers
        .iter()
        .map(|h| h.trim().to_lowercase())
        .collect();
    let mut reader = dialect::reader(text, layout.delimiter);
    for (index, record) in reader.records().enumerate().skip(layout.data_index) {
        let row = index + 1 - layout.data_index;
        let cells: Vec<String> = match record {
            Ok(r) => {
                let start = r.position().map_or(0, |p| p.byte() as usize);
                let quoted = quoted_cells(text.get(start..).unwrap_or(""), layout.delimiter);
                // A quoted cell is as written; an unquoted one loses the spaces a bank
                // pads it with (every field trims its cells' ends, a note too).
                r.iter()
                    .enumerate()
                    .map(|(i, c)| match quoted.get(i) {
                        Some(true) => c.to_owned(),
                        _ => c.trim_end().to_owned(),
                    })
                    .collect()
            }
            Err(e) => vec![format!("\u{0}{e}")],
        };
        let blank = cells.iter().all(|c| c.trim().is_empty());
        let repeated = cells.len() == header_key.len()
            && cells
                .iter()
                .zip(&header_key)
                .all(|(a, b)| a.trim().to_lowercase() == *b);
        if blank || repeated || words::is_balance_line(&cells) {
            continue;
        }
        if records.len() >= cap + SUMMARY_SLACK {
            return Err(FileError::TooManyRows { max: cap });
        }
        records.push((row, cells));
    }
    // Trailing lines after the data that hold no date are summaries, not rows.
    let last = records
        .iter()
        .rposition(|(_, cells)| cells.iter().any(|c| looks_like_date(c)))
        .map_or(records.len(), |i| i + 1);
    records.truncate(last);
    if records.len() > cap {
        return Err(FileError::TooManyRows { max: cap });
    }

    let column_cells = |fields: &[Field]| -> Vec<&str> {
        records
            .iter()
            .flat_map(|(_, cells)| {
                columns
                    .indexes(fields)
                    .filter_map(|i| cells.get(i).map(String::as_str))
            })
            .collect()
    };
    let date_format = match &options.date_format {
        Some(f) => Some(f.parse::<DateFormat>()?),
        None => detect(&column_cells(&[Field::Date, Field::ValueDate]))?,
    };
    let amount_cells = column_cells(&[Field::Amount, Field::Debit, Field::Credit]);
    let decimal = match options.decimal {
        Some(c @ ('.' | ',')) => c,
        Some(c) => return Err(FileError::bad("decimal", format!("{c:?} is not . or ,"))),
        None => detect_decimal(
            &amount_cells,
            if layout.delimiter == b',' { '.' } else { ',' },
            options.currency.as_deref(),
        ),
    };
    let account = preamble::account(&layout.preamble);
    let currency = statement_currency(&column_cells(&[Field::Currency]), options)
        .or_else(|| columns.currency_hint())
        .or_else(|| amount_cells.iter().find_map(|c| currency_of(c)))
        .or_else(|| preamble::currency(&layout.preamble));

    // An amount column that signs its amounts (at least one in ten carries a sign: a card
    // statement's purchases) signs them all: a type column then names the kind of each (a
    // card's `Payment` is money in) and does not sign them. Below that, the signs are
    // corrections in a column of unsigned amounts, which the type column signs. Chase's
    // card export signs its own, even in a month of payments only (none written).
    let amounts: Vec<_> = column_cells(&[Field::Amount])
        .iter()
        .filter_map(|c| amount::parse(c, decimal).ok())
        .collect();
    let signed = amounts.iter().filter(|a| a.signed).count();
    let signed_column =
        (signed > 0 && signed * 10 >= amounts.len()) || dialect::signs_its_amounts(&layout.headers);
    let invert = options
        .invert
        .unwrap_or_else(|| dialect::prints_charges_positive(&layout.headers));
    let fee_signed = column_cells(&[Field::Fee])
        .iter()
        .filter_map(|c| amount::parse(c, decimal).ok())
        .any(|f| f.value < rust_decimal::Decimal::ZERO);
    let reading = Reading {
        columns: &columns,
        date_format,
        decimal,
        signed_column,
        fee_signed,
        invert,
        account: account.as_deref(),
        currency: currency.as_deref(),
    };
    let account = account.clone();
    let mut statement = Statement::new(Detected {
        delimiter: Some(char::from(layout.delimiter)),
        date_format: date_format.map(|f| f.to_string()),
        decimal: Some(decimal),
        columns: columns.detected(),
        account,
        currency: currency.clone(),
        invert,
        ..Detected::new(crate::Format::Csv, encoding)
    });
    let mut holds = holds::Holds::new(
        &layout.headers,
        columns.indexes(&[Field::Amount]).next(),
        decimal,
        records.iter(),
        |cells| reading.is_unbooked(cells),
    );
    for (row, cells) in &records {
        if reading.is_unbooked(cells) {
            statement.pending_skipped += 1;
            continue;
        }
        // The release of a hold left out (pending) goes with it, counted as pending.
        if let Some(pair) = holds.as_mut().and_then(|h| h.releases(*row, cells)) {
            statement.pending_skipped += 1;
            statement.paired.push(pair);
            continue;
        }
        if reading.is_moneyless(cells) {
            continue;
        }
        statement.total_rows += 1;
        match reading.row(*row, cells) {
            Ok(r) => statement.rows.push(r),
            Err(e) => statement.errors.extend(e),
        }
    }
    Ok(statement)
}

/// Which cells of the record that `text` begins with were quoted (`"` first), as the
/// reader reads them: a `""` inside quotes is one quote, the record ends at a line break
/// outside them.
fn quoted_cells(text: &str, delimiter: u8) -> Vec<bool> {
    let mut out = vec![text.as_bytes().first() == Some(&b'"')];
    let (mut inside, mut bytes) = (out[0], text.bytes().skip(usize::from(out[0])).peekable());
    while let Some(b) = bytes.next() {
        match b {
            b'"' if inside && bytes.peek() == Some(&b'"') => {
                bytes.next();
            }
            b'"' if inside => inside = false,
            b'\n' | b'\r' if !inside => break,
            _ if b == delimiter && !inside => {
                let quoted = bytes.peek() == Some(&b'"');
                if quoted {
                    bytes.next();
                }
                out.push(quoted);
                inside = quoted;
            }
            _ => {}
        }
    }
    out
}

/// The statement's currency by its currency column: the wanted one
/// ([`Options::currency`]) when the column holds it, else the most frequent code (the
/// first in the file of those as frequent), upper-cased.
fn statement_currency(cells: &[&str], options: &Options) -> Option<String> {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for c in cells {
        let c = c.trim().to_ascii_uppercase();
        if c.len() == 3 && c.bytes().all(|b| b.is_ascii_uppercase()) {
            match counts.iter_mut().find(|(code, _)| *code == c) {
                Some((_, n)) => *n += 1,
                None => counts.push((c, 1)),
            }
        }
    }
    let wanted = options.currency.as_deref().map(str::to_ascii_uppercase);
    if let Some(wanted) = wanted.filter(|w| counts.iter().any(|(c, _)| c == w)) {
        return Some(wanted);
    }
    let most = counts.iter().map(|(_, n)| *n).max()?;
    counts.into_iter().find(|(_, n)| *n == most).map(|(c, _)| c)
}

#[cfg(test)]
mod tests {
    use super::quoted_cells;

    #[test]
    fn quoted_cells_follow_the_readers_quotes() {
        assert_eq!(quoted_cells("a,\"b\",c\n\"d\"", b','), [false, true, false]);
        let inner = "\"x,\"\"y\"\"\n z\";w, \"v\"\r\nnext";
        assert_eq!(quoted_cells(inner, b';'), [true, false]);
        assert_eq!(quoted_cells("\"a\",\"\"", b','), [true, true]);
        assert_eq!(quoted_cells("", b','), [false]);
    }
}
