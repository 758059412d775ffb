//! ISO 20022 CAMT.053 (statement, versions .001.02 to .001.08 and later), CAMT.052
//! (report) and CAMT.054 (notification), read with `quick-xml` by local element names,
//! so every namespace version reads alike.
//!
//! An entry (`Ntry`) is a row: `Amt` signed by `CdtDbtInd`, date `BookgDt` (else
//! `ValDt`), payee the creditor's name for money out and the debtor's for money in
//! (`RltdPties/Cdtr/Nm`, v08 `RltdPties/Cdtr/Pty/Nm`), note `RmtInf/Ustrd` (else
//! `AddtlTxInf`, `AddtlNtryInf`), import id `AcctSvcrRef` (else `NtryRef`, else the one
//! detail's `AcctSvcrRef`, `EndToEndId` or `TxId`; those but a bank's reference behind the
//! booking date, as banks number entries per statement and creditors reuse end-to-end
//! ids) scoped by the account's IBAN. A batch entry whose
//! details (`TxDtls`) each carry an amount gives one row per detail, its id the entry's
//! reference plus the detail's `EndToEndId`, `TxId` or position. Pending (`PDNG`),
//! future (`FUTR`) and informational (`INFO`) entries are skipped and counted. A
//! reversal's direction is checked against its statement's balances (`balance.rs`).

mod balance;
mod detail;
mod entry;

use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

use crate::markup::line_at;
use crate::{capped, check_tag, mixed, Detected, FileError, Format, Options, Statement, MAX_DEPTH};
use balance::Reconcile;
use entry::Entry;

fn local(e: &BytesStart<'_>) -> String {
    String::from_utf8_lossy(e.local_name().as_ref()).into_owned()
}

fn ccy(e: &BytesStart<'_>) -> Option<String> {
    // Without the duplicate check (quadratic in the attributes); the first `Ccy` counts.
    e.attributes()
        .with_checks(false)
        .flatten()
        .find(|a| a.key.local_name().as_ref() == b"Ccy")
        .and_then(|a| a.unescape_value().ok())
        .map(|v| v.trim().to_ascii_uppercase())
}

/// Where the reader is: the open elements' local names.
struct Path(Vec<String>);

impl Path {
    /// The names below the innermost `name`, if inside one.
    fn below(&self, name: &str) -> Option<Vec<&str>> {
        let i = self.0.iter().rposition(|n| n == name)?;
        Some(self.0[i + 1..].iter().map(String::as_str).collect())
    }
}

pub fn parse(text: &str, encoding: &str, options: &Options) -> Result<Statement, FileError> {
    let mut reader = Reader::from_str(text);
    reader.config_mut().trim_text(true);
    let cap = options.row_cap();
    let mut statement = Statement::new(Detected {
        invert: options.invert.unwrap_or(false),
        ..Detected::new(Format::Camt, encoding)
    });
    let mut path = Path(Vec::new());
    let mut seen_statement = false;
    let mut entry: Option<Entry> = None;
    // The statement being read: its balances and reversal rows.
    let mut reconcile = Reconcile::default();
    let mut entry_ccy: Option<String> = None;
    // The account of the statement (`Stmt`, `Rpt`, `Ntfctn`) being read.
    let mut account: Option<String> = None;
    let mut open_at: Vec<usize> = Vec::new();
    loop {
        let event = reader.read_event().map_err(|e| {
            let at = reader.error_position() as usize;
            let name = path
                .0
                .last()
                .map_or("document".into(), |n| format!("<{n}>"));
            FileError::malformed(
                format!("{name} near line {}", line_at(text, at)),
                e.to_string(),
            )
        })?;
        if let Event::Start(e) | Event::Empty(e) = &event {
            check_tag(e, || {
                let at = line_at(text, reader.buffer_position() as usize);
                format!("<{}> at line {at}", local(e))
            })?;
        }
        match event {
            Event::Start(e) => {
                let name = local(&e);
                if path.0.len() >= MAX_DEPTH {
                    let at = line_at(text, reader.buffer_position() as usize);
                    let message = format!("elements nest deeper than {MAX_DEPTH}");
                    return Err(FileError::malformed(
                        format!("<{name}> at line {at}"),
                        message,
                    ));
                }
                if matches!(
                    name.as_str(),
                    "BkToCstmrStmt" | "BkToCstmrAcctRpt" | "BkToCstmrDbtCdtNtfctn"
                ) {
                    seen_statement = true;
                }
                match name.as_str() {
                    "Stmt" | "Rpt" | "Ntfctn" => reconcile = Reconcile::new(statement.rows.len()),
                    "Bal" => reconcile.open_balance(),
                    "Ntry" => entry = Some(Entry::default()),
                    "TxDtls" => {
                        if let Some(en) = entry.as_mut() {
                            en.open_detail();
                        }
                    }
                    "Amt" if path.0.last().is_some_and(|p| p == "Ntry") => entry_ccy = ccy(&e),
                    // A balance and an entry's amount are in the account's currency: one
                    // other than the statement's is another account's (an `Acct` without
                    // `Ccy` leaves these to tell).
                    "Amt" if path.0.last().is_some_and(|p| p == "Bal") => {
                        let currency = ccy(&e);
                        mixed(statement.detected.currency.clone(), &currency)?;
                        statement.detected.currency =
                            statement.detected.currency.take().or(currency);
                    }
                    _ => {}
                }
                open_at.push(reader.buffer_position() as usize);
                path.0.push(name);
            }
            Event::End(_) => {
                open_at.pop();
                let Some(name) = path.0.pop() else { continue };
                match name.as_str() {
                    "Bal" => reconcile.close_balance(),
                    "Stmt" | "Rpt" | "Ntfctn" => {
                        let done = std::mem::take(&mut reconcile);
                        done.finish(&mut statement.rows);
                    }
                    _ => {}
                }
                if name == "Ntry" {
                    if let Some(en) = entry.take() {
                        let currency = entry_ccy.take();
                        mixed(statement.detected.currency.clone(), &currency)?;
                        if statement.detected.currency.is_none() {
                            statement.detected.currency = currency;
                        }
                        let invert = statement.detected.invert;
                        let (from, reversal) = (statement.rows.len(), en.is_reversal());
                        en.into_rows(&mut statement, account.as_deref(), invert)?;
                        if reversal {
                            reconcile.reversal(from, statement.rows.len());
                        }
                        if statement.total_rows > cap {
                            return Err(FileError::TooManyRows { max: cap });
                        }
                    }
                }
            }
            Event::Text(_) | Event::CData(_) => {
                // An element's text (entities decoded), or a CDATA section's as it is.
                let value = match &event {
                    Event::Text(t) => t
                        .unescape()
                        .map(|v| v.into_owned())
                        .unwrap_or_else(|_| String::from_utf8_lossy(t).into_owned()),
                    Event::CData(c) => String::from_utf8_lossy(c).into_owned(),
                    _ => continue,
                };
                let (entry, detected) = (&mut entry, &mut statement.detected);
                let before = detected.currency.clone();
                text_of(&path, capped(value.trim()), entry, &mut account, detected);
                if let Some(below) = ["Stmt", "Rpt", "Ntfctn"].iter().find_map(|c| path.below(c)) {
                    reconcile.text(&below, capped(value.trim()));
                }
                mixed(before, &detected.currency)?;
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if let (Some(name), Some(at)) = (path.0.last(), open_at.last()) {
        return Err(FileError::malformed(
            format!("<{name}> at line {}", line_at(text, *at)),
            format!("the file ends before </{name}> (truncated?)"),
        ));
    }
    if !seen_statement {
        return Err(FileError::malformed(
            "<Document>",
            "no BkToCstmrStmt, BkToCstmrAcctRpt or BkToCstmrDbtCdtNtfctn: not CAMT.052/053/054",
        ));
    }
    Ok(statement)
}

/// Stores an element's text where it belongs: an entry's, or its statement's account
/// (`account`: the one of the statement being read; a file may hold several) and currency.
fn text_of(
    path: &Path,
    value: &str,
    entry: &mut Option<Entry>,
    account: &mut Option<String>,
    detected: &mut Detected,
) {
    if value.is_empty() {
        return;
    }
    if let Some(en) = entry.as_mut() {
        if let Some(below) = path.below("TxDtls") {
            en.detail_text(&below, value);
        } else if let Some(below) = path.below("Ntry") {
            en.text(&below, value);
        }
        return;
    }
    for container in ["Stmt", "Rpt", "Ntfctn"] {
        match path.below(container).as_deref() {
            Some(["Acct", "Id", "IBAN"] | ["Acct", "Id", "Othr", "Id"]) => {
                let id: String = value.split_whitespace().collect();
                detected.account.get_or_insert_with(|| id.clone());
                *account = Some(id);
            }
            Some(["Acct", "Ccy"]) => {
                detected.currency = Some(value.to_ascii_uppercase());
            }
            _ => {}
        }
    }
}
