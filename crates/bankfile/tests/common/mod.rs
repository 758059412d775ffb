//! Shared helpers of the fixture tests.
#![allow(dead_code)]

pub mod expected;
pub mod samples;

use std::path::PathBuf;

use bankfile::{parse, FileError, Options, Statement};
use rust_decimal::Decimal;

pub fn fixture(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

pub fn fixture_names() -> Vec<String> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("fixtures")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

pub fn read(name: &str) -> Statement {
    read_with(name, &Options::default())
}

pub fn read_with(name: &str, options: &Options) -> Statement {
    parse(&fixture(name), options).unwrap_or_else(|e| panic!("{name}: {e:?}"))
}

/// Reads a file given as text, which must have no row errors.
pub fn read_text(text: &str) -> Statement {
    let s = parse(text.as_bytes(), &Options::default()).unwrap_or_else(|e| panic!("{e:?}"));
    assert!(s.errors.is_empty(), "{:?}", s.errors);
    s
}

pub fn refuse(name: &str) -> FileError {
    match parse(&fixture(name), &Options::default()) {
        Ok(s) => panic!("{name} was read: {s:?}"),
        Err(e) => e,
    }
}

/// The note of row `row`.
pub fn note(s: &Statement, row: usize) -> Option<&str> {
    s.rows[row].note.as_deref()
}

/// Checks the rows' count, signed sum, payees and dates (ISO), in file order.
pub fn check(s: &Statement, count: usize, sum: &str, payees: &[&str], dates: &[&str]) {
    assert!(s.errors.is_empty(), "errors: {:?}", s.errors);
    assert_eq!(s.rows.len(), count, "{:?}", s.rows);
    assert_eq!(s.total_rows, count);
    let total: Decimal = s.rows.iter().map(|r| r.amount).sum();
    assert_eq!(
        total,
        sum.parse::<Decimal>().expect("sum"),
        "sum of {:?}",
        s.rows
    );
    if !payees.is_empty() {
        let got: Vec<&str> = s
            .rows
            .iter()
            .map(|r| r.payee.as_deref().unwrap_or(""))
            .collect();
        assert_eq!(got, payees);
    }
    let got: Vec<String> = s.rows.iter().map(|r| r.date.to_string()).collect();
    assert_eq!(got, dates);
}

/// Reads a fixture and checks it against its row of `tests/expected.csv` (with
/// [`check`], and the format, encoding and currency detected).
pub fn read_expected(name: &str) -> Statement {
    let s = read(name);
    let e = expected::of(name);
    check(&s, e.count(), e.sum(), &e.payees(), &e.dates());
    let d = &s.detected;
    assert_eq!(
        (
            d.format.as_str(),
            d.encoding.as_str(),
            d.currency.as_deref()
        ),
        (e.format(), e.encoding(), e.currency()),
        "{name}"
    );
    s
}
