//! Files without a header row (Commonwealth Bank, ANZ and NAB in Australia, Wells Fargo):
//! the first record is a transaction, and the columns are told by their content. The
//! date is the first column of dates; the amount the first column of money (amounts in
//! every row, some with cents or a sign; a later one is a balance), or a debit and a
//! credit column side by side (each row fills one); every other column with words in it
//! is the note. Balance columns beside the amount are told apart in [`balances`];
//! `col.<field>=#N` names a column by its number instead ([`numbered`]).

mod balances;
mod numbered;

use crate::amount;
use crate::date::looks_like_date;
use crate::Field;

pub use numbered::{apply_numbered, column_name, column_number, refuse_names};

/// Share of the rows up to the last date (in percent) whose cell must look like a date
/// in the date column; the rest are lines between transactions (subtotals).
const DATE_SHARE: usize = 90;

/// The value of an amount cell (no letters), with either decimal separator.
fn amount_of(cell: &str) -> Option<amount::Amount> {
    let cell = cell.trim();
    if cell.chars().any(char::is_alphabetic) || !cell.chars().any(|c| c.is_ascii_digit()) {
        return None;
    }
    amount::parse(cell, '.')
        .or_else(|_| amount::parse(cell, ','))
        .ok()
}

/// Whether a cell reads as money rather than a count or a reference: a sign, or one
/// or two digits after the last `.` or `,`.
fn money_like(cell: &str) -> bool {
    let signed = cell.contains(['-', '+', '(']);
    let cents = cell.rfind(['.', ',']).is_some_and(|p| {
        let tail = &cell[p + 1..];
        let digits = tail.chars().take_while(char::is_ascii_digit).count();
        (1..=2).contains(&digits) && !tail[digits..].chars().any(|c| c.is_ascii_digit())
    });
    signed || cents
}

/// Cell `i` of a record, empty where the record is shorter.
fn cell(r: &[String], i: usize) -> &str {
    r.get(i).map_or("", String::as_str)
}

fn has_words(cell: &str) -> bool {
    cell.chars().filter(|c| c.is_alphabetic()).count() >= 2
}

/// The columns of a transaction's records: what each of its cells holds.
struct Records<'a>(Vec<&'a Vec<String>>);

impl Records<'_> {
    fn cells(&self, i: usize) -> impl Iterator<Item = &str> {
        self.0.iter().map(move |r| cell(r, i))
    }

    /// Every non-empty cell is a date (a value date beside the booking date).
    fn dates_only(&self, i: usize) -> bool {
        self.cells(i)
            .filter(|c| !c.trim().is_empty())
            .all(looks_like_date)
    }

    /// An amount in every row.
    fn amounts(&self, i: usize) -> bool {
        !self.dates_only(i) && self.cells(i).all(|c| amount_of(c).is_some())
    }

    /// Money in every row (see [`money_like`]).
    fn money(&self, i: usize) -> bool {
        self.amounts(i) && self.cells(i).any(money_like)
    }

    /// Every cell is a currency's ISO 4217 code (not `POS` or `ATM` of a type column).
    fn codes(&self, i: usize) -> bool {
        self.cells(i).all(|c| amount::is_currency_code(c.trim()))
    }

    /// A debit and a credit column: amounts or empty cells, one non-zero in each row.
    fn pair(&self, i: usize) -> bool {
        let filled = |c: &str| amount_of(c).is_some_and(|a| !a.value.is_zero());
        let fits = |c: &str| c.trim().is_empty() || amount_of(c).is_some();
        self.0.iter().all(|r| {
            let (a, b) = (cell(r, i), cell(r, i + 1));
            fits(a) && fits(b) && filled(a) != filled(b)
        }) && self.cells(i).any(filled)
            && self.cells(i + 1).any(filled)
    }
}

/// The field of each column of `rows` (the first records of the file, from the first
/// data record on), or `None` when the first record is no transaction (a header that
/// no alias matched, a preamble).
pub fn infer(rows: &[Vec<String>]) -> Option<Vec<Option<Field>>> {
    let rows: Vec<&Vec<String>> = rows
        .iter()
        .filter(|r| r.iter().any(|c| !c.trim().is_empty()))
        .collect();
    let first = rows.first()?;
    let width = rows.iter().map(|r| r.len()).max()?;
    // Lines after the last date are summaries (as the reading of rows has it).
    let date = (0..width).find(|&i| {
        let dated: Vec<bool> = rows.iter().map(|r| looks_like_date(cell(r, i))).collect();
        let upto = dated.iter().rposition(|d| *d).map_or(0, |last| last + 1);
        let count = dated.iter().filter(|d| **d).count();
        looks_like_date(cell(first, i)) && count * 100 >= upto * DATE_SHARE
    })?;
    let data = Records(
        rows.iter()
            .copied()
            .filter(|r| looks_like_date(cell(r, date)))
            .collect(),
    );
    let mut fields = vec![None; width];
    fields[date] = Some(Field::Date);
    let columns = (0..width).filter(|&i| i != date);
    let money_columns: Vec<usize> = columns.clone().filter(|&i| data.money(i)).collect();
    let money = data
        .between_balances(&money_columns)
        .or_else(|| data.chained(&money_columns))
        .map(|i| vec![(i, Field::Amount)]);
    let money = money.or_else(|| {
        columns.clone().find_map(|i| {
            if money_columns.contains(&i) {
                Some(vec![(i, Field::Amount)])
            } else if i + 1 < width && i + 1 != date && data.pair(i) {
                Some(vec![(i, Field::Debit), (i + 1, Field::Credit)])
            } else {
                None
            }
        })
    });
    // Whole amounts (yen, forints) have no cents: then the first column of amounts.
    let money = money.or_else(|| {
        Some(vec![(
            columns.clone().find(|&i| data.amounts(i))?,
            Field::Amount,
        )])
    })?;
    for (i, field) in money {
        fields[i] = Some(field);
    }
    for (i, field) in fields.iter_mut().enumerate() {
        let words = data.cells(i).any(has_words);
        if field.is_none() && data.codes(i) {
            *field = Some(Field::Currency);
        } else if field.is_none() && words && !data.dates_only(i) {
            *field = Some(Field::Note);
        }
    }
    Some(fields)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    fn rows(text: &str) -> Vec<Vec<String>> {
        text.lines()
            .map(|l| l.split(',').map(str::to_owned).collect())
            .collect()
    }

    #[test]
    fn columns_by_content() {
        const D: Option<Field> = Some(Field::Date);
        const A: Option<Field> = Some(Field::Amount);
        const N: Option<Field> = Some(Field::Note);
        const C: Option<Field> = Some(Field::Currency);
        for (text, fields) in [
            // Commonwealth Bank: date, signed amount, description, balance.
            (
                "05/01/2024,-45.50,EFTPOS WOOLWORTHS,+1234.56\n06/01/2024,+900.00,SALARY,+2134.56",
                vec![D, A, N, None],
            ),
            // Wells Fargo: `*`, an empty check number, the description.
            (
                "01/05/2024,-45.50,*,,PURCHASE SAFEWAY\n01/06/2024,12.00,*,1234,DEPOSIT",
                vec![D, A, None, None, N],
            ),
            // ABN AMRO: account, currency, date, start and end balance, value date,
            // the amount (the end balance less the start), the description.
            (
                "123,EUR,20240131,1234.56,1222.16,20240131,-12.40,BEA ALBERT HEIJN\n\
                 123,EUR,20240125,-1265.44,1234.56,20240125,2500.00,SEPA ACME",
                vec![None, C, D, None, None, None, A, N],
            ),
            // A type column of three-letter words is no currency.
            (
                "05/01/2024,-45.50,POS,WOOLWORTHS\n06/01/2024,+900.00,DEP,SALARY",
                vec![D, A, N, N],
            ),
            // NAB: months in words, empty columns, two text columns, a balance.
            (
                "05 Jan 24,-45.50,,,EFTPOS,WOOLWORTHS,1234.56\n06 Jan 24,10.00,,,TRANSFER,ANN,1.56",
                vec![D, A, None, None, N, N, None],
            ),
        ] {
            assert_eq!(infer(&rows(text)), Some(fields), "{text}");
        }
    }

    #[test]
    fn a_header_or_preamble_first_is_no_headerless_file() {
        assert_eq!(
            infer(&rows("When,What,How much\n05/01/2024,Coffee,-4.50")),
            None
        );
        assert_eq!(infer(&rows("Account,1234\n05/01/2024,Coffee,-4.50")), None);
        assert_eq!(
            infer(&rows("05/01/2024,Coffee,none\n06/01/2024,Tea,none")),
            None
        );
        assert_eq!(infer(&[]), None);
    }

    #[test]
    fn numbered_overrides() {
        let mut f = vec![
            Some(Field::Date),
            Some(Field::Amount),
            Some(Field::Note),
            None,
        ];
        let o = BTreeMap::from([
            (Field::Amount, "#4".to_owned()),
            (Field::Payee, "#6".to_owned()),
        ]);
        assert!(refuse_names(&o).is_ok());
        apply_numbered(&mut f, &o);
        assert_eq!(
            f,
            [
                Some(Field::Date),
                None,
                Some(Field::Note),
                Some(Field::Amount),
                None,
                Some(Field::Payee)
            ]
        );
        let o = BTreeMap::from([(Field::Amount, "Amount".to_owned())]);
        assert!(refuse_names(&o).is_err());
        assert_eq!(
            (column_number("#1"), column_number("#0"), column_number("1")),
            (Some(0), None, None)
        );
        assert_eq!(column_name(0), "#1");
    }
}
