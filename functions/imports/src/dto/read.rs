//! What a dry run reports of how the file was read: its charset, and the holds paired
//! with their releases.

use rust_decimal::Decimal;
use serde::Serialize;
use utoipa::ToSchema;

/// What a file declares as its charset and what it was read as: they differ where the
/// bytes contradict the declaration (an OFX `CHARSET:1252` over valid UTF-8 is read as
/// UTF-8) or where the `encoding` parameter overrides it.
#[derive(Debug, Serialize, ToSchema)]
pub struct Charset {
    /// WHATWG name of the charset an OFX header (`CHARSET`, `ENCODING`) or an XML
    /// declaration names; `null` when the file declares none (CSV and QIF never do: their
    /// encoding is sniffed). Always sent.
    #[schema(max_length = 40, required = true)]
    pub declared: Option<String>,
    /// WHATWG name of the encoding used (as `encoding`).
    #[schema(max_length = 40)]
    pub used: String,
}

/// Pairs a dry run lists.
pub const PAIRS_SHOWN: usize = 100;

/// A hold and its release, left out together.
#[derive(Debug, Serialize, ToSchema)]
pub struct PairedDto {
    /// The hold's data row (numbered as `errors[].row`).
    pub hold: usize,
    /// The release's data row.
    pub release: usize,
    /// The release's amount: positive, the money the hold gave back.
    #[serde(with = "rust_decimal::serde::arbitrary_precision")]
    #[schema(value_type = f64, example = 13.21)]
    pub amount: Decimal,
    /// The hold's transaction code, which the release names as its related one.
    #[schema(max_length = 8192)]
    pub reference: String,
}

impl From<bankfile::Paired> for PairedDto {
    fn from(p: bankfile::Paired) -> Self {
        Self {
            hold: p.hold,
            release: p.release,
            amount: p.amount,
            reference: p.reference,
        }
    }
}
