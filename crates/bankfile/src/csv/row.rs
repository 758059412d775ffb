//! One CSV record to a [`Row`] or per-row errors.

use std::collections::BTreeMap;

use rust_decimal::Decimal;

use super::header::{currency_hint, is_payer};
use super::preamble::looks_like_iban;
use super::words::{not_booked, type_sign};
use crate::amount::{self, Amount};
use crate::date::DateFormat;
use crate::text::{split_tags, unescape_cell};
use crate::{Field, Row, RowError, MAX_CELL_BYTES};

/// Joins the cells of several note columns.
const NOTE_JOIN: &str = " | ";

/// The columns of each field, in order of preference (booking/transaction date columns
/// before value date ones; for the payee, who was paid for money out and who paid for
/// money in).
pub struct Columns {
    headers: Vec<String>,
    by_field: BTreeMap<Field, Vec<usize>>,
    payers: Vec<usize>,
}

impl Columns {
    pub fn new(headers: &[String], fields: &[Option<Field>]) -> Self {
        let mut by_field: BTreeMap<Field, Vec<usize>> = BTreeMap::new();
        for (i, f) in fields.iter().enumerate() {
            if let Some(f) = f {
                by_field.entry(*f).or_default().push(i);
            }
        }
        let payers = by_field
            .get(&Field::Payee)
            .map(|cols| {
                cols.iter()
                    .copied()
                    .filter(|&i| is_payer(&headers[i]))
                    .collect()
            })
            .unwrap_or_default();
        Self {
            headers: headers.to_vec(),
            by_field,
            payers,
        }
    }

    /// Whether a field is read from column `from` or a later one.
    pub fn uses_from(&self, from: usize) -> bool {
        self.by_field.values().flatten().any(|&i| i >= from)
    }

    pub fn indexes<'a>(&'a self, fields: &'a [Field]) -> impl Iterator<Item = usize> + 'a {
        fields
            .iter()
            .flat_map(|f| self.by_field.get(f).into_iter().flatten().copied())
    }

    /// The header of each field's preferred column.
    pub fn detected(&self) -> BTreeMap<Field, String> {
        self.by_field
            .iter()
            .filter_map(|(f, cols)| Some((*f, self.headers.get(*cols.first()?)?.clone())))
            .collect()
    }

    /// A currency the amount columns' headers name.
    pub fn currency_hint(&self) -> Option<String> {
        self.indexes(&[Field::Amount, Field::Debit, Field::Credit])
            .find_map(|i| currency_hint(&self.headers[i]))
    }
}

/// What every row is read with.
pub struct Reading<'a> {
    pub columns: &'a Columns,
    pub date_format: Option<DateFormat>,
    pub decimal: char,
    /// The amount column carries signs: a type column does not sign its amounts.
    pub signed_column: bool,
    /// The fee column has negative fees: each fee is added as written (PayPal: `Net` =
    /// `Gross` + `Fee`, a refund's fee given back); else each is a cost subtracted
    /// (Revolut: `Fee` `0.50`).
    pub fee_signed: bool,
    pub invert: bool,
    pub account: Option<&'a str>,
    /// The statement's currency: a row in another (PayPal's USD purchase in a GBP
    /// statement) is an error, never imported at face value.
    pub currency: Option<&'a str>,
}

impl Reading<'_> {
    /// Whether a status column, or a word in place of the date (Comdirect's `offen`),
    /// says the row is not booked (see [`not_booked`]).
    pub fn is_unbooked(&self, cells: &[String]) -> bool {
        let date = self.columns.indexes(&[Field::Date]).next();
        self.columns
            .indexes(&[Field::Status])
            .chain(date)
            .any(|i| cells.get(i).is_some_and(|c| not_booked(c)))
    }

    /// Whether every amount cell (the fee's too) is empty or zero: an opening or closing
    /// balance line (`Kontostand`, `Beginning balance`, Starling's `Opening Balance` of
    /// 0.00). A fee alone is money (Revolut's `0.00` amount with a `1.00` fee).
    pub fn is_moneyless(&self, cells: &[String]) -> bool {
        self.columns
            .indexes(&[Field::Amount, Field::Debit, Field::Credit, Field::Fee])
            .all(|i| {
                cells.get(i).is_some_and(|c| {
                    let c = c.trim();
                    c.is_empty() || amount::parse(c, self.decimal).is_ok_and(|a| a.value.is_zero())
                })
            })
    }

    pub fn row(&self, row: usize, cells: &[String]) -> Result<Row, Vec<RowError>> {
        let width = self.columns.headers.len();
        if let Some(message) = cells.first().and_then(|c| c.strip_prefix('\u{0}')) {
            return Err(vec![RowError::new(
                row,
                "row",
                format!("unreadable: {message}"),
            )]);
        }
        let extra_empty = cells.len() > width && cells[width..].iter().all(|c| c.trim().is_empty());
        // A header ending in a delimiter (Lloyds' `...,Balance,`): its trailing empty
        // names, that no field was found for, are no columns.
        let short_of_empty = cells.len() < width
            && self.columns.headers[cells.len()..]
                .iter()
                .all(|h| h.trim().is_empty())
            && !self.columns.uses_from(cells.len());
        if cells.len() != width && !extra_empty && !short_of_empty {
            let message = format!("has {} fields, the header {width}", cells.len());
            return Err(vec![RowError::new(row, "row", message)]);
        }
        let mut errors = Vec::new();
        let mut values = |field: Field| -> Vec<(usize, &str)> {
            let mut out = Vec::new();
            for i in self.columns.indexes(&[field]) {
                let raw = cells.get(i).map_or("", String::as_str);
                if raw.len() > MAX_CELL_BYTES {
                    let message = format!("is longer than {MAX_CELL_BYTES} bytes");
                    errors.push(RowError::new(row, field.as_str(), message));
                } else if !raw.trim().is_empty() {
                    out.push((i, unescape_cell(raw)));
                }
            }
            out
        };
        let first = |v: Vec<(usize, &str)>| v.first().map(|(_, s)| s.trim_end().to_owned());
        let dates = [values(Field::Date), values(Field::ValueDate)].concat();
        let (debit, credit) = (values(Field::Debit), values(Field::Credit));
        let amount = values(Field::Amount);
        let kind = values(Field::Type).iter().find_map(|(_, t)| type_sign(t));
        let payees = values(Field::Payee);
        // As read: a quoted note keeps its spaces, an unquoted one was trimmed.
        let notes: Vec<&str> = values(Field::Note).iter().map(|(_, s)| *s).collect();
        let category = first(values(Field::Category));
        let tags = values(Field::Tags).first().map(|(_, t)| split_tags(t));
        let id = first(values(Field::Id)).map(|id| id.trim().to_owned());
        let fee = first(values(Field::Fee));
        let currency = first(values(Field::Currency)).map(|c| c.trim().to_ascii_uppercase());
        if !errors.is_empty() {
            return Err(errors);
        }
        let date = match (dates.first(), self.date_format) {
            (None, _) => Err("is missing".to_owned()),
            (Some(_), None) => Err("is not a date in any known format".to_owned()),
            (Some((_, d)), Some(f)) => f
                .read(d)
                .ok_or_else(|| format!("must be a date in {f} format")),
        };
        let date = date
            .map_err(|m| errors.push(RowError::new(row, "date", m)))
            .ok();
        let amount = self
            .amount(&amount, &debit, &credit, kind)
            .map_err(|(f, m)| errors.push(RowError::new(row, f.as_str(), m)))
            .ok();
        let fee = match fee.map(|f| amount::parse(&f, self.decimal)).transpose() {
            Ok(fee) => fee.map_or(Decimal::ZERO, |f| f.value),
            Err(m) => {
                errors.push(RowError::new(row, Field::Fee.as_str(), m));
                Decimal::ZERO
            }
        };
        if let (Some(row_currency), Some(statement)) = (&currency, self.currency) {
            if row_currency.len() == 3 && row_currency != statement {
                let message = format!(
                    "{row_currency} is not the statement's currency {statement}: import it into a wallet in {row_currency}"
                );
                errors.push(RowError::new(row, Field::Currency.as_str(), message));
            }
        }
        let (Some(date), Some(amount), true) = (date, amount, errors.is_empty()) else {
            return Err(errors);
        };
        // Who was paid for money out, who paid for money in; else the first, but never
        // a payer column for money out: who paid it is the account's holder (Revolut
        // Business's `Payer`, the card's user). An account number (bunq's counterparty
        // IBAN) names no one while a name is there.
        let named: Vec<&(usize, &str)> =
            payees.iter().filter(|(_, p)| !looks_like_iban(p)).collect();
        let payees: Vec<&(usize, &str)> = if named.is_empty() {
            payees.iter().collect()
        } else {
            named
        };
        let money_in = amount >= Decimal::ZERO;
        let payer = |i: &usize| self.columns.payers.contains(i);
        let payee = payees
            .iter()
            .find(|(i, _)| payer(i) == money_in)
            .or_else(|| payees.iter().find(|(i, _)| money_in || !payer(i)))
            .map(|(_, p)| p.trim_end().to_owned());
        let amount = if self.invert { -amount } else { amount };
        let net = if self.fee_signed {
            amount.checked_add(fee)
        } else {
            amount.checked_sub(fee)
        };
        let Some(amount) = net else {
            let message = "with the amount is out of range".to_owned();
            return Err(vec![RowError::new(row, Field::Fee.as_str(), message)]);
        };
        let note = (!notes.is_empty()).then(|| notes.join(NOTE_JOIN));
        Ok(Row {
            row,
            date,
            amount,
            payee,
            note,
            category,
            tags: tags.unwrap_or_default(),
            import_id: id.map(|id| match self.account {
                Some(a) => format!("{a}:{id}"),
                None => id,
            }),
            splits: Vec::new(),
        })
    }

    /// Separate debit/credit columns first; else the amount column, signed by a type
    /// column only when no amount of the column carries a sign of its own.
    fn amount(
        &self,
        amount: &[(usize, &str)],
        debit: &[(usize, &str)],
        credit: &[(usize, &str)],
        kind: Option<bool>,
    ) -> Result<Decimal, (Field, String)> {
        let read = |cells: &[(usize, &str)], f: Field| -> Result<Option<Amount>, (Field, String)> {
            match cells.first() {
                None => Ok(None),
                Some((_, c)) => amount::parse(c, self.decimal).map(Some).map_err(|m| (f, m)),
            }
        };
        let nonzero = |a: &Option<Amount>| a.filter(|a| !a.value.is_zero());
        let (d, c) = (read(debit, Field::Debit)?, read(credit, Field::Credit)?);
        match (nonzero(&d), nonzero(&c)) {
            (Some(_), Some(_)) => Err((
                Field::Debit,
                "a row has a debit or a credit, not both".into(),
            )),
            (Some(d), None) => Ok(-d.value.abs()),
            // Citi writes a payment as a negative credit.
            (None, Some(c)) => Ok(c.value.abs()),
            (None, None) => match read(amount, Field::Amount)? {
                Some(a) if !a.signed && !self.signed_column && kind == Some(true) => Ok(-a.value),
                Some(a) => Ok(a.value),
                None if d.is_some() || c.is_some() => Ok(Decimal::ZERO),
                None => Err((Field::Amount, "is missing".into())),
            },
        }
    }
}
