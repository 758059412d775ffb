//! A statement's reversals against its balances. ISO 20022 signs a reversal entry
//! (`RvslInd` true) by the direction of its own booking, but German banks (the DK
//! rules) keep the original booking's `CdtDbtInd`: the same file text means opposite
//! money. The statement's opening (`OPBD`, else `PRCD`) and closing (`CLBD`) booked
//! balances decide: when the rows add up to their difference only with the reversals
//! turned round, they are turned round; otherwise the ISO reading stands.

use rust_decimal::Decimal;

use crate::{amount, Row};

#[derive(Default)]
struct Balance {
    code: Option<String>,
    amount: Option<String>,
    direction: Option<String>,
}

impl Balance {
    fn signed(&self) -> Option<Decimal> {
        let value = amount::parse(self.amount.as_deref()?, '.')
            .ok()?
            .value
            .abs();
        match self.direction.as_deref().map(str::trim) {
            Some("DBIT") => Some(-value),
            _ => Some(value),
        }
    }
}

/// One statement's rows (from `first`), its reversal rows and its balances.
#[derive(Default)]
pub struct Reconcile {
    first: usize,
    reversals: Vec<usize>,
    opening: Option<Decimal>,
    closing: Option<Decimal>,
    balance: Option<Balance>,
}

impl Reconcile {
    /// A statement begins; its rows will start at `first`.
    pub fn new(first: usize) -> Self {
        Self {
            first,
            ..Self::default()
        }
    }

    /// A `Bal` element opens.
    pub fn open_balance(&mut self) {
        self.balance = Some(Balance::default());
    }

    /// Text at `below` (the path under the statement), if it is a balance's.
    pub fn text(&mut self, below: &[&str], value: &str) {
        let Some(b) = self.balance.as_mut() else {
            return;
        };
        let slot = match below {
            ["Bal", "Tp", "CdOrPrtry", "Cd"] => &mut b.code,
            ["Bal", "Amt"] => &mut b.amount,
            ["Bal", "CdtDbtInd"] => &mut b.direction,
            _ => return,
        };
        slot.get_or_insert_with(|| value.to_owned());
    }

    /// A `Bal` element closes: an opening or closing booked balance is kept.
    pub fn close_balance(&mut self) {
        let Some(b) = self.balance.take() else { return };
        let amount = b.signed();
        match b.code.as_deref().map(str::trim) {
            Some("OPBD") => self.opening = amount,
            Some("PRCD") => self.opening = self.opening.or(amount),
            Some("CLBD") => self.closing = amount,
            _ => {}
        }
    }

    /// The rows `from..to` came from a reversal entry.
    pub fn reversal(&mut self, from: usize, to: usize) {
        self.reversals.extend(from..to);
    }

    /// The statement ends: turns its reversal rows round when only that makes its rows
    /// add up to the change between its balances.
    pub fn finish(self, rows: &mut [Row]) {
        let (Some(opening), Some(closing)) = (self.opening, self.closing) else {
            return;
        };
        if self.reversals.is_empty() {
            return;
        }
        let total: Decimal = rows
            .get(self.first..)
            .unwrap_or_default()
            .iter()
            .map(|r| r.amount)
            .sum();
        let reversed: Decimal = self
            .reversals
            .iter()
            .filter_map(|&i| rows.get(i))
            .map(|r| r.amount)
            .sum();
        let change = closing - opening;
        if total != change && total - reversed * Decimal::TWO == change {
            for &i in &self.reversals {
                if let Some(r) = rows.get_mut(i) {
                    r.amount = -r.amount;
                }
            }
        }
    }
}
