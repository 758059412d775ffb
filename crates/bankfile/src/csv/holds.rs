//! PayPal's authorisation holds and their releases: a hold is a pending row (`Ausstehend`,
//! skipped as every pending row is), its release a later completed credit of the same
//! amount (`Rückbuchung allgemeiner Einbehaltung`) whose related-transaction column names
//! the hold's code. Keeping the release without its hold would credit money that never
//! arrived (the file's balance column says so): the release is left out with its hold,
//! and the pair is reported ([`crate::Statement::paired`]).

use rust_decimal::Decimal;

use crate::amount;
use crate::text::fold;
use crate::Paired;

/// The transaction code column and the related-code column, by their headers.
fn columns(headers: &[String]) -> Option<(usize, usize)> {
    let find = |names: &[&str]| {
        headers
            .iter()
            .position(|h| names.contains(&fold(h).as_str()))
    };
    let code = find(&["transaktionscode", "transaction id"])?;
    let related = find(&["zugehoriger transaktionscode", "reference txn id"])?;
    Some((code, related))
}

/// The holds of a file: each pending row's code and amount.
pub struct Holds {
    related: usize,
    amount: usize,
    decimal: char,
    /// Each hold's row, code and amount.
    holds: Vec<(usize, String, Decimal)>,
}

impl Holds {
    /// The holds among `records` (`pending` tells a pending row); `None` without the
    /// columns that pair them.
    pub fn new<'a>(
        headers: &[String],
        amount_column: Option<usize>,
        decimal: char,
        records: impl Iterator<Item = &'a (usize, Vec<String>)>,
        pending: impl Fn(&[String]) -> bool,
    ) -> Option<Self> {
        let (code, related) = columns(headers)?;
        let amount_column = amount_column?;
        let holds = records
            .filter(|(_, cells)| pending(cells))
            .filter_map(|(row, cells)| {
                let id = cells.get(code)?.trim();
                let value = amount::parse(cells.get(amount_column)?, decimal)
                    .ok()?
                    .value;
                (!id.is_empty()).then(|| (*row, id.to_owned(), value))
            })
            .collect();
        Some(Self {
            related,
            amount: amount_column,
            decimal,
            holds,
        })
    }

    /// The pair a booked row (record `row`) makes when it releases a hold (its related
    /// code and the opposite amount); each hold pairs once.
    pub fn releases(&mut self, row: usize, cells: &[String]) -> Option<Paired> {
        let related = cells.get(self.related).map(|c| c.trim())?;
        let value = cells
            .get(self.amount)
            .and_then(|c| amount::parse(c, self.decimal).ok())?;
        let found = self.holds.iter().position(|(_, id, held)| {
            !related.is_empty() && id == related && *held == -value.value
        })?;
        let (hold, reference, _) = self.holds.swap_remove(found);
        Some(Paired {
            hold,
            release: row,
            amount: value.value,
            reference,
        })
    }
}
