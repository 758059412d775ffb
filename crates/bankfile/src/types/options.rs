//! What a caller sets: [`Options`], and the caps that hold when it sets none.

use std::collections::BTreeMap;

use super::{Field, Format};

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
    /// [`Detected::invert`](crate::Detected::invert)).
    pub invert: Option<bool>,
    /// `col.<field>=<header>`: the CSV column of a field, by its header or as `#N`, its
    /// number from 1 (the only way in a file without a header).
    pub columns: BTreeMap<Field, String>,
    /// Cap on data rows; more is [`FileError::TooManyRows`](crate::FileError::TooManyRows).
    /// 0 means [`DEFAULT_MAX_ROWS`].
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
