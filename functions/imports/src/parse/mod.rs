//! The glue between a request and the `bankfile` reader: the file's bytes (raw body or
//! one multipart file part, `body`), its rows as the import service takes them, and why
//! a whole file is refused as the HTTP status that says so. Nothing is stored from a
//! refused file: these errors happen before the service runs.

mod body;

pub use body::file_bytes;

use bankfile::{FileError, Options, Statement};
use pf_app::imports::{ImportRow, ParsedFile, RowError};
use pf_domain::text::NOTE_MAX_LEN;
use pf_http::{ApiError, FieldError};

/// Files are at most 4 MB (4,194,304 bytes): Lambda takes a 6 MB event, and API Gateway
/// base64-encodes a body it does not know as text (a browser's `multipart/form-data`
/// upload, `application/octet-stream`), a third more: 4 MB and its multipart envelope
/// come to 5.7 MB. 20,000 rows of up to 209 bytes each.
pub const MAX_FILE_BYTES: usize = 4 * 1024 * 1024;
/// Data rows per file: a decade of a household's bank history. Files of more than
/// 3,000 valid rows (`job::SYNC_ROWS`: measured on the local stack, 250-400 rows/s, so
/// 3,000 rows take 8-15 s, within API Gateway's 30 s) are imported by a job after the
/// request. Rows are written sequentially in chunks: they all move the same wallet item,
/// so parallel chunks would only conflict.
pub const MAX_ROWS: usize = 20_000;

/// Reads a bank file with the caller's overrides (the row cap is this endpoint's).
pub fn read(bytes: &[u8], mut options: Options) -> Result<Statement, ApiError> {
    if bytes.len() > MAX_FILE_BYTES {
        return Err(ApiError::PayloadTooLarge(format!(
            "the file exceeds {MAX_FILE_BYTES} bytes"
        )));
    }
    options.max_rows = MAX_ROWS;
    bankfile::parse(bytes, &options).map_err(file_error)
}

/// A refused file as its status: 400 (empty, malformed, too many rows, a bad override),
/// 415 (not a bank file) or 422 (needs an override, named in `errors`).
pub fn file_error(e: FileError) -> ApiError {
    let message = e.to_string();
    match e {
        FileError::Empty | FileError::Malformed { .. } | FileError::TooManyRows { .. } => {
            ApiError::bad_request(message)
        }
        FileError::Unsupported { .. } => ApiError::UnsupportedMediaType(format!(
            "{message}; send a CSV, OFX/QFX, QIF or CAMT file"
        )),
        FileError::AmbiguousDate { candidates } => ApiError::UnprocessableFields {
            message,
            errors: vec![FieldError::new(
                "dateFormat",
                format!("set one of: {}", candidates.join(", ")),
            )],
        },
        FileError::MissingColumns { missing, .. } => ApiError::UnprocessableFields {
            message,
            errors: missing
                .iter()
                .map(|f| FieldError::new(format!("col.{f}"), "no column found; name its header"))
                .collect(),
        },
        FileError::MixedCurrencies { .. } => ApiError::Unprocessable(message),
        FileError::BadOption { name, message } => {
            ApiError::validation(vec![FieldError::new(name, message)])
        }
    }
}

/// The API's name of a field at fault (the import's own column names).
fn field_name(field: &str) -> &str {
    match field {
        "payee" => "provider",
        "id" => "importId",
        other => other,
    }
}

/// A note as a transaction keeps it: line breaks as `\n` (banks' multi-line labels end
/// lines with CR LF or CR), tabs kept, other control characters as spaces, at most
/// [`NOTE_MAX_LEN`] characters (bank texts joined can be longer).
fn note(raw: String) -> String {
    let text = raw.replace("\r\n", "\n").replace('\r', "\n");
    let text: String = text
        .chars()
        .map(|c| match c {
            '\n' | '\t' => c,
            c if c.is_control() => ' ',
            c => c,
        })
        .collect();
    match text.char_indices().nth(NOTE_MAX_LEN) {
        Some((cut, _)) => text[..cut].to_owned(),
        None => text,
    }
}

/// A name on one line: control characters (line breaks too) as spaces.
fn one_line(raw: String) -> String {
    if raw.chars().any(char::is_control) {
        raw.chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect()
    } else {
        raw
    }
}

/// The statement's rows as the import service takes them.
pub fn rows(statement: Statement) -> ParsedFile {
    let parsed = statement
        .rows
        .into_iter()
        .map(|r| ImportRow {
            row: r.row,
            date: r.date,
            amount: r.amount,
            category: r.category.map(one_line),
            note: r.note.map(note),
            payee: r.payee.map(one_line),
            tags: r.tags,
            // None: the service derives one from the content.
            import_id: r.import_id,
            splits: r
                .splits
                .into_iter()
                .map(|p| bankfile::SplitLine {
                    amount: p.amount,
                    category: p.category.map(one_line),
                    note: p.note.map(note),
                })
                .collect(),
        })
        .collect();
    let errors = statement
        .errors
        .into_iter()
        .map(|e| RowError::new(e.row, field_name(&e.field), e.message))
        .collect();
    ParsedFile {
        rows: statement.total_rows,
        parsed,
        errors,
        currency: statement.detected.currency,
        pending_skipped: statement.pending_skipped,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_keep_their_lines_and_names_stay_on_one() {
        assert_eq!(
            note("Carte\r\nX1234\rDAB\u{7}".into()),
            "Carte\nX1234\nDAB "
        );
        assert_eq!(note("é".repeat(1500)).chars().count(), NOTE_MAX_LEN);
        assert_eq!(one_line("ACME\r\nGmbH".into()), "ACME  GmbH");
        assert_eq!(field_name("payee"), "provider");
        assert_eq!(field_name("id"), "importId");
    }

    #[test]
    fn refused_files_answer_the_status_that_says_why() {
        let status = |bytes: &[u8]| read(bytes, Options::default()).unwrap_err().status();
        assert_eq!(status(b""), 400);
        assert_eq!(status(b"%PDF-1.4 ..."), 415);
        assert_eq!(status(b"when,what\nx,y\n"), 422);
        let ambiguous = b"date,amount\n01/02/2024,1\n03/04/2024,2\n";
        match read(ambiguous, Options::default()).unwrap_err() {
            ApiError::UnprocessableFields { errors, .. } => {
                assert_eq!(errors[0].field, "dateFormat")
            }
            e => panic!("{e:?}"),
        }
    }
}
