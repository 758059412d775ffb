//! A CAMT entry (`Ntry`) to rows: one for the entry, or one for each of its transaction
//! details (see [`super::detail`]) when they add up to it.

use rust_decimal::Decimal;

use super::detail::{is_placeholder, is_reference, Detail};
use crate::date::DateFormat;
use crate::{amount, scoped_id, FileError, Row, RowError, Statement};

/// An entry (`Ntry`) as written: its own elements and its details.
#[derive(Default)]
pub struct Entry {
    amount: Option<String>,
    direction: Option<String>,
    status: Option<String>,
    booked: Option<String>,
    value_date: Option<String>,
    bank_ref: Option<String>,
    entry_ref: Option<String>,
    info: Option<String>,
    reversal: Option<String>,
    details: Vec<Detail>,
}

/// `DBIT` is money out, `CRDT` money in.
fn out(direction: Option<&str>) -> Option<bool> {
    match direction?.trim().to_ascii_uppercase().as_str() {
        "DBIT" => Some(true),
        "CRDT" => Some(false),
        _ => None,
    }
}

impl Entry {
    /// Stores the text of the element at `below` (the path under `Ntry`, outside
    /// `TxDtls`).
    pub fn text(&mut self, below: &[&str], value: &str) {
        if is_reference(below) && is_placeholder(value) {
            return;
        }
        let slot = match below {
            ["Amt"] => &mut self.amount,
            ["CdtDbtInd"] => &mut self.direction,
            ["Sts"] | ["Sts", "Cd"] => &mut self.status,
            ["BookgDt", "Dt" | "DtTm"] => &mut self.booked,
            ["ValDt", "Dt" | "DtTm"] => &mut self.value_date,
            ["AcctSvcrRef"] => &mut self.bank_ref,
            ["NtryRef"] => &mut self.entry_ref,
            ["AddtlNtryInf"] => &mut self.info,
            ["RvslInd"] => &mut self.reversal,
            _ => return,
        };
        slot.get_or_insert_with(|| value.to_owned());
    }

    /// Whether the entry reverses another (`RvslInd` true): see `balance.rs`.
    pub fn is_reversal(&self) -> bool {
        self.reversal
            .as_deref()
            .is_some_and(|r| r.trim().eq_ignore_ascii_case("true"))
    }

    /// A `TxDtls` element opens: the details' text goes to a new one.
    pub fn open_detail(&mut self) {
        self.details.push(Detail::default());
    }

    /// Stores the text of the element at `below` (the path under `TxDtls`) in the last
    /// detail opened.
    pub fn detail_text(&mut self, below: &[&str], value: &str) {
        if let Some(d) = self.details.last_mut() {
            d.text(below, value);
        }
    }

    /// Whether the details' signed amounts add up to the entry's: only then is a batch
    /// split into them (an entry that also books charges, or details in another
    /// currency, stays one row: no cent is lost).
    fn details_add_up(&self) -> bool {
        let signed = |amount: Option<&str>, direction: Option<&str>| -> Option<Decimal> {
            let value = amount::parse(amount?, '.').ok()?.value.abs();
            Some(if out(direction)? { -value } else { value })
        };
        let Some(total) = signed(self.amount.as_deref(), self.direction.as_deref()) else {
            return false;
        };
        let parts: Option<Vec<Decimal>> = self
            .details
            .iter()
            .map(|d| {
                let direction = d.direction.as_deref().or(self.direction.as_deref());
                signed(d.amount.as_deref(), direction)
            })
            .collect();
        parts.is_some_and(|p| p.iter().sum::<Decimal>() == total)
    }

    /// Adds the entry's rows (or errors) to the statement; a pending one is counted.
    pub fn into_rows(
        self,
        statement: &mut Statement,
        account: Option<&str>,
        invert: bool,
    ) -> Result<(), FileError> {
        let status = self
            .status
            .as_deref()
            .unwrap_or("BOOK")
            .trim()
            .to_ascii_uppercase();
        if matches!(status.as_str(), "PDNG" | "INFO" | "FUTR") {
            statement.pending_skipped += 1;
            return Ok(());
        }
        let date = self.booked.as_deref().or(self.value_date.as_deref());
        // The bank's own reference is unique to the account; `NtryRef`, `EndToEndId` and
        // `TxId` need not be (entries numbered per statement, a creditor's end-to-end id
        // reused every month): those count with the booking date.
        let dated = |r: &str| format!("{}/{r}", date.unwrap_or_default().trim());
        let entry_ref = match (&self.bank_ref, &self.entry_ref) {
            (Some(own), _) => Some(own.clone()),
            (None, Some(r)) => Some(dated(r)),
            (None, None) => None,
        };
        let batch = self.details.len() > 1 && self.details_add_up();
        if batch {
            for (i, d) in self.details.iter().enumerate() {
                statement.total_rows += 1;
                let position = (i + 1).to_string();
                let key = d.key().unwrap_or(&position);
                let id = entry_ref
                    .as_ref()
                    .map(|r| format!("{r}/{key}"))
                    .or_else(|| d.own_ref());
                let direction = d.direction.as_deref().or(self.direction.as_deref());
                let note = d.note().or_else(|| self.info.clone());
                let row = statement.total_rows;
                let read = Parts {
                    row,
                    date,
                    amount: d.amount.as_deref(),
                    direction,
                    detail: Some(d),
                    note,
                    id: scoped_id(account, id.as_deref()),
                    account,
                };
                push(statement, read.row_of(invert));
            }
            return Ok(());
        }
        statement.total_rows += 1;
        // One row for the whole entry: a single detail names its party and purpose; of a
        // batch (a payroll, a direct-debit collection) no one detail speaks for the total.
        let only = match self.details.as_slice() {
            [d] => Some(d),
            _ => None,
        };
        let id =
            entry_ref.or_else(|| only.and_then(|d| d.own_ref().or_else(|| d.key().map(dated))));
        let read = Parts {
            row: statement.total_rows,
            date,
            amount: self.amount.as_deref(),
            direction: self.direction.as_deref(),
            detail: only,
            note: only.and_then(Detail::note).or_else(|| self.info.clone()),
            id: scoped_id(account, id.as_deref()),
            account,
        };
        push(statement, read.row_of(invert));
        Ok(())
    }
}

fn push(statement: &mut Statement, row: Result<Row, RowError>) {
    match row {
        Ok(r) => statement.rows.push(r),
        Err(e) => statement.errors.push(e),
    }
}

struct Parts<'a> {
    row: usize,
    date: Option<&'a str>,
    amount: Option<&'a str>,
    direction: Option<&'a str>,
    detail: Option<&'a Detail>,
    note: Option<String>,
    id: Option<String>,
    /// The statement's account, never the payee.
    account: Option<&'a str>,
}

impl Parts<'_> {
    fn row_of(self, invert: bool) -> Result<Row, RowError> {
        let row = self.row;
        let raw = self
            .date
            .ok_or_else(|| RowError::new(row, "date", "BookgDt is missing"))?;
        // The day as written: `Dt` may carry a zone (`2024-01-05+01:00`), `DtTm` a time.
        let day = raw.trim().get(..10).unwrap_or(raw);
        let date = DateFormat::ISO
            .read(day)
            .ok_or_else(|| RowError::new(row, "date", format!("{raw:?} is no ISO date")))?;
        let raw = self
            .amount
            .ok_or_else(|| RowError::new(row, "amount", "Amt is missing"))?;
        let value = amount::parse(raw, '.')
            .map_err(|m| RowError::new(row, "amount", m))?
            .value
            .abs();
        let out = out(self.direction)
            .ok_or_else(|| RowError::new(row, "type", "CdtDbtInd is missing or not DBIT/CRDT"))?;
        let mut amount: Decimal = if out { -value } else { value };
        if invert {
            amount = -amount;
        }
        Ok(Row {
            row,
            date,
            amount,
            payee: self.detail.and_then(|d| d.payee(out, self.account)),
            note: self.note,
            category: None,
            tags: Vec::new(),
            import_id: self.id,
            splits: Vec::new(),
        })
    }
}
