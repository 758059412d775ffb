//! Reading an import file with the `csv` crate: the header names the columns (by name,
//! case-insensitively, with aliases), each data row becomes an [`ImportRow`] or per-row
//! errors. Whole-file problems (not UTF-8, no header, too many rows) are a 400.

mod cell;

use rust_decimal::Decimal;

use cell::read_amount;
pub use cell::{escape, unescape, DateFormat};
use shared::app::imports::{ImportRow, ParsedFile, RowError};
use shared::http::ApiError;

/// Files are at most 5 MB (API Gateway and Lambda take 6 MB, base64 costs a third on
/// binary bodies; text bodies pass as they are).
pub const MAX_FILE_BYTES: usize = 5 * 1024 * 1024;
/// Data rows per file. Measured on the local stack (DynamoDB Local, debug build, 2 shared
/// cores): 250-400 rows/s alone, about 200 rows/s while the whole API suite runs beside
/// it, so 3,000 rows take 8-15 s, well within API Gateway's 30 s (README, "Imports").
/// Rows are written sequentially in chunks: they all move the same wallet item, so
/// parallel chunks would only conflict.
pub const MAX_ROWS: usize = 3_000;
/// Any one cell is at most this many bytes (a note is at most 1,000 characters).
pub const MAX_FIELD_BYTES: usize = 4_096;

/// How a file is read (the query parameters).
#[derive(Debug, Clone, Copy, Default)]
pub struct Format {
    pub date: DateFormat,
    /// `,` for `12,50`; `.` otherwise.
    pub decimal_comma: bool,
    /// `None`: detected from the header among `,`, `;` and tab.
    pub delimiter: Option<u8>,
}

/// The recognised columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Column {
    Date,
    Amount,
    Debit,
    Credit,
    Category,
    Note,
    Provider,
    Tags,
    ImportId,
}

/// A header name, its case, spaces, `_` and `-` ignored, with its aliases.
fn column(header: &str) -> Option<Column> {
    let key: String = header
        .trim()
        .chars()
        .filter(|c| !matches!(c, ' ' | '_' | '-'))
        .flat_map(char::to_lowercase)
        .collect();
    Some(match key.as_str() {
        "date" => Column::Date,
        "amount" => Column::Amount,
        "debit" => Column::Debit,
        "credit" => Column::Credit,
        "category" => Column::Category,
        "note" | "description" | "memo" => Column::Note,
        "provider" | "payee" => Column::Provider,
        "tags" => Column::Tags,
        "importid" => Column::ImportId,
        _ => return None,
    })
}

/// The delimiter of the header line: the most frequent of `,` `;` tab outside quotes.
fn detect_delimiter(text: &str) -> u8 {
    let mut counts = [0usize; 3];
    let mut quoted = false;
    for b in text.bytes() {
        match b {
            b'"' => quoted = !quoted,
            b'\n' | b'\r' if !quoted => break,
            b',' if !quoted => counts[0] += 1,
            b';' if !quoted => counts[1] += 1,
            b'\t' if !quoted => counts[2] += 1,
            _ => {}
        }
    }
    let best = (0..3)
        .max_by_key(|&i| (counts[i], std::cmp::Reverse(i)))
        .unwrap_or(0);
    [b',', b';', b'\t'][best]
}

/// Reads the file into rows and per-row errors.
pub fn read(bytes: &[u8], format: Format) -> Result<ParsedFile, ApiError> {
    if bytes.len() > MAX_FILE_BYTES {
        return Err(ApiError::PayloadTooLarge(format!(
            "the file exceeds {MAX_FILE_BYTES} bytes"
        )));
    }
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let text = std::str::from_utf8(bytes).map_err(|e| {
        ApiError::bad_request(format!(
            "the file is not UTF-8 (invalid byte at offset {})",
            e.valid_up_to()
        ))
    })?;
    let delimiter = format.delimiter.unwrap_or_else(|| detect_delimiter(text));
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let mut records = reader.records();
    let header = match records.next() {
        Some(Ok(h)) => h,
        Some(Err(_)) | None => return Err(missing_header()),
    };
    let columns: Vec<Option<Column>> = header.iter().map(column).collect();
    check_header(&columns)?;
    let mut file = ParsedFile::default();
    // Rows keep their position in the file (as a spreadsheet shows it, less the header);
    // skipped lines are not counted as rows.
    let mut skipped = 0;
    for (index, record) in records.enumerate() {
        let row = index + 1;
        if row - skipped > MAX_ROWS {
            return Err(ApiError::bad_request(format!(
                "the file has more than {MAX_ROWS} data rows; split it"
            )));
        }
        file.rows = row - skipped;
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                file.errors
                    .push(RowError::new(row, "row", format!("unreadable: {e}")));
                continue;
            }
        };
        let repeated_header = record.len() == header.len()
            && record
                .iter()
                .zip(header.iter())
                .all(|(a, b)| a.trim().eq_ignore_ascii_case(b.trim()));
        let blank = record.len() == 1 && record.get(0).is_some_and(|c| c.trim().is_empty());
        if blank || repeated_header {
            // A blank line, or the header again (export pages concatenated): not a row.
            skipped += 1;
            file.rows -= 1;
            continue;
        }
        if record.len() != columns.len() {
            file.errors.push(RowError::new(
                row,
                "row",
                format!("has {} fields, the header {}", record.len(), columns.len()),
            ));
            continue;
        }
        match read_row(row, &columns, &record, format) {
            Ok(r) => file.parsed.push(r),
            Err(e) => file.errors.extend(e),
        }
    }
    Ok(file)
}

fn missing_header() -> ApiError {
    ApiError::bad_request(
        "the first row must be a header naming the columns: date, amount (or debit/credit), \
         category, note, provider, tags, importId",
    )
}

fn check_header(columns: &[Option<Column>]) -> Result<(), ApiError> {
    let known: Vec<Column> = columns.iter().flatten().copied().collect();
    let has = |c: Column| known.contains(&c);
    for (i, c) in known.iter().enumerate() {
        if known[..i].contains(c) {
            return Err(ApiError::bad_request(format!(
                "the header names the column {c:?} twice (aliases count as the same column)"
            )));
        }
    }
    if !has(Column::Date) || !(has(Column::Amount) || has(Column::Debit) || has(Column::Credit)) {
        return Err(missing_header());
    }
    if has(Column::Amount) && (has(Column::Debit) || has(Column::Credit)) {
        return Err(ApiError::bad_request(
            "the header has both amount and debit/credit columns; keep one way",
        ));
    }
    Ok(())
}

fn read_row(
    row: usize,
    columns: &[Option<Column>],
    record: &csv::StringRecord,
    format: Format,
) -> Result<ImportRow, Vec<RowError>> {
    let mut errors = Vec::new();
    let mut cell = |c: Column| -> Option<&str> {
        let i = columns.iter().position(|k| *k == Some(c))?;
        let raw = record.get(i)?;
        if raw.len() > MAX_FIELD_BYTES {
            let field = format!("{c:?}").to_lowercase();
            errors.push(RowError::new(
                row,
                &field,
                format!("is longer than {MAX_FIELD_BYTES} bytes"),
            ));
            return None;
        }
        Some(unescape(raw))
    };
    let date = cell(Column::Date);
    let amount = cell(Column::Amount);
    let debit = cell(Column::Debit);
    let credit = cell(Column::Credit);
    let category = cell(Column::Category).map(str::to_owned);
    let note = cell(Column::Note).map(str::to_owned);
    let provider = cell(Column::Provider).map(str::to_owned);
    let tags = cell(Column::Tags).map(|t| {
        t.split(';')
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(str::to_owned)
            .collect()
    });
    let import_id = cell(Column::ImportId).map(|s| s.trim().to_owned());
    let date = date.map(|d| format.date.read(d));
    let amount = signed_amount(amount, debit, credit, format.decimal_comma);
    let date = date
        .unwrap_or_else(|| Err("is missing".into()))
        .map_err(|m| errors.push(RowError::new(row, "date", m)))
        .ok();
    let amount = amount
        .map_err(|(field, m)| errors.push(RowError::new(row, field, m)))
        .ok();
    match (date, amount) {
        (Some(date), Some(amount)) if errors.is_empty() => Ok(ImportRow {
            row,
            date,
            amount,
            category,
            note,
            provider,
            tags: tags.unwrap_or_default(),
            import_id: import_id.filter(|s| !s.is_empty()),
        }),
        _ => Err(errors),
    }
}

/// The signed amount from `amount`, or from `debit` (negated) / `credit`.
fn present(c: Option<&str>) -> Option<&str> {
    c.filter(|s| !s.trim().is_empty())
}

fn signed_amount(
    amount: Option<&str>,
    debit: Option<&str>,
    credit: Option<&str>,
    decimal_comma: bool,
) -> Result<Decimal, (&'static str, String)> {
    if let Some(a) = present(amount) {
        return read_amount(a, decimal_comma).map_err(|m| ("amount", m));
    }
    match (present(debit), present(credit)) {
        (Some(_), Some(_)) => Err(("debit", "a row has a debit or a credit, not both".into())),
        (Some(d), None) => {
            let d = read_amount(d, decimal_comma).map_err(|m| ("debit", m))?;
            Ok(-d.abs())
        }
        (None, Some(c)) => {
            let c = read_amount(c, decimal_comma).map_err(|m| ("credit", m))?;
            if c < Decimal::ZERO {
                return Err(("credit", "must not be negative".into()));
            }
            Ok(c)
        }
        (None, None) => Err(("amount", "is missing".into())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> ParsedFile {
        read(text.as_bytes(), Format::default()).unwrap()
    }

    #[test]
    fn columns_are_found_by_name_and_alias_in_any_case_and_order() {
        let f =
            parse("\u{feff}Memo;Payee;AMOUNT;Date\n\"Lunch; with Ann\";Cafe;-12.50;2026-01-02\n");
        assert!(f.errors.is_empty(), "{:?}", f.errors);
        let r = &f.parsed[0];
        assert_eq!(r.note.as_deref(), Some("Lunch; with Ann"));
        assert_eq!(r.provider.as_deref(), Some("Cafe"));
        assert_eq!(r.amount, Decimal::new(-1250, 2));
    }

    #[test]
    fn blank_lines_and_repeated_headers_are_not_rows() {
        let f = parse("date,amount\n2026-01-01,1\n\nDate,Amount\n2026-01-02,2\n");
        assert_eq!((f.rows, f.parsed.len()), (2, 2), "{:?}", f.errors);
    }

    #[test]
    fn debit_and_credit_columns_and_other_formats() {
        let format = Format {
            date: DateFormat::DayFirst,
            decimal_comma: true,
            delimiter: Some(b';'),
        };
        let f = read(
            b"date;debit;credit\n03/11/2026;12,5;\n04/11/2026;;100\n31/02/2026;1;\n",
            format,
        )
        .unwrap();
        assert_eq!(f.parsed[0].amount, Decimal::new(-125, 1));
        assert_eq!(f.parsed[0].date, time::macros::date!(2026 - 11 - 03));
        assert_eq!(f.parsed[1].amount, Decimal::new(100, 0));
        assert_eq!(f.errors[0].row, 3);
        assert_eq!(f.errors[0].field, "date");
    }

    #[test]
    fn bad_rows_are_errors_and_bad_files_are_refused() {
        let f = parse(
            "date,amount\n2026-01-01\n2026-01-01,1e5\n2026-01-01,=1+2\n2026-01-01,1.000,00\n",
        );
        let rows: Vec<_> = f.errors.iter().map(|e| (e.row, e.field.as_str())).collect();
        assert_eq!(rows, [(1, "row"), (2, "amount"), (3, "amount"), (4, "row")]);
        assert!(read(b"note,category\nx,y\n", Format::default()).is_err());
        assert!(read(b"", Format::default()).is_err());
        assert!(read(b"date,amount\n\xff,1\n", Format::default()).is_err());
        assert!(read(b"date,amount,payee,provider\n", Format::default()).is_err());
    }

    #[test]
    fn formula_escapes_round_trip_exactly() {
        for text in ["=SUM(A1)", "'=x", "'plain", "-5 fee", "plain", "@me", ""] {
            assert_eq!(unescape(&escape(text)), text);
        }
        assert_eq!(escape("=SUM(A1)"), "'=SUM(A1)");
        assert_eq!(unescape("'hello"), "'hello");
    }

    #[test]
    fn delimiters_are_detected_from_the_header() {
        assert_eq!(detect_delimiter("date;amount;\"a,b,c\"\n1,2,3,4"), b';');
        assert_eq!(detect_delimiter("date\tamount\n"), b'\t');
        assert_eq!(detect_delimiter("date,amount\n"), b',');
    }
}
