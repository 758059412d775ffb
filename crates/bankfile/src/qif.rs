//! QIF (Quicken Interchange Format): `!Type:Bank`, `Cash`, `CCard`, `Oth A`, `Oth L`
//! (an investment account, `Invst`, is refused: its unsigned totals are trades, whose
//! direction only the action names); records of `D` date, `T`/`U` amount, `P` payee, `M` memo,
//! `L` category (`[Account]` transfers without brackets, `/class` dropped), `N` number,
//! each ended by `^`; a split's `S` category, `E` memo, `$` amount and `%` percentage lines
//! ([`splits`]). Lists (`!Type:Cat`, `Class`, `Memorized`, ...) are skipped, an
//! `!Account` block names the account. A record that the file ends inside (no `^`) is
//! [`FileError::Malformed`]: the file was cut.
//!
//! Dates: `1/ 5'24` (Quicken's `'` for years from 2000: month-first), `01/05/2024`,
//! `05.01.2024`, `2024-01-05`; day-first against month-first is detected over every `D`
//! like a CSV column.

use crate::amount::{self, detect_decimal};
use crate::date::{detect, DateFormat};
use crate::{capped, Detected, FileError, Format, Options, Row, RowError, Statement};

mod splits;

#[derive(Default)]
struct Record {
    line: usize,
    date: Option<String>,
    total: Option<String>,
    payee: Option<String>,
    memo: Option<String>,
    category: Option<String>,
    number: Option<String>,
    splits: Vec<splits::RawSplit>,
}

impl Record {
    fn is_empty(&self) -> bool {
        self.date.is_none() && self.total.is_none() && self.payee.is_none() && self.memo.is_none()
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Section {
    Transactions,
    Account,
    Skip,
    Investments,
}

/// `1/ 5'24` → `1/5/2024`; `1/5' 4` → `1/5/2004`. Whether it used the `'` notation.
fn normalize_date(raw: &str) -> (String, bool) {
    let s: String = raw.chars().filter(|c| !c.is_whitespace()).collect();
    match s.split_once('\'') {
        Some((md, y)) if y.len() <= 2 && y.bytes().all(|b| b.is_ascii_digit()) => {
            let year = 2000 + y.parse::<i32>().unwrap_or(0);
            (format!("{md}/{year}"), true)
        }
        Some((md, y)) => (format!("{md}/{y}"), true),
        None => (s, false),
    }
}

fn section(header: &str) -> Option<Section> {
    let h = header.trim().to_ascii_uppercase();
    if h.starts_with("!ACCOUNT") {
        return Some(Section::Account);
    }
    let kind = h.strip_prefix("!TYPE:")?.trim().to_owned();
    // Registers of money; every other list (`Cat`, `Class`, `Tag`, `Memorized`, `Prices`,
    // `Security`, `Payee`, ...) names things, and its `D` lines are descriptions, not dates.
    Some(match kind.as_str() {
        "BANK" | "CASH" | "CCARD" | "OTH A" | "OTH L" | "INVOICE" => Section::Transactions,
        "INVST" => Section::Investments,
        _ => Section::Skip,
    })
}

fn read(text: &str, cap: usize) -> Result<(Vec<Record>, Option<String>), FileError> {
    let mut records = Vec::new();
    let mut account = None;
    let mut account_name: Option<String> = None;
    // The account the first transaction came under.
    let mut records_of: Option<Option<String>> = None;
    let mut current = Record::default();
    let mut state = Section::Transactions;
    let mut last_line = 0;
    // Classic Mac OS wrote lines ending in CR alone.
    let newline = if text.contains('\n') { '\n' } else { '\r' };
    for (i, line) in text.split(newline).enumerate() {
        let line = line.trim_matches(|c: char| c == '\r' || c == '\u{1A}' || c == '\u{FEFF}');
        let number = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        last_line = number;
        if line.starts_with('!') {
            if !current.is_empty() {
                return Err(unended(current.line));
            }
            match section(line) {
                Some(Section::Investments) => {
                    return Err(FileError::Unsupported {
                        what: "a QIF investment account (!Type:Invst): its totals are trades, \
                               not money in or out; export the cash account instead"
                            .into(),
                    })
                }
                Some(s) => state = s,
                None => {}
            }
            continue;
        }
        let mut chars = line.chars();
        let code = chars.next().unwrap_or('^');
        let value = capped(chars.as_str().trim()).to_owned();
        if current.line == 0 {
            current.line = number;
        }
        if state == Section::Transactions && splits::take_line(&mut current.splits, code, &value) {
            continue;
        }
        let slot = match (state, code) {
            (_, '^') => {
                let done = std::mem::take(&mut current);
                match state {
                    Section::Transactions if !done.is_empty() => {
                        if records.len() >= cap {
                            return Err(FileError::TooManyRows { max: cap });
                        }
                        // Quicken's "all accounts" export: one wallet takes one account
                        // (else its transfers would come in twice, once from each side).
                        match &records_of {
                            None => records_of = Some(account.clone()),
                            Some(first) if *first != account => {
                                return Err(several_accounts(first, &account))
                            }
                            Some(_) => {}
                        }
                        records.push(done);
                    }
                    Section::Account => account = account_name.take().or(account),
                    _ => {}
                }
                continue;
            }
            (Section::Account, 'N') => &mut account_name,
            (Section::Transactions, 'D') => &mut current.date,
            (Section::Transactions, 'T') => &mut current.total,
            (Section::Transactions, 'U') if current.total.is_none() => &mut current.total,
            (Section::Transactions, 'P') => &mut current.payee,
            (Section::Transactions, 'M') => &mut current.memo,
            (Section::Transactions, 'L') => &mut current.category,
            (Section::Transactions, 'N') => &mut current.number,
            _ => continue,
        };
        slot.get_or_insert(value);
    }
    if !current.is_empty() {
        return Err(FileError::malformed(
            format!("line {}", last_line.max(current.line)),
            format!(
                "the file ends inside the record of line {} (no closing ^; truncated?)",
                current.line
            ),
        ));
    }
    Ok((records, account))
}

fn several_accounts(first: &Option<String>, then: &Option<String>) -> FileError {
    let name = |a: &Option<String>| a.clone().unwrap_or_else(|| "an unnamed one".into());
    FileError::Unsupported {
        what: format!(
            "a QIF file of several accounts ({} and {}): export one account a file",
            name(first),
            name(then)
        ),
    }
}

fn unended(line: usize) -> FileError {
    FileError::malformed(format!("line {line}"), "a record is not ended by ^")
}

/// Whether a record is the opening-balance entry that Quicken-like apps write first: a
/// transfer to the account itself (`L[<its own name>]`) or a payee that says so
/// (`Opening Balance`, `Eröffnungssaldo`, ...). One of 0.00 moves nothing and is no row.
fn is_opening_balance(record: &Record, account: Option<&str>) -> bool {
    let own = |c: &str| {
        let c = c.trim();
        c.starts_with('[') && account.is_some_and(|a| c.trim_matches(['[', ']']).trim() == a.trim())
    };
    let payee = record.payee.as_deref().map(crate::text::fold);
    record.category.as_deref().is_some_and(own)
        || payee.is_some_and(|p| {
            [
                "opening balance",
                "eroffnungssaldo",
                "anfangssaldo",
                "solde initial",
                "solde d'ouverture",
            ]
            .contains(&p.as_str())
        })
}

/// `[Savings]` → `Savings` (a transfer), `Food:Dining/Business` → `Food:Dining`.
fn category(raw: &str) -> Option<String> {
    let raw = raw.trim();
    let name = match raw.strip_prefix('[') {
        Some(inner) => inner.split(']').next().unwrap_or(inner),
        None => raw.split('/').next().unwrap_or(raw),
    };
    let name = name.trim();
    (!name.is_empty()).then(|| name.to_owned())
}

pub fn parse(text: &str, encoding: &str, options: &Options) -> Result<Statement, FileError> {
    let (records, account) = read(text, options.row_cap())?;
    let dates: Vec<(String, bool)> = records
        .iter()
        .map(|r| normalize_date(r.date.as_deref().unwrap_or("")))
        .collect();
    let date_cells: Vec<&str> = dates.iter().map(|(d, _)| d.as_str()).collect();
    let apostrophe = dates.iter().any(|(_, a)| *a);
    let format = match &options.date_format {
        Some(f) => Some(f.parse::<DateFormat>()?),
        None => match detect(&date_cells) {
            Err(FileError::AmbiguousDate { .. }) if apostrophe => {
                "MM/DD/YYYY".parse::<DateFormat>().ok()
            }
            other => other?,
        },
    };
    let totals: Vec<&str> = records.iter().filter_map(|r| r.total.as_deref()).collect();
    let decimal = match options.decimal {
        Some(c @ ('.' | ',')) => c,
        Some(c) => return Err(FileError::bad("decimal", format!("{c:?} is not . or ,"))),
        None => detect_decimal(&totals, '.', options.currency.as_deref()),
    };
    let mut statement = Statement::new(Detected {
        date_format: format.map(|f| f.to_string()),
        decimal: Some(decimal),
        account: account.clone(),
        invert: options.invert.unwrap_or(false),
        ..Detected::new(Format::Qif, encoding)
    });
    statement.total_rows = records.len();
    for (i, (record, (date, _))) in records.into_iter().zip(&dates).enumerate() {
        let row = i + 1;
        let date = match (record.date.is_some(), format) {
            (false, _) => Err("D is missing".to_owned()),
            (true, None) => Err("is not a date in any known format".to_owned()),
            (true, Some(f)) => f
                .read(date)
                .ok_or_else(|| format!("must be a date in {f} format")),
        };
        let amount = match record.total.as_deref() {
            None => Err("T is missing".to_owned()),
            Some(t) => amount::parse(t, decimal).map(|a| a.value),
        };
        let (date, mut amount) = match (date, amount) {
            (Ok(d), Ok(a)) => (d, a),
            (d, a) => {
                let d = d.err().map(|m| RowError::new(row, "date", m));
                let a = a.err().map(|m| RowError::new(row, "amount", m));
                statement.errors.extend(d.into_iter().chain(a));
                continue;
            }
        };
        if amount.is_zero() && is_opening_balance(&record, account.as_deref()) {
            statement.total_rows -= 1;
            continue;
        }
        let invert = options.invert == Some(true);
        if invert {
            amount = -amount;
        }
        let parts = match splits::parts(&record.splits, amount, decimal, invert) {
            Ok(parts) => parts,
            Err(message) => {
                statement.errors.push(RowError::new(row, "splits", message));
                continue;
            }
        };
        let category = match parts.first() {
            Some(first) => first.category.clone(),
            None => record.category.as_deref().and_then(category),
        };
        let mut note = record.memo.filter(|m| !m.is_empty());
        if let Some(n) = record
            .number
            .filter(|n| n.bytes().any(|b| b.is_ascii_digit()))
        {
            note = Some(note.map_or_else(|| format!("No. {n}"), |m| format!("{m} (no. {n})")));
        }
        let (payee, note) = match record.payee.filter(|p| !p.is_empty()) {
            Some(p) => {
                let (p, n) = crate::fit_payee(p, note);
                (Some(p), n)
            }
            None => (None, note),
        };
        statement.rows.push(Row {
            row,
            date,
            amount,
            payee,
            note,
            category,
            tags: Vec::new(),
            import_id: None,
            splits: parts,
        });
    }
    Ok(statement)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quicken_dates_and_categories() {
        assert_eq!(normalize_date("1/ 5'24"), ("1/5/2024".into(), true));
        assert_eq!(normalize_date("12/31' 4"), ("12/31/2004".into(), true));
        assert_eq!(category("[Savings]").as_deref(), Some("Savings"));
        assert_eq!(category("Food:Dining/Trip").as_deref(), Some("Food:Dining"));
        assert_eq!(category(" "), None);
    }
}
