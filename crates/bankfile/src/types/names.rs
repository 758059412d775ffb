//! The named enums: a file [`Format`] and a row's [`Field`]. Each lists its variants in
//! order (`ALL`), names them (`as_str`, `Display`) and parses a name or one of its
//! aliases, trimmed and case-insensitively (`FromStr`).

use std::fmt;
use std::str::FromStr;

use super::FileError;

/// The variant of `all` that `s` names, trimmed and case-insensitively: by its name
/// (`name`), else by one of `aliases`.
fn by_name<T: Copy>(
    s: &str,
    all: &[T],
    name: fn(T) -> &'static str,
    aliases: &[(&str, T)],
) -> Option<T> {
    let key = s.trim();
    all.iter()
        .copied()
        .find(|v| name(*v).eq_ignore_ascii_case(key))
        .or_else(|| {
            aliases
                .iter()
                .find(|(alias, _)| alias.eq_ignore_ascii_case(key))
                .map(|(_, v)| *v)
        })
}

/// A file format. A QFX file is [`Format::Ofx`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Format {
    Csv,
    Ofx,
    Qif,
    Camt,
}

impl Format {
    /// Every format, in order.
    pub const ALL: [Self; 4] = [Self::Csv, Self::Ofx, Self::Qif, Self::Camt];

    /// The format's name: `csv`, `ofx`, `qif` or `camt`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Csv => "csv",
            Self::Ofx => "ofx",
            Self::Qif => "qif",
            Self::Camt => "camt",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Format {
    type Err = FileError;
    /// `csv`, `ofx` (also `qfx`), `qif`, `camt`, case-insensitively.
    fn from_str(s: &str) -> Result<Self, FileError> {
        by_name(s, &Self::ALL, Self::as_str, &[("qfx", Self::Ofx)])
            .ok_or_else(|| FileError::bad("format", "must be csv, ofx, qif or camt"))
    }
}

/// A field of a row, named in camelCase in `col.<field>`,
/// [`Detected::columns`](crate::Detected::columns) and
/// [`RowError::field`](crate::RowError::field).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Field {
    Date,
    ValueDate,
    Amount,
    Debit,
    Credit,
    Type,
    Payee,
    Note,
    Category,
    Tags,
    Id,
    Currency,
    Status,
    Fee,
}

impl Field {
    /// Every field, in order.
    pub const ALL: [Self; 14] = [
        Self::Date,
        Self::ValueDate,
        Self::Amount,
        Self::Debit,
        Self::Credit,
        Self::Type,
        Self::Payee,
        Self::Note,
        Self::Category,
        Self::Tags,
        Self::Id,
        Self::Currency,
        Self::Status,
        Self::Fee,
    ];

    /// The field's camelCase name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Date => "date",
            Self::ValueDate => "valueDate",
            Self::Amount => "amount",
            Self::Debit => "debit",
            Self::Credit => "credit",
            Self::Type => "type",
            Self::Payee => "payee",
            Self::Note => "note",
            Self::Category => "category",
            Self::Tags => "tags",
            Self::Id => "id",
            Self::Currency => "currency",
            Self::Status => "status",
            Self::Fee => "fee",
        }
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Field {
    type Err = FileError;
    /// The camelCase name (case-insensitively); `provider` and `importId` are accepted
    /// for `payee` and `id`.
    fn from_str(s: &str) -> Result<Self, FileError> {
        let aliases = [("provider", Self::Payee), ("importId", Self::Id)];
        by_name(s, &Self::ALL, Self::as_str, &aliases)
            .ok_or_else(|| FileError::bad("col", format!("{s:?} is no field")))
    }
}
