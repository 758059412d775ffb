//! What a file gives back: a [`Statement`] of [`Row`]s and [`RowError`]s, the holds
//! [`Paired`] with their releases, and what was [`Detected`].

use std::collections::BTreeMap;

use rust_decimal::Decimal;
use time::Date;

use super::{Field, Format};

/// What was detected: values a client can show and send back as
/// [`Options`](crate::Options).
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
    /// The date format in [`Options::date_format`](crate::Options::date_format)'s syntax
    /// (CSV and QIF).
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
    /// Whether every amount was negated: [`Options::invert`](crate::Options::invert) when
    /// set, else whether the CSV is a card export that prints charges as positive
    /// (American Express, Discover, Apple Card, told by their headers).
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
    /// A split row's parts (QIF `S`/`E`/`$`/`%` lines), 2 or more adding up to `amount`;
    /// empty for a plain row. `category` is then the first part's.
    pub splits: Vec<SplitLine>,
}

/// One part of a split row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitLine {
    /// Signed like [`Row::amount`].
    pub amount: Decimal,
    pub category: Option<String>,
    pub note: Option<String>,
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
