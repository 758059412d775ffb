//! No input panics: random bytes and mutated fixtures through every parser, forced and
//! sniffed. Bounded to finish within seconds in a debug build.

mod common;

use std::sync::OnceLock;

use bankfile::{parse, FileError, Format, Options};
use proptest::prelude::*;

const FORMATS: [Option<Format>; 5] = [
    None,
    Some(Format::Csv),
    Some(Format::Ofx),
    Some(Format::Qif),
    Some(Format::Camt),
];

fn fixtures() -> &'static Vec<Vec<u8>> {
    static ALL: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    ALL.get_or_init(|| {
        common::fixture_names()
            .iter()
            .map(|n| common::fixture(n))
            .collect()
    })
}

fn options(format: usize) -> Options {
    Options {
        format: FORMATS[format % FORMATS.len()],
        max_rows: 500,
        ..Options::default()
    }
}

/// Parses and checks what holds of every answer.
fn exercise(bytes: &[u8], options: &Options) {
    match parse(bytes, options) {
        Ok(s) => {
            assert!(s.rows.len() + s.errors.len() >= s.total_rows.min(s.rows.len()));
            assert!(s.rows.len() <= 500);
            for r in &s.rows {
                assert!(r
                    .note
                    .as_ref()
                    .is_none_or(|n| n.len() <= 4 * bankfile::MAX_CELL_BYTES + 64));
            }
        }
        Err(FileError::TooManyRows { max }) => assert_eq!(max, 500),
        Err(_) => {}
    }
}

#[derive(Debug, Clone)]
enum Mutation {
    Set(usize, u8),
    Insert(usize, Vec<u8>),
    Remove(usize, usize),
    Duplicate(usize, usize),
    Truncate(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(p, b)| Mutation::Set(p, b)),
        (any::<usize>(), prop::collection::vec(any::<u8>(), 1..8))
            .prop_map(|(p, b)| Mutation::Insert(p, b)),
        (any::<usize>(), 1..64usize).prop_map(|(p, n)| Mutation::Remove(p, n)),
        (any::<usize>(), 1..128usize).prop_map(|(p, n)| Mutation::Duplicate(p, n)),
        any::<usize>().prop_map(Mutation::Truncate),
    ]
}

fn apply(bytes: &mut Vec<u8>, m: &Mutation) {
    let len = bytes.len().max(1);
    match m {
        Mutation::Set(p, b) => {
            if let Some(x) = bytes.get_mut(p % len) {
                *x = *b;
            }
        }
        Mutation::Insert(p, b) => {
            let at = (p % len).min(bytes.len());
            bytes.splice(at..at, b.iter().copied());
        }
        Mutation::Remove(p, n) => {
            let at = (p % len).min(bytes.len());
            let end = (at + n).min(bytes.len());
            bytes.drain(at..end);
        }
        Mutation::Duplicate(p, n) => {
            let at = (p % len).min(bytes.len());
            let end = (at + n).min(bytes.len());
            let copy = bytes[at..end].to_vec();
            bytes.splice(at..at, copy);
        }
        Mutation::Truncate(p) => bytes.truncate(p % len),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..512), format in 0..5usize) {
        exercise(&bytes, &options(format));
    }

    #[test]
    fn random_text_never_panics(text in "[a-zA-Z0-9<>/;,.'\"\\-+()^!:\r\n \t€é]{0,400}", format in 0..5usize) {
        exercise(text.as_bytes(), &options(format));
    }

    #[test]
    fn mutated_fixtures_never_panic(
        which in any::<usize>(),
        mutations in prop::collection::vec(mutation(), 1..6),
        format in 0..5usize,
    ) {
        let all = fixtures();
        let mut bytes = all[which % all.len()].clone();
        for m in &mutations {
            apply(&mut bytes, m);
        }
        exercise(&bytes, &options(format));
    }
}

#[test]
fn every_truncation_of_every_fixture() {
    for bytes in fixtures() {
        for end in (0..bytes.len()).step_by(13) {
            for format in [0, 2, 3, 4] {
                exercise(&bytes[..end], &options(format));
            }
        }
    }
}

#[test]
fn caps_hold_on_hostile_input() {
    let deep = "<OFX>".to_owned() + &"<A>".repeat(10_000);
    assert!(matches!(
        parse(deep.as_bytes(), &Options::default()),
        Err(FileError::Malformed { .. })
    ));
    let deep =
        "<?xml version=\"1.0\"?><Document><BkToCstmrStmt>".to_owned() + &"<A>".repeat(10_000);
    assert!(matches!(
        parse(deep.as_bytes(), &Options::default()),
        Err(FileError::Malformed { .. })
    ));
    let mut rows = String::from("date,amount,note\n");
    rows.push_str(&format!("2024-01-01,1,{}\n", "x".repeat(10_000)));
    let s = parse(rows.as_bytes(), &Options::default()).expect("csv");
    assert_eq!((s.rows.len(), s.errors[0].field.as_str()), (0, "note"));
    let many = "!Type:Bank\n".to_owned() + &"D01/02/2024\nT1\n^\n".repeat(600);
    let e = parse(many.as_bytes(), &options(0)).unwrap_err();
    assert_eq!(e, FileError::TooManyRows { max: 500 });
    let many = "<OFX>".to_owned()
        + &"<STMTTRN><DTPOSTED>20240101<TRNAMT>1</STMTTRN>".repeat(600)
        + "</OFX>";
    assert_eq!(
        parse(many.as_bytes(), &options(0)).unwrap_err(),
        FileError::TooManyRows { max: 500 }
    );
}
