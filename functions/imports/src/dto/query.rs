//! The query of `POST /api/imports`: how to read the file (every setting optional: what
//! is not set is detected) and what to do with its rows.

use serde::Deserialize;
use utoipa::IntoParams;

use bankfile::{Field, Format, Options};
use pf_http::{ApiError, FieldError};

/// How to read the file and what to do with it. Every setting is detected when absent;
/// a dry run's `detected` shows the values to send back.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct ImportQuery {
    /// `true`: check and report only, write nothing (200).
    #[param(value_type = Option<bool>)]
    pub dry_run: Option<String>,
    /// The format instead of sniffing it from the content: `csv`, `ofx` (also `qfx`),
    /// `qif` or `camt`.
    #[param(value_type = Option<String>, pattern = "^(csv|ofx|qfx|qif|camt)$")]
    pub format: Option<String>,
    /// A WHATWG encoding label (`utf-8`, `windows-1252`, `latin1`, `utf-16le`, ...).
    #[param(max_length = 40)]
    pub encoding: Option<String>,
    /// `DD`, `MM` and `YYYY` or `YY` in the file's order with one separator (`/` `.` `-`)
    /// or none: `DD.MM.YYYY`, `MM/DD/YYYY`, `YYYY-MM-DD`, `YYYYMMDD`, `DD/MM/YY`; `MMM`
    /// for a month in words (`Jan`, `janv.`, `März`): `DD MMM YYYY`, `DD-MMM-YY`,
    /// `MMM DD, YYYY`.
    #[param(value_type = Option<String>, max_length = 12, pattern = r"^[DMY ./,-]{4,12}$")]
    pub date_format: Option<String>,
    /// Decimal separator of amounts: `.` or `,`.
    #[param(value_type = Option<String>, pattern = r"^[.,]$")]
    pub decimal: Option<String>,
    /// CSV delimiter: `,`, `;`, `|`, a tab (`%09` or `tab`), or another ASCII character.
    #[param(value_type = Option<String>, max_length = 3)]
    pub delimiter: Option<String>,
    /// Non-empty CSV lines above the header row, or above the first transaction of a file
    /// without a header (else the header is found among the first 40).
    #[param(value_type = Option<u32>, minimum = 0, maximum = 1000)]
    pub skip_rows: Option<String>,
    /// `true`: negate every amount (card statements that show purchases as positive);
    /// `false`: never. Absent: only a card export known to print charges as positive
    /// (American Express, Discover, Apple Card), as `detected.invert` tells.
    #[param(value_type = Option<bool>)]
    pub invert: Option<String>,
    /// The category of rows that name none, when its type fits the row's sign (else they
    /// go to the global `Uncategorized` of their type). Must be visible to the caller.
    #[param(value_type = Option<u64>, minimum = 1, maximum = 9007199254740991.0)]
    pub default_category_id: Option<String>,
    /// The CSV header (or `#N`, the column number) of the booking date.
    #[serde(rename = "col.date")]
    #[param(max_length = 200)]
    pub col_date: Option<String>,
    /// The CSV header (or `#N`, the column number) of the value date (used when the booking date is empty).
    #[serde(rename = "col.valueDate")]
    #[param(max_length = 200)]
    pub col_value_date: Option<String>,
    /// The CSV header (or `#N`, the column number) of the signed amount.
    #[serde(rename = "col.amount")]
    #[param(max_length = 200)]
    pub col_amount: Option<String>,
    /// The CSV header (or `#N`, the column number) of money out (debit, withdrawal).
    #[serde(rename = "col.debit")]
    #[param(max_length = 200)]
    pub col_debit: Option<String>,
    /// The CSV header (or `#N`, the column number) of money in (credit, deposit).
    #[serde(rename = "col.credit")]
    #[param(max_length = 200)]
    pub col_credit: Option<String>,
    /// The CSV header (or `#N`, the column number) of a debit/credit type column.
    #[serde(rename = "col.type")]
    #[param(max_length = 200)]
    pub col_type: Option<String>,
    /// The CSV header (or `#N`, the column number) of the payee (the provider).
    #[serde(rename = "col.payee")]
    #[param(max_length = 200)]
    pub col_payee: Option<String>,
    /// The CSV header (or `#N`, the column number) of the note (description, memo, purpose).
    #[serde(rename = "col.note")]
    #[param(max_length = 200)]
    pub col_note: Option<String>,
    /// The CSV header (or `#N`, the column number) of the category name.
    #[serde(rename = "col.category")]
    #[param(max_length = 200)]
    pub col_category: Option<String>,
    /// The CSV header (or `#N`, the column number) of the tags (names separated by `;`).
    #[serde(rename = "col.tags")]
    #[param(max_length = 200)]
    pub col_tags: Option<String>,
    /// The CSV header (or `#N`, the column number) of the bank's transaction id (the import id).
    #[serde(rename = "col.id")]
    #[param(max_length = 200)]
    pub col_id: Option<String>,
    /// The CSV header (or `#N`, the column number) of the currency.
    #[serde(rename = "col.currency")]
    #[param(max_length = 200)]
    pub col_currency: Option<String>,
    /// The CSV header (or `#N`, the column number) of a status: rows the bank has not
    /// booked (`pending`, `declined`, `reverted`, `failed`, `Vorgemerkt`, ...) are skipped.
    #[serde(rename = "col.status")]
    #[param(max_length = 200)]
    pub col_status: Option<String>,
    /// The CSV header (or `#N`, the column number) of a fee: subtracted as a cost when no
    /// fee of the column is negative, else added as written (PayPal: `Net` = `Gross` +
    /// `Fee`).
    #[serde(rename = "col.fee")]
    #[param(max_length = 200)]
    pub col_fee: Option<String>,
}

/// The parsed query.
pub struct ImportParams {
    pub options: Options,
    pub dry_run: bool,
    pub default_category_id: Option<u64>,
}

/// A two-way switch: absent or `off` is false, `on` is true, anything else is `None`.
fn switch(raw: Option<&str>, off: &str, on: &str) -> Option<bool> {
    match raw {
        None => Some(false),
        Some(v) if v == off => Some(false),
        Some(v) if v == on => Some(true),
        Some(_) => None,
    }
}

/// A delimiter: `tab` or one ASCII character.
fn delimiter(raw: &str) -> Option<u8> {
    match raw.as_bytes() {
        b"tab" => Some(b'\t'),
        [b] if b.is_ascii() => Some(*b),
        _ => None,
    }
}

impl ImportQuery {
    /// Each `col.<field>` given, with its field.
    fn columns(&self) -> impl Iterator<Item = (Field, &String)> {
        [
            (Field::Date, &self.col_date),
            (Field::ValueDate, &self.col_value_date),
            (Field::Amount, &self.col_amount),
            (Field::Debit, &self.col_debit),
            (Field::Credit, &self.col_credit),
            (Field::Type, &self.col_type),
            (Field::Payee, &self.col_payee),
            (Field::Note, &self.col_note),
            (Field::Category, &self.col_category),
            (Field::Tags, &self.col_tags),
            (Field::Id, &self.col_id),
            (Field::Currency, &self.col_currency),
            (Field::Status, &self.col_status),
            (Field::Fee, &self.col_fee),
        ]
        .into_iter()
        .filter_map(|(f, header)| header.as_ref().map(|h| (f, h)))
    }

    /// Checks every parameter; all the broken ones are reported together.
    pub fn parse(self) -> Result<ImportParams, ApiError> {
        let mut errors = Vec::new();
        let mut bad = |field: &str, m: &str| errors.push(FieldError::new(field, m));
        let mut flag = |field: &str, raw: &Option<String>| {
            switch(raw.as_deref(), "false", "true").unwrap_or_else(|| {
                bad(field, "must be true or false");
                false
            })
        };
        let dry_run = flag("dryRun", &self.dry_run);
        let invert = self.invert.is_some().then(|| flag("invert", &self.invert));
        let mut options = Options {
            invert,
            columns: self.columns().map(|(f, h)| (f, h.clone())).collect(),
            encoding: self.encoding.clone(),
            date_format: self.date_format.clone(),
            ..Options::default()
        };
        if let Some(raw) = self.format.as_deref() {
            options.format = raw
                .parse::<Format>()
                .map_err(|_| bad("format", "must be csv, ofx, qfx, qif or camt"))
                .ok();
        }
        if let Some(raw) = self.decimal.as_deref() {
            options.decimal = match raw {
                "." | "," => raw.chars().next(),
                _ => {
                    bad("decimal", "must be . or ,");
                    None
                }
            };
        }
        if let Some(raw) = self.delimiter.as_deref() {
            options.delimiter = delimiter(raw).or_else(|| {
                bad("delimiter", "must be one ASCII character or tab");
                None
            });
        }
        if let Some(raw) = self.skip_rows.as_deref() {
            options.skip_rows = match raw.parse::<usize>() {
                Ok(n) if n <= 1000 => Some(n),
                _ => {
                    bad("skipRows", "must be a whole number from 0 to 1000");
                    None
                }
            };
        }
        let default_category_id = match self.default_category_id.as_deref() {
            None => None,
            Some(raw) => match raw.parse::<u64>() {
                Ok(id) if (1..=pf_domain::ids::MAX_SAFE_ID).contains(&id) => Some(id),
                _ => {
                    bad("defaultCategoryId", "must be a positive integer id");
                    None
                }
            },
        };
        if !errors.is_empty() {
            return Err(ApiError::validation(errors));
        }
        Ok(ImportParams {
            options,
            dry_run,
            default_category_id,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The query as a client sends it, read as the endpoint reads it.
    fn query(text: &str) -> ImportQuery {
        let uri = format!("/api/imports?{text}").parse().unwrap();
        axum::extract::Query::try_from_uri(&uri).unwrap().0
    }

    #[test]
    fn every_setting_becomes_an_option_and_bad_ones_are_reported_together() {
        let p = query(
            "format=qfx&delimiter=tab&decimal=,&skipRows=3&invert=true&col.date=When&col.payee=Who",
        )
        .parse()
        .unwrap();
        assert_eq!(p.options.format, Some(Format::Ofx));
        assert_eq!(p.options.delimiter, Some(b'\t'));
        assert_eq!(p.options.decimal, Some(','));
        assert_eq!(p.options.skip_rows, Some(3));
        assert_eq!(p.options.invert, Some(true));
        assert_eq!(p.options.columns[&Field::Payee], "Who");
        match query("format=xls&delimiter=ab&skipRows=-1").parse() {
            Err(ApiError::BadRequest { errors, .. }) => assert_eq!(errors.len(), 3),
            _ => panic!("expected a 400"),
        }
    }
}
