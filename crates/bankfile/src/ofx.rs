//! OFX/QFX 1.x (SGML) and 2.x (XML), bank (`STMTRS`/`BANKACCTFROM`) and credit-card
//! (`CCSTMTRS`/`CCACCTFROM`) statements. No maintained Rust crate reads SGML OFX 1.x,
//! so this is a small tolerant reader of its own ([`crate::markup`]).
//!
//! A `STMTTRN` becomes a row: `DTPOSTED` (else `DTUSER`), `TRNAMT` signed as the file
//! gives it, payee `NAME` (or `PAYEE`/`NAME`), note `MEMO`, import id `FITID` scoped by
//! the statement's `ACCTID`. The currency is `CURDEF`.
//!
//! An investment statement (`INVSTMTRS`, in `INVSTMTMSGSRSV1`) is refused: its
//! transactions are trades, whose cash lines alone are not the account's money in and out
//! (as QIF's `!Type:Invst` is refused).

use rust_decimal::Decimal;
use time::{Date, Month};

use crate::markup::{events, line_at, Event};
use crate::{amount, scoped_id, Detected, FileError, Format, Options, Row, RowError, Statement};

#[derive(Default)]
struct Txn {
    posted: Option<String>,
    user: Option<String>,
    amount: Option<String>,
    fitid: Option<String>,
    name: Option<String>,
    memo: Option<String>,
    checknum: Option<String>,
}

/// `YYYYMMDD[HHMMSS[.XXX]][[-5:EST]]`: the date part.
pub fn read_date(raw: &str) -> Option<Date> {
    let d = raw.trim().get(..8)?;
    if !d.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let year: i32 = d[..4].parse().ok()?;
    let month = Month::try_from(d[4..6].parse::<u8>().ok()?).ok()?;
    let date = Date::from_calendar_date(year, month, d[6..8].parse().ok()?).ok()?;
    (1900..=2999).contains(&year).then_some(date)
}

/// An OFX amount: `-12.50`, `+12.50`, and the `-12,50` some European banks write.
pub fn read_amount(raw: &str) -> Result<Decimal, String> {
    let decimal = if raw.contains(',') && !raw.contains('.') {
        ','
    } else {
        '.'
    };
    amount::parse(raw, decimal).map(|a| a.value)
}

pub fn parse(text: &str, encoding: &str, options: &Options) -> Result<Statement, FileError> {
    let events = events(text)?;
    if !events
        .iter()
        .any(|(e, _)| matches!(e, Event::Open(n) if n == "OFX"))
    {
        let at = text.find('<').map_or(1, |p| line_at(text, p));
        return Err(FileError::malformed(
            format!("line {at}"),
            "no <OFX> element",
        ));
    }
    let investments = events.iter().any(|(e, _)| {
        matches!(e, Event::Open(n) | Event::Leaf(n, _) if n == "INVSTMTRS" || n == "INVSTMTMSGSRSV1")
    });
    if investments {
        return Err(FileError::Unsupported {
            what: "an OFX investment statement (INVSTMTRS): its transactions are trades, \
                   not money in or out; export the cash or bank account instead"
                .into(),
        });
    }
    let cap = options.row_cap();
    let mut statement = Statement::new(Detected {
        invert: options.invert.unwrap_or(false),
        ..Detected::new(Format::Ofx, encoding)
    });
    let mut path: Vec<&str> = Vec::new();
    let mut account: Option<String> = None;
    let mut txn: Option<Txn> = None;
    for (event, _) in &events {
        match event {
            Event::Open(name) => {
                if name == "STMTTRN" {
                    txn = Some(Txn::default());
                }
                path.push(name.as_str());
            }
            Event::Close(name) => {
                path.pop();
                if name == "STMTTRN" {
                    if let Some(t) = txn.take() {
                        statement.total_rows += 1;
                        if statement.total_rows > cap {
                            return Err(FileError::TooManyRows { max: cap });
                        }
                        let row = statement.total_rows;
                        match to_row(row, t, account.as_deref(), statement.detected.invert) {
                            Ok(r) => statement.rows.push(r),
                            Err(e) => statement.errors.push(e),
                        }
                    }
                }
            }
            Event::Leaf(name, value) => {
                let parent = path.last().copied().unwrap_or("");
                if let Some(t) = txn.as_mut() {
                    let slot = match (name.as_str(), parent) {
                        ("DTPOSTED", _) => &mut t.posted,
                        ("DTUSER", _) => &mut t.user,
                        ("TRNAMT", _) => &mut t.amount,
                        ("FITID", _) => &mut t.fitid,
                        ("NAME", "STMTTRN" | "PAYEE") => &mut t.name,
                        ("MEMO", _) => &mut t.memo,
                        ("CHECKNUM", _) => &mut t.checknum,
                        _ => continue,
                    };
                    slot.get_or_insert_with(|| value.clone());
                    continue;
                }
                match (name.as_str(), parent) {
                    ("ACCTID", "BANKACCTFROM" | "CCACCTFROM") => {
                        let id: String = value.split_whitespace().collect();
                        statement.detected.account.get_or_insert_with(|| id.clone());
                        account = Some(id);
                    }
                    ("CURDEF", _) => {
                        let c = value.trim().to_ascii_uppercase();
                        let before = statement.detected.currency.clone();
                        statement.detected.currency.get_or_insert(c.clone());
                        crate::mixed(before, &Some(c))?;
                    }
                    _ => {}
                }
            }
        }
    }
    Ok(statement)
}

fn to_row(row: usize, t: Txn, account: Option<&str>, invert: bool) -> Result<Row, RowError> {
    let raw_date = t.posted.as_deref().or(t.user.as_deref());
    let date = raw_date.ok_or_else(|| RowError::new(row, "date", "DTPOSTED is missing"))?;
    let date = read_date(date)
        .ok_or_else(|| RowError::new(row, "date", format!("{date:?} is no OFX date (YYYYMMDD)")))?;
    let amount = t
        .amount
        .as_deref()
        .ok_or_else(|| RowError::new(row, "amount", "TRNAMT is missing"))?;
    let mut amount = read_amount(amount).map_err(|m| RowError::new(row, "amount", m))?;
    if invert {
        amount = -amount;
    }
    let name = t.name.filter(|n| !n.trim().is_empty());
    let mut note = t
        .memo
        .filter(|m| !m.trim().is_empty() && Some(m) != name.as_ref());
    if let Some(n) = t.checknum.filter(|n| !n.trim().is_empty()) {
        note = Some(match note {
            Some(m) => format!("{m} (check {n})"),
            None => format!("Check {n}"),
        });
    }
    Ok(Row {
        row,
        date,
        amount,
        payee: name,
        note,
        category: None,
        tags: Vec::new(),
        import_id: scoped_id(account, t.fitid.as_deref()),
        splits: Vec::new(),
    })
}
