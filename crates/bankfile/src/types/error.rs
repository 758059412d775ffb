//! Why a whole file is refused: [`FileError`], and how its messages list headers and
//! fields.

use super::Field;

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
