//! The amount among a headerless file's money columns when balances stand beside it:
//! the column between a start and an end balance (`start + amount = end` in every row),
//! or the one a running balance moves by from one row to the next.

use rust_decimal::Decimal;

use super::{amount_of, Records};

/// Money columns beyond which no two are tried as balances around a third.
const MAX_MONEY_COLUMNS: usize = 12;

/// Where a balance step reads, for step `k`: the balance it starts from, the amount,
/// the balance it ends at (row indexes).
type Step = fn(usize) -> (usize, usize, usize);

impl Records<'_> {
    /// The values of each of the `money` columns (`None` for a cell that is no amount),
    /// read once.
    fn values(&self, money: &[usize]) -> Vec<Vec<Option<Decimal>>> {
        money
            .iter()
            .map(|&i| {
                self.cells(i)
                    .map(|c| amount_of(c).map(|a| a.value))
                    .collect()
            })
            .collect()
    }

    /// The amount between two balance columns: `start + amount = end` in every row for
    /// three columns of `money` (ABN AMRO's start balance, end balance and amount). Of
    /// the two that add up, the start balance is the one whose values recur as end
    /// balances (one row's start is the previous one's end); with no such chain, the
    /// later column. `None` when no three columns fit, or too many are money to try.
    pub(super) fn between_balances(&self, money: &[usize]) -> Option<usize> {
        if money.len() < 3 || money.len() > MAX_MONEY_COLUMNS {
            return None;
        }
        let values = self.values(money);
        let sums = |a: &[Option<Decimal>], c: &[Option<Decimal>], b: &[Option<Decimal>]| {
            a.iter().zip(c).zip(b).all(|((a, c), b)| {
                matches!((a, c, b), (Some(a), Some(c), Some(b)) if a.checked_add(*c) == Some(*b))
            })
        };
        for a in 0..money.len() {
            for c in a + 1..money.len() {
                let others = (0..money.len()).filter(|&b| b != a && b != c);
                let Some(end) = others
                    .into_iter()
                    .find(|&b| sums(&values[a], &values[c], &values[b]))
                else {
                    continue;
                };
                let chained = |i: usize| {
                    values[i]
                        .iter()
                        .filter(|v| v.is_some() && values[end].contains(v))
                        .count()
                };
                return Some(money[if chained(c) > chained(a) { a } else { c }]);
            }
        }
        None
    }

    /// Of several money columns, the amount that a balance column chains with: from one
    /// row to the next, the balance moves by the amount (a balance before the booking,
    /// `balance + amount = next balance`, or after it, in either row order), in most of
    /// the rows. A column with signs beats one without; `None` when no pair chains.
    pub(super) fn chained(&self, money: &[usize]) -> Option<usize> {
        if money.len() < 2 || money.len() > MAX_MONEY_COLUMNS || self.0.len() < 3 {
            return None;
        }
        let values = self.values(money);
        let steps = self.0.len() - 1;
        let chains = |b: &[Option<Decimal>], a: &[Option<Decimal>]| {
            let fits = |k: usize, moved: Step| {
                let (from, by, to) = moved(k);
                matches!((b[from], a[by], b[to]), (Some(f), Some(x), Some(t)) if f.checked_add(x) == Some(t))
            };
            // Before the booking, oldest first; after it, oldest first; and newest first.
            let orders: [Step; 4] = [
                |k| (k, k, k + 1),
                |k| (k, k + 1, k + 1),
                |k| (k + 1, k + 1, k),
                |k| (k + 1, k, k),
            ];
            orders
                .iter()
                .map(|o| (0..steps).filter(|&k| fits(k, *o)).count())
                .max()
                .unwrap_or(0)
        };
        let signed = |i: usize| {
            self.cells(money[i])
                .any(|c| c.trim_start().starts_with(['-', '+']))
        };
        (0..money.len())
            .filter_map(|a| {
                let best = (0..money.len())
                    .filter(|&b| b != a)
                    .map(|b| chains(&values[b], &values[a]))
                    .max()?;
                (best * 5 >= steps * 4 && best >= 2).then_some((signed(a), best, a))
            })
            .max_by_key(|&(signed, best, a)| (signed, best, std::cmp::Reverse(a)))
            .map(|(_, _, a)| money[a])
    }
}
