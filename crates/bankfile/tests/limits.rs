//! Every reader is linear in its input whatever the markup: a start tag of more than 64
//! attributes or over 8 KiB is the file's error (a duplicate-attribute scan over them is
//! quadratic: 120,000 attributes took 15.7 s), found before its attributes are read.

mod common;

use bankfile::{parse, FileError, Options, MAX_ATTRIBUTES, MAX_TAG_BYTES};
use common::samples::camt_statements;

fn outcome(text: &str) -> Result<usize, String> {
    match parse(text.as_bytes(), &Options::default()) {
        Ok(s) => Ok(s.rows.len()),
        Err(FileError::Malformed { at, message }) => Err(format!("{at}: {message}")),
        Err(e) => panic!("not malformed: {e:?}"),
    }
}

/// 64 attributes (the currency one of them) read; 65 are refused, naming the tag.
#[test]
fn a_start_tag_of_more_than_64_attributes_is_the_files_error() {
    assert_eq!(MAX_ATTRIBUTES, 64);
    assert_eq!(outcome(&camt_amount_tag(&attributes(63))), Ok(1));
    let e = outcome(&camt_amount_tag(&attributes(64))).unwrap_err();
    assert!(e.contains("<Amt>") && e.contains("65 attributes"), "{e}");
    for xml in [false, true] {
        assert_eq!(outcome(&ofx_amount_tag(xml, &attributes(64))), Ok(1));
        let e = outcome(&ofx_amount_tag(xml, &attributes(65))).unwrap_err();
        assert!(e.contains("<TRNAMT>") && e.contains("65 attributes"), "{e}");
    }
    // An `=` inside a quoted value is no attribute.
    let quoted = format!(" a=\"{}\"", "x=".repeat(100));
    assert_eq!(outcome(&camt_amount_tag(&quoted)), Ok(1));
    assert_eq!(outcome(&ofx_amount_tag(true, &quoted)), Ok(1));
}

/// A start tag over 8 KiB is refused, even of one attribute (an empty element's too).
#[test]
fn a_start_tag_over_8_kib_is_the_files_error() {
    let long = |n: usize| format!(" a=\"{}\"", "x".repeat(n));
    // The tag is `Amt`, the attribute and ` Ccy="EUR"`.
    let fits = MAX_TAG_BYTES - "Amt".len() - " a=\"\"".len() - " Ccy=\"EUR\"".len();
    assert_eq!(outcome(&camt_amount_tag(&long(fits))), Ok(1));
    let e = outcome(&camt_amount_tag(&long(fits + 1))).unwrap_err();
    assert!(
        e.contains("<Amt>") && e.contains("longer than 8 KiB"),
        "{e}"
    );
    let empty = camt_amount_tag("").replace(
        "<Sts>",
        &format!("<AddtlNtryInf{}/><Sts>", long(MAX_TAG_BYTES)),
    );
    let e = outcome(&empty).unwrap_err();
    assert!(e.contains("<AddtlNtryInf>"), "{e}");
    for xml in [false, true] {
        let e = outcome(&ofx_amount_tag(xml, &long(MAX_TAG_BYTES))).unwrap_err();
        assert!(
            e.contains("<TRNAMT>") && e.contains("longer than 8 KiB"),
            "{e}"
        );
    }
}

/// The file: a CAMT.053 of about 1.3 MB whose `<Amt>` carries 120,000 attributes
/// (the currency last) is refused, not read for seconds.
#[test]
fn the_file_of_120000_attributes_is_refused() {
    let file = camt_amount_tag(&attributes(120_000));
    assert!(file.len() > 1_300_000, "{}", file.len());
    let e = outcome(&file).unwrap_err();
    assert!(e.contains("<Amt> at line 1"), "{e}");
}

/// `n` attributes ` a0="1" a1="1" ...` for a start tag.
fn attributes(n: usize) -> String {
    (0..n).map(|i| format!(" a{i}=\"1\"")).collect()
}

/// A CAMT.053 file of one booked entry whose `<Amt>` start tag carries `extra` (its
/// currency last).
fn camt_amount_tag(extra: &str) -> String {
    camt_statements(&[("DE89370400440532013000", "EUR", "2024-01-05")])
        .replace("<Amt Ccy=\"EUR\">", &format!("<Amt{extra} Ccy=\"EUR\">"))
}

/// An OFX bank statement (SGML 1.x or XML 2.x) of one debit whose `<TRNAMT>` start tag
/// carries `extra`.
fn ofx_amount_tag(xml: bool, extra: &str) -> String {
    let end = |n: &str| {
        if xml {
            format!("</{n}>")
        } else {
            String::new()
        }
    };
    let head = if xml {
        "<?xml version=\"1.0\"?>\n<?OFX OFXHEADER=\"200\" VERSION=\"220\"?>\n"
    } else {
        "OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n"
    };
    format!(
        "{head}<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>EUR{}<BANKACCTFROM><ACCTID>1{}\
         </BANKACCTFROM><BANKTRANLIST><STMTTRN><DTPOSTED>20240105{}<TRNAMT{extra}>-1.00{}\
         <FITID>F1{}</STMTTRN></BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n",
        end("CURDEF"),
        end("ACCTID"),
        end("DTPOSTED"),
        end("TRNAMT"),
        end("FITID"),
    )
}
