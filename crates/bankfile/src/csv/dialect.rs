//! The layout of a CSV file: its delimiter, the header row below any preamble (account
//! number, period), the field of each column, and what the preamble says.

use std::collections::BTreeMap;

use super::header::{field_of, same_header};
use super::headerless::{self, column_name, column_number};
use super::words::is_type_column;
use crate::date::looks_like_date;
use crate::text::fold;
use crate::{Field, FileError, Options};

/// Records looked at for the header row.
const HEADER_SCAN: usize = 40;
/// Cells of a record looked at for the header row (a bank file has a few dozen columns).
const MAX_COLUMNS: usize = 1_000;
const DELIMITERS: [u8; 4] = [b',', b';', b'\t', b'|'];

pub fn reader(text: &str, delimiter: u8) -> csv::Reader<&[u8]> {
    csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes())
}

/// Where the data starts and what each column holds.
#[derive(Debug)]
pub struct Layout {
    pub delimiter: u8,
    /// Index of the first data record: after the header, or the first record of a file
    /// without one (after `skipRows`).
    pub data_index: usize,
    pub headers: Vec<String>,
    pub fields: Vec<Option<Field>>,
    /// The preamble's records.
    pub preamble: Vec<Vec<String>>,
}

fn is_header(fields: &[Option<Field>]) -> bool {
    let has = |fs: &[Field]| fields.iter().flatten().any(|f| fs.contains(f));
    has(&[Field::Date, Field::ValueDate]) && has(&[Field::Amount, Field::Debit, Field::Credit])
}

/// The field of each header cell: `col.<field>` overrides by name first, then aliases (a
/// field that an override names is taken from that column only). A `#N` override is
/// applied once the header is found (see [`headerless::apply_numbered`]).
fn classify(cells: &[String], overrides: &BTreeMap<Field, String>) -> Vec<Option<Field>> {
    let named = || overrides.iter().filter(|(_, n)| column_number(n).is_none());
    let mut fields: Vec<Option<Field>> = cells
        .iter()
        .map(|cell| {
            if let Some((f, _)) = named().find(|(_, name)| same_header(cell, name)) {
                return Some(*f);
            }
            field_of(cell).filter(|f| !named().any(|(n, _)| n == f))
        })
        .collect();
    // New Zealand's payment fields (`Particulars`, `Code`, `Reference`): ANZ's `Details`
    // beside them is the other party (elsewhere, Chase's `Details` is a type word).
    let has = has_header(cells);
    let payee = fields.contains(&Some(Field::Payee)) || named().any(|(f, _)| *f == Field::Payee);
    if has("particulars") && has("code") && !payee {
        if let Some(i) = cells.iter().position(|c| fold(c) == "details") {
            fields[i] = fields[i].or(Some(Field::Payee));
        }
    }
    fields
}

struct Candidate {
    delimiter: u8,
    header_index: Option<usize>,
    matched: usize,
    best_row: usize,
    rows: Vec<Vec<String>>,
}

fn scan(text: &str, delimiter: u8, options: &Options) -> Candidate {
    let mut rows = Vec::new();
    for record in reader(text, delimiter)
        .records()
        .take(HEADER_SCAN)
        .flatten()
    {
        rows.push(
            record
                .iter()
                .take(MAX_COLUMNS)
                .map(|c| c.chars().take(200).collect())
                .collect::<Vec<String>>(),
        );
    }
    let mut best = Candidate {
        delimiter,
        header_index: None,
        matched: 0,
        best_row: 0,
        rows: Vec::new(),
    };
    let only = options.skip_rows;
    for (i, cells) in rows.iter().enumerate() {
        if only.is_some_and(|n| n != i) {
            continue;
        }
        let fields = classify(cells, &options.columns);
        let matched = fields.iter().flatten().count();
        if is_header(&fields) {
            (best.header_index, best.matched, best.best_row) = (Some(i), matched, i);
            break;
        }
        if matched > best.matched {
            (best.matched, best.best_row) = (matched, i);
        }
    }
    best.rows = rows;
    best
}

/// Finds the delimiter and the header row (or, in a file without one, the columns by
/// their content: see [`headerless`]).
pub fn layout(text: &str, options: &Options) -> Result<Layout, FileError> {
    let delimiters: Vec<u8> = match options.delimiter {
        Some(d) => vec![d],
        None => DELIMITERS.to_vec(),
    };
    let width = |c: &Candidate| c.rows.get(c.best_row).map_or(0, Vec::len);
    let key = |c: &Candidate| (c.header_index.is_some(), c.matched, width(c));
    let candidates: Vec<Candidate> = delimiters
        .into_iter()
        .map(|d| scan(text, d, options))
        .collect();
    // The first of the best: a later delimiter wins only when it is better.
    let Some(best) = candidates.iter().rev().max_by_key(|c| key(c)) else {
        return Err(FileError::Empty);
    };
    if best
        .rows
        .iter()
        .all(|r| r.iter().all(|c| c.trim().is_empty()))
    {
        return Err(FileError::Empty);
    }
    if let Some(n) = options.skip_rows.filter(|n| *n >= best.rows.len()) {
        return Err(FileError::bad(
            "skipRows",
            format!("the file has no header after {n} lines"),
        ));
    }
    if best.header_index.is_none() {
        let numbered = !options.columns.is_empty()
            && options.columns.values().all(|n| column_number(n).is_some());
        if let Some(layout) = without_header(&candidates, options, numbered)? {
            return Ok(layout);
        }
    }
    let row = best.header_index.unwrap_or(best.best_row);
    let headers: Vec<String> = best.rows.get(row).cloned().unwrap_or_default();
    let mut fields = classify(&headers, &options.columns);
    headerless::apply_numbered(&mut fields, &options.columns);
    // `Buchungstext` is the kind of booking beside a purpose column (ING), else the
    // booking's text itself (Commerzbank, Comdirect).
    if !fields.contains(&Some(Field::Note)) && !options.columns.contains_key(&Field::Type) {
        for (f, h) in fields.iter_mut().zip(&headers) {
            if *f == Some(Field::Type) && fold(h) == "buchungstext" {
                *f = Some(Field::Note);
            }
        }
    }
    // A type column by its cells, whatever its header: one without (Volksbank's `S`/`H`
    // after `Umsatz`) or under a name not known (Knab's `CreditDebet` of `D`/`C`): the
    // first column no field was found for whose cells are only debit and credit words.
    if !fields.contains(&Some(Field::Type)) && !options.columns.contains_key(&Field::Type) {
        let data = best.rows.get(row + 1..).unwrap_or_default();
        if let Some(f) = fields
            .iter_mut()
            .enumerate()
            .find(|(i, f)| f.is_none() && is_type_column(data.iter().filter_map(|r| r.get(*i))))
            .map(|(_, f)| f)
        {
            *f = Some(Field::Type);
        }
    }
    for (field, name) in &options.columns {
        let numbered = column_number(name).is_some_and(|i| i < headers.len());
        if !numbered && !headers.iter().any(|h| same_header(h, name)) {
            return Err(FileError::bad(
                &format!("col.{field}"),
                format!(
                    "no column is named {name:?}; the headers are: {}",
                    crate::types::header_list(&headers)
                ),
            ));
        }
    }
    // No header by its names, but numbered overrides complete one: that record is it.
    let missing = missing(&fields);
    if !missing.is_empty() {
        return Err(FileError::MissingColumns { missing, headers });
    }
    Ok(Layout {
        delimiter: best.delimiter,
        data_index: row + 1,
        headers,
        fields,
        preamble: best.rows[..row].to_vec(),
    })
}

/// Whether a header is a card export's that prints charges as positive and payments as
/// negative: American Express (`Card Member`, `Appears On Your Statement As`; in German
/// `Karteninhaber` beside `Konto #`), Discover (`Trans. Date` and `Post Date`), Apple
/// Card (`Clearing Date` and `Purchased By`).
pub fn prints_charges_positive(headers: &[String]) -> bool {
    let has = has_header(headers);
    has("card member")
        || has("appears on your statement as")
        || has("erscheint auf ihrer abrechnung als")
        || (has("karteninhaber") && has("konto"))
        || (has("trans date") && has("post date"))
        || (has("clearing date") && has("purchased by"))
        || (has("利用店名 商品名") && has("利用金額"))
}

/// Whether a header is Chase's card export (`Transaction Date`, `Post Date`, `Category`,
/// `Type`, `Amount`, `Memo`), whose amounts carry their own sign (a purchase negative,
/// a payment positive) even in a month with only payments, where none is written.
pub fn signs_its_amounts(headers: &[String]) -> bool {
    let has = has_header(headers);
    ["transaction date", "post date", "category", "type", "memo"]
        .iter()
        .all(|h| has(h))
}

/// Whether one of `headers`, folded, is `name`.
fn has_header(headers: &[String]) -> impl Fn(&str) -> bool {
    let folded: Vec<String> = headers.iter().map(|h| fold(h)).collect();
    move |name| folded.iter().any(|h| h == name)
}

/// The date and amount fields that `fields` lacks.
fn missing(fields: &[Option<Field>]) -> Vec<Field> {
    let has = |fs: &[Field]| fields.iter().flatten().any(|f| fs.contains(f));
    let mut missing = Vec::new();
    if !has(&[Field::Date, Field::ValueDate]) {
        missing.push(Field::Date);
    }
    if !has(&[Field::Amount, Field::Debit, Field::Credit]) {
        missing.push(Field::Amount);
    }
    missing
}

/// The layout of a file without a header, from the delimiter whose records (after
/// `skipRows`) show the most columns by content, and the `#N` overrides (a header name
/// is refused: there is none); `None` when the first record there is no transaction
/// and no column is named by number.
fn without_header(
    candidates: &[Candidate],
    options: &Options,
    numbered: bool,
) -> Result<Option<Layout>, FileError> {
    let start = options.skip_rows.unwrap_or(0);
    fn rows(c: &Candidate, start: usize) -> &[Vec<String>] {
        c.rows.get(start..).unwrap_or_default()
    }
    let inferred = candidates
        .iter()
        .map(|c| (c, headerless::infer(rows(c, start))));
    let width = |c: &Candidate| rows(c, start).first().map_or(0, Vec::len);
    let best = inferred
        .rev()
        .max_by_key(|(c, fields)| (fields.is_some(), width(c)));
    let Some((best, fields)) = best else {
        return Ok(None);
    };
    let records = rows(best, start);
    let width = records.iter().map(Vec::len).max().unwrap_or(0);
    let (mut fields, mut data_index) = match fields {
        Some(fields) => (fields, start),
        None if numbered => (vec![None; width], start),
        None => return Ok(None),
    };
    headerless::refuse_names(&options.columns)?;
    for (field, name) in &options.columns {
        if column_number(name).is_some_and(|i| i >= width) {
            let message = format!("{name} is past the file's {width} columns");
            return Err(FileError::bad(&format!("col.{field}"), message));
        }
    }
    headerless::apply_numbered(&mut fields, &options.columns);
    let mut headers: Vec<String> = (0..fields.len()).map(column_name).collect();
    // Columns named by number under a first record that is no transaction: its header.
    let date_column = options
        .columns
        .get(&Field::Date)
        .and_then(|n| column_number(n));
    if let (Some(i), Some(first)) = (date_column, records.first()) {
        if !looks_like_date(first.get(i).map_or("", String::as_str)) {
            headers = first.clone();
            headers.resize(width, String::new());
            data_index = start + 1;
        }
    }
    let missing = missing(&fields);
    if !missing.is_empty() {
        return Err(FileError::MissingColumns { missing, headers });
    }
    Ok(Some(Layout {
        delimiter: best.delimiter,
        data_index,
        headers,
        fields,
        preamble: best.rows[..start.min(best.rows.len())].to_vec(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preamble_then_header() {
        let text =
            "Kontonummer:;DE12 5001 0517 0648 4898 90;\nZeitraum:;01.01.2024 - 31.01.2024;\n\n\
                    Buchungstag;Valuta;Betrag;Währung\n01.01.2024;01.01.2024;-1,00;EUR\n";
        let l = layout(text, &Options::default()).unwrap();
        assert_eq!((l.delimiter, l.data_index), (b';', 3));
        assert_eq!(
            crate::csv::preamble::account(&l.preamble).as_deref(),
            Some("DE12500105170648489890")
        );
        let e = layout("foo,bar\n1,2\n", &Options::default()).unwrap_err();
        assert!(matches!(e, FileError::MissingColumns { ref missing, .. } if missing.len() == 2));
    }
}
