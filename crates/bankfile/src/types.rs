//! The public types: what a caller sets ([`Options`]), what a file gives back
//! ([`Statement`]) and why a whole file is refused ([`FileError`]).

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use rust_decimal::Decimal;
use time::Date;

/// Data rows a file may hold when [`Options::max_rows`] is 0.
pub const DEFAULT_MAX_ROWS: usize = 20_000;
/// Bytes a kept cell or element value may hold: a longer CSV cell is a per-row error, a
/// longer OFX, QIF or CAMT value is cut to it (at a character boundary). Room for
/// the largest cell the service's own CSV export writes: 20 tags of 100 four-byte
/// characters, joined and escaped (the service asserts it where it reads tags).
pub const MAX_CELL_BYTES: usize = 8_192;

/// How a file is read. Every field is optional: what is not set is detected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// The format, instead of sniffing it from the content.
    pub format: Option<Format>,
    /// A WHATWG encoding label (`latin1`, `windows-1252`, `utf-16le`, ...).
    pub encoding: Option<String>,
    /// Date format in the token syntax of [`crate::date`]: `DD`, `MM`, `YYYY`/`YY`,
    /// with or without one separator, e.g. `DD.MM.YYYY`, `MM/DD/YYYY`, `YYYYMMDD`.
    pub date_format: Option<String>,
    /// Decimal separator of amounts: `.` or `,`.
    pub decimal: Option<char>,
    /// CSV delimiter byte.
    pub delimiter: Option<u8>,
    /// CSV records (non-empty lines) above the header row (or, without one, the data).
    pub skip_rows: Option<usize>,
    /// Negates every amount (card statements that show purchases as positive); `None`:
    /// only a card export known to print charges as positive (see
    /// [`Detected::invert`]).
    pub invert: Option<bool>,
    /// `col.<field>=<header>`: the CSV column of a field, by its header or as `#N`, its
    /// number from 1 (the only way in a file without a header).
    pub columns: BTreeMap<Field, String>,
    /// Cap on data rows; more is [`FileError::TooManyRows`]. 0 means [`DEFAULT_MAX_ROWS`].
    pub max_rows: usize,
    /// The currency the rows are wanted in (the wallet's ISO code): a CSV currency column
    /// that holds it makes it the statement's currency, even where another is more
    /// common (PayPal writes a foreign purchase as two rows in its currency and one
    /// conversion row in the account's); the other rows are then errors.
    pub currency: Option<String>,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            format: None,
            encoding: None,
            date_format: None,
            decimal: None,
            delimiter: None,
            skip_rows: None,
            invert: None,
            columns: BTreeMap::new(),
            max_rows: DEFAULT_MAX_ROWS,
            currency: None,
        }
    }
}

impl Options {
    pub(crate) fn row_cap(&self) -> usize {
        if self.max_rows == 0 {
            DEFAULT_MAX_ROWS
        } else {
            self.max_rows
        }
    }
}

/// A fieldless enum whose variants have names: `ALL` (the variants in order), `as_str`,
/// `Display`, and `from_name`, which takes a name or one of its aliases (after `|`),
/// trimmed and case-insensitively.
macro_rules! named_enum {
    (
        $(#[$meta:meta])*
        pub enum $enum:ident {
            $($variant:ident = $name:literal $(| $alias:literal)*,)+
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $enum {
            $($variant,)+
        }

        impl $enum {
            pub const ALL: [Self; [$($name),+].len()] = [$(Self::$variant),+];

            pub fn as_str(self) -> &'static str {
                match self {
                    $(Self::$variant => $name,)+
                }
            }

            fn from_name(s: &str) -> Option<Self> {
                let key = s.trim();
                $(if [$name $(, $alias)*].iter().any(|n| n.eq_ignore_ascii_case(key)) {
                    return Some(Self::$variant);
                })+
                None
            }
        }

        impl fmt::Display for $enum {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

named_enum! {
    /// A file format. A QFX file is [`Format::Ofx`].
    pub enum Format {
        Csv = "csv",
        Ofx = "ofx" | "qfx",
        Qif = "qif",
        Camt = "camt",
    }
}

impl FromStr for Format {
    type Err = FileError;
    /// `csv`, `ofx` (also `qfx`), `qif`, `camt`, case-insensitively.
    fn from_str(s: &str) -> Result<Self, FileError> {
        Self::from_name(s).ok_or_else(|| FileError::bad("format", "must be csv, ofx, qif or camt"))
    }
}

named_enum! {
    /// A field of a row, named in camelCase in `col.<field>`, [`Detected::columns`] and
    /// [`RowError::field`].
    pub enum Field {
        Date = "date",
        ValueDate = "valueDate",
        Amount = "amount",
        Debit = "debit",
        Credit = "credit",
        Type = "type",
        Payee = "payee" | "provider",
        Note = "note",
        Category = "category",
        Tags = "tags",
        Id = "id" | "importId",
        Currency = "currency",
        Status = "status",
        Fee = "fee",
    }
}

impl FromStr for Field {
    type Err = FileError;
    /// The camelCase name (case-insensitively); `provider` and `importId` are accepted
    /// for `payee` and `id`.
    fn from_str(s: &str) -> Result<Self, FileError> {
        Self::from_name(s).ok_or_else(|| FileError::bad("col", format!("{s:?} is no field")))
    }
}

/// What was detected: values a client can show and send back as [`Options`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Detected {
    pub format: Format,
    /// WHATWG name of the encoding: `UTF-8`, `windows-1252`, `UTF-16LE`, `Shift_JIS`, ...
    pub encoding: String,
    /// WHATWG name of the charset the file declares (an OFX `CHARSET`/`ENCODING` header,
    /// an XML declaration), whether or not it was used ([`Self::encoding`] is); `None`
    /// when it declares none.
    pub declared_encoding: Option<String>,
    /// CSV only.
    pub delimiter: Option<char>,
    /// The date format in [`Options::date_format`]'s syntax (CSV and QIF).
    pub date_format: Option<String>,
    /// The decimal separator (CSV and QIF).
    pub decimal: Option<char>,
    /// CSV: the header each field was read from (the preferred one when several match).
    pub columns: BTreeMap<Field, String>,
    /// The statement's account (OFX `ACCTID`, CAMT IBAN, a CSV preamble's account, QIF
    /// `!Account` name).
    pub account: Option<String>,
    /// ISO 4217 code of the statement (OFX `CURDEF`, CAMT `Ccy`, a currency column, a
    /// header such as `Amount (EUR)`, `€` in amounts), when the file tells.
    pub currency: Option<String>,
    /// Whether every amount was negated: [`Options::invert`] when set, else whether the
    /// CSV is a card export that prints charges as positive (American Express, Discover,
    /// Apple Card, told by their headers).
    pub invert: bool,
}

impl Detected {
    /// What every reader knows at the start: the format and the encoding; nothing else
    /// detected yet.
    pub(crate) fn new(format: Format, encoding: &str) -> Self {
        Self {
            format,
            encoding: encoding.to_owned(),
            declared_encoding: None,
            delimiter: None,
            date_format: None,
            decimal: None,
            columns: BTreeMap::new(),
            account: None,
            currency: None,
            invert: false,
        }
    }
}

/// One transaction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// CSV: 1-based record number after the header (an empty line is skipped and not
    /// counted; a line of empty cells counts); structured
    /// files: 1-based number of the transaction in the file.
    pub row: usize,
    pub date: Date,
    /// Negative: money out (DEBIT); positive: money in (CREDIT).
    pub amount: Decimal,
    pub payee: Option<String>,
    pub note: Option<String>,
    pub category: Option<String>,
    pub tags: Vec<String>,
    /// The bank's id, `<account>:<id>` when the account is known.
    pub import_id: Option<String>,
}

/// A row that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowError {
    pub row: usize,
    /// A [`Field`] name, or `row` for the row as a whole.
    pub field: String,
    pub message: String,
}

impl RowError {
    pub(crate) fn new(row: usize, field: &str, message: impl Into<String>) -> Self {
        Self {
            row,
            field: field.to_owned(),
            message: message.into(),
        }
    }
}

/// A file read: its rows, its per-row errors and what was detected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    pub detected: Detected,
    pub rows: Vec<Row>,
    pub errors: Vec<RowError>,
    /// Data rows read (good and bad); blank lines, repeated headers, trailing summary
    /// lines and pending entries are not counted.
    pub total_rows: usize,
    /// Entries the bank has not booked, skipped: CAMT pending (`PDNG`), future and
    /// informational (`INFO`) entries, CSV rows whose status says so (pending, declined,
    /// reverted, ...), and the releases of holds ([`Self::paired`]).
    pub pending_skipped: usize,
    /// Holds paired with their releases and left out together (PayPal's pending
    /// authorisation hold and its later `Rückbuchung allgemeiner Einbehaltung`), in the
    /// order of the releases.
    pub paired: Vec<Paired>,
}

/// A hold and its release, both left out: keeping the release alone would credit money
/// that never arrived.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Paired {
    /// The hold's row (numbered as [`Row::row`]).
    pub hold: usize,
    /// The release's row.
    pub release: usize,
    /// The release's amount (the hold's, negated): positive, money back.
    pub amount: Decimal,
    /// The hold's transaction code, which the release names as its related one.
    pub reference: String,
}

impl Statement {
    /// A statement with no rows read yet.
    pub(crate) fn new(detected: Detected) -> Self {
        Self {
            detected,
            rows: Vec::new(),
            errors: Vec::new(),
            total_rows: 0,
            pending_skipped: 0,
            paired: Vec::new(),
        }
    }
}

/// Why a whole file is refused. Nothing of such a file should be stored.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FileError {
    /// No content (HTTP 400).
    #[error("the file is empty")]
    Empty,
    /// Truncated or malformed OFX, XML or QIF (HTTP 400); `at` names a line or element.
    #[error("the file is malformed at {at}: {message}")]
    Malformed { at: String, message: String },
    /// PDF, ZIP, images, other binaries, formats not read (HTTP 415).
    #[error("unsupported file: {what}")]
    Unsupported { what: String },
    /// Day-first and month-first both fit every date (HTTP 422 naming `dateFormat`).
    #[error("the dates fit several formats ({}); set dateFormat", candidates.join(", "))]
    AmbiguousDate { candidates: Vec<String> },
    /// The CSV header lacks required columns (HTTP 422).
    #[error(
        "missing columns: {}; the headers are: {}",
        fields(missing),
        header_list(headers)
    )]
    MissingColumns {
        missing: Vec<Field>,
        headers: Vec<String>,
    },
    /// More data rows than the caller's cap (HTTP 400/413).
    #[error("the file has more than {max} data rows; split it")]
    TooManyRows { max: usize },
    /// Statements (accounts) of several currencies in one file (HTTP 422): one wallet
    /// holds one currency, so each account's statement is imported on its own.
    #[error(
        "the file holds statements in {}; import each account's statement on its own",
        currencies.join(" and ")
    )]
    MixedCurrencies { currencies: Vec<String> },
    /// A bad override value (HTTP 400); `name` is the parameter (`dateFormat`, `col.date`).
    #[error("{name}: {message}")]
    BadOption { name: String, message: String },
}

/// Headers shown in a message: the first 50, then how many more.
pub(crate) fn header_list(headers: &[String]) -> String {
    const SHOWN: usize = 50;
    let mut list = headers[..headers.len().min(SHOWN)].join(", ");
    if headers.len() > SHOWN {
        list.push_str(&format!(", ... ({} more)", headers.len() - SHOWN));
    }
    list
}

fn fields(f: &[Field]) -> String {
    f.iter().map(|f| f.as_str()).collect::<Vec<_>>().join(", ")
}

impl FileError {
    pub(crate) fn bad(name: &str, message: impl Into<String>) -> Self {
        Self::BadOption {
            name: name.to_owned(),
            message: message.into(),
        }
    }

    pub(crate) fn malformed(at: impl Into<String>, message: impl Into<String>) -> Self {
        Self::Malformed {
            at: at.into(),
            message: message.into(),
        }
    }

    pub(crate) fn unsupported(what: impl Into<String>) -> Self {
        Self::Unsupported { what: what.into() }
    }
}

#[cfg(test)]
mod tests;
