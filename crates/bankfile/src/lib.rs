//! Bank statement files as they come from the bank (CSV in any dialect and encoding,
//! OFX/QFX 1.x and 2.x, QIF, ISO 20022 CAMT.052/053/054) read into signed transaction
//! rows, with what was detected.
//!
//! ```
//! let file = "Buchungstag;Betrag;Verwendungszweck\n31.01.2024;-1.234,56;Miete\n";
//! let statement = bankfile::parse(file.as_bytes(), &bankfile::Options::default()).unwrap();
//! assert_eq!(statement.rows[0].amount.to_string(), "-1234.56");
//! assert_eq!(statement.detected.date_format.as_deref(), Some("DD.MM.YYYY"));
//! ```
//!
//! No input panics: every parser caps rows ([`Options::max_rows`]), kept cell bytes
//! ([`MAX_CELL_BYTES`]) and XML/SGML nesting depth ([`MAX_DEPTH`]). Every reader is linear
//! in its input, whatever the markup: a start tag of more than [`MAX_ATTRIBUTES`]
//! attributes or over [`MAX_TAG_BYTES`] is the file's error, found before its attributes
//! are read (a duplicate-attribute check is quadratic in them).

mod amount;
mod camt;
mod csv;
pub mod date;
mod encoding;
mod markup;
mod ofx;
mod qif;
mod sniff;
mod text;
mod types;

pub use encoding::decode;
pub use text::{escape_cell, join_tags, split_tags, unescape_cell};
pub use types::{
    Detected, Field, FileError, Format, Options, Paired, Row, RowError, SplitLine, Statement,
    DEFAULT_MAX_ROWS, MAX_CELL_BYTES,
};

/// Nesting depth of OFX and CAMT elements; deeper is [`FileError::Malformed`].
pub const MAX_DEPTH: usize = 64;
/// Attributes an OFX or CAMT start tag may carry; more is [`FileError::Malformed`].
pub const MAX_ATTRIBUTES: usize = 64;
/// Bytes an OFX or CAMT start tag may hold between `<` and `>`; more is
/// [`FileError::Malformed`].
pub const MAX_TAG_BYTES: usize = 8_192;

/// Refuses a start tag (`tag`: its bytes between `<` and `>`) over [`MAX_TAG_BYTES`] or of
/// more than [`MAX_ATTRIBUTES`] attributes (each `=` outside quotes is one), in one pass
/// over at most [`MAX_TAG_BYTES`] bytes. `at` names the tag for the message.
pub(crate) fn check_tag(tag: &[u8], at: impl FnOnce() -> String) -> Result<(), FileError> {
    let message = if tag.len() > MAX_TAG_BYTES {
        format!("a start tag is longer than 8 KiB ({} bytes)", tag.len())
    } else {
        let mut quote = None;
        let mut attributes = 0usize;
        for &b in tag {
            match (quote, b) {
                (None, b'"' | b'\'') => quote = Some(b),
                (Some(q), _) if q == b => quote = None,
                (None, b'=') => attributes += 1,
                _ => {}
            }
        }
        if attributes <= MAX_ATTRIBUTES {
            return Ok(());
        }
        format!("a start tag carries {attributes} attributes (at most {MAX_ATTRIBUTES})")
    };
    Err(FileError::malformed(at(), message))
}

/// Reads a bank file: sniffs the format from the content (or takes
/// [`Options::format`]), decodes it once, and returns its rows and per-row errors, or
/// why the whole file is refused.
pub fn parse(bytes: &[u8], options: &Options) -> Result<Statement, FileError> {
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(FileError::Empty);
    }
    if let Some(d) = options.delimiter {
        if matches!(d, b'"' | b'\r' | b'\n') || !d.is_ascii() {
            return Err(FileError::bad(
                "delimiter",
                "must be one ASCII character, not a quote or line end",
            ));
        }
    }
    if let Some(f) = &options.date_format {
        f.parse::<date::DateFormat>()?;
    }
    if let Some(c) = options.decimal.filter(|c| !matches!(c, '.' | ',')) {
        return Err(FileError::bad("decimal", format!("{c:?} is not . or ,")));
    }
    sniff::refuse_binary(bytes)?;
    let (text, encoding) = decode(bytes, options.encoding.as_deref())?;
    if text
        .trim_matches(|c: char| c.is_whitespace() || c == '\u{FEFF}')
        .is_empty()
    {
        return Err(FileError::Empty);
    }
    sniff::refuse_control(&text)?;
    let format = match options.format {
        Some(f) => f,
        None => sniff::format(&text)?,
    };
    let mut statement = match format {
        Format::Csv => csv::parse(&text, encoding, options),
        Format::Ofx => ofx::parse(&text, encoding, options),
        Format::Qif => qif::parse(&text, encoding, options),
        Format::Camt => camt::parse(&text, encoding, options),
    }?;
    statement.detected.declared_encoding = encoding::declared_name(bytes).map(str::to_owned);
    Ok(statement)
}

/// `<account>:<id>` when the account is known, else the id; `None` for an empty id.
pub(crate) fn scoped_id(account: Option<&str>, id: Option<&str>) -> Option<String> {
    let id = id.map(str::trim).filter(|s| !s.is_empty())?;
    Some(match account {
        Some(a) => format!("{a}:{id}"),
        None => id.to_owned(),
    })
}

/// Refuses a file whose statements name two currencies: `before` is the statement
/// currency known before a value was read, `now` after it.
pub(crate) fn mixed(before: Option<String>, now: &Option<String>) -> Result<(), FileError> {
    match (before, now) {
        (Some(was), Some(is)) if was != *is => Err(FileError::MixedCurrencies {
            currencies: vec![was, is.clone()],
        }),
        _ => Ok(()),
    }
}

/// Characters a payee may have: the service's provider names are at most 100.
pub const MAX_PAYEE_CHARS: usize = 100;

/// A payee too long for a provider name (a QIF `P` line carrying the whole booking text,
/// its parts joined by ` ; `) is cut at a word boundary to fit, without a trailing
/// separator, and the whole text goes to the note (after the note's own text, unless
/// that holds it already), so the row imports instead of being a row error.
pub(crate) fn fit_payee(payee: String, note: Option<String>) -> (String, Option<String>) {
    if payee.chars().count() <= MAX_PAYEE_CHARS {
        return (payee, note);
    }
    let end = payee
        .char_indices()
        .nth(MAX_PAYEE_CHARS)
        .map_or(payee.len(), |(i, _)| i);
    // The last break within the limit (a whole first word longer than it is cut in it).
    let cut = match payee[..end].rfind(char::is_whitespace) {
        Some(i) if payee[end..].starts_with(char::is_whitespace) => end.max(i),
        Some(i) if i > 0 => i,
        _ => end,
    };
    let short = payee[..cut]
        .trim_end_matches(|c: char| c.is_whitespace() || matches!(c, ';' | ',' | '/' | '-'))
        .to_owned();
    let note = match note {
        Some(n) if n.contains(payee.as_str()) => n,
        Some(n) if !n.trim().is_empty() => format!("{n}\n{payee}"),
        _ => payee,
    };
    (short, Some(note))
}

/// Shortens a value to [`MAX_CELL_BYTES`] at a character boundary.
pub(crate) fn capped(s: &str) -> &str {
    if s.len() <= MAX_CELL_BYTES {
        return s;
    }
    let mut end = MAX_CELL_BYTES;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}
