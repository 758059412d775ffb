//! `make bench`'s section "Bank-file readers on adversarial input": each reader of
//! `bankfile` on inputs built to make a reader slow (a start tag of many attributes, many
//! elements, wide and long records), at 1 MB and at 4 MB (the import's limit). A reader
//! linear in its input takes four times as long on the larger one; a quadratic one
//! sixteen. Each input is read a few times and the fastest time kept, so the section
//! takes seconds. Prints Markdown on stdout.

use std::time::{Duration, Instant};

use bankfile::{parse, Options};

const MB: usize = 1024 * 1024;
/// The import endpoint's row cap (`functions/imports/src/parse`).
const MAX_ROWS: usize = 20_000;
/// Reads of each input: at least [`RUNS`], more while they have taken under [`SPAN`] (at
/// most [`MAX_RUNS`]); the fastest is kept, so that a busy machine's pauses drop out.
const RUNS: usize = 3;
const MAX_RUNS: usize = 50;
const SPAN: Duration = Duration::from_millis(400);

/// Repeats `unit` (numbered from 0) between `head` and `tail` until the file is `size`
/// bytes or just over.
fn repeat(head: &str, unit: impl Fn(usize) -> String, tail: &str, size: usize) -> Vec<u8> {
    let mut out = String::with_capacity(size + 4096);
    out.push_str(head);
    let mut i = 0;
    while out.len() + tail.len() < size {
        out.push_str(&unit(i));
        i += 1;
    }
    out.push_str(tail);
    out.into_bytes()
}

/// `n` attributes ` a0="1" a1="1" ...`.
fn attributes_n(n: usize) -> String {
    (0..n).map(|i| format!(" a{i}=\"1\"")).collect()
}

/// Attributes ` a0="1" a1="1" ...` filling about `bytes`.
fn attributes(bytes: usize) -> String {
    let mut s = String::with_capacity(bytes + 16);
    let mut i = 0;
    while s.len() < bytes {
        s.push_str(&format!(" a{i}=\"1\""));
        i += 1;
    }
    s
}

const CAMT_HEAD: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.02\"><BkToCstmrStmt><Stmt><Acct><Id><IBAN>DE89370400440532013000</IBAN></Id></Acct>\n";
const CAMT_TAIL: &str = "</Stmt></BkToCstmrStmt></Document>\n";

fn camt_entry(amt_attributes: &str, i: usize) -> String {
    format!(
        "<Ntry><Amt{amt_attributes} Ccy=\"EUR\">1.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2024-01-02</Dt></BookgDt><AcctSvcrRef>R{i}</AcctSvcrRef></Ntry>\n"
    )
}

/// The file: one entry whose `<Amt>` start tag carries the whole file's
/// attributes, its currency last.
fn camt_one_tag(size: usize) -> Vec<u8> {
    let tag = attributes(size - CAMT_HEAD.len() - CAMT_TAIL.len() - 200);
    format!("{CAMT_HEAD}{}{CAMT_TAIL}", camt_entry(&tag, 0)).into_bytes()
}

/// Entries whose `<Amt>` carries 63 attributes and its currency (64, the most a tag may
/// carry): 700 bytes an entry, so 4 MB stays under the row cap.
fn camt_entries(size: usize) -> Vec<u8> {
    let attrs = attributes_n(63);
    repeat(CAMT_HEAD, |i| camt_entry(&attrs, i), CAMT_TAIL, size)
}

const OFX_SGML_HEAD: &str = "OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nENCODING:USASCII\nCHARSET:1252\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>EUR<BANKACCTFROM><ACCTID>12345</BANKACCTFROM><BANKTRANLIST>\n";
const OFX_SGML_TAIL: &str = "</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n";
const OFX_XML_HEAD: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<?OFX OFXHEADER=\"200\" VERSION=\"220\"?>\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>EUR</CURDEF><BANKACCTFROM><ACCTID>12345</ACCTID></BANKACCTFROM><BANKTRANLIST>\n";
const OFX_XML_TAIL: &str = OFX_SGML_TAIL;

fn ofx_parts(xml: bool) -> (&'static str, &'static str) {
    if xml {
        (OFX_XML_HEAD, OFX_XML_TAIL)
    } else {
        (OFX_SGML_HEAD, OFX_SGML_TAIL)
    }
}

/// A transaction whose `<TRNAMT>` carries `attrs` and that holds `unknown` empty
/// elements nested (SGML: never closed, each open until the transaction ends).
fn ofx_txn(xml: bool, attrs: &str, unknown: usize, i: usize) -> String {
    let end = |n: &str| {
        if xml {
            format!("</{n}>")
        } else {
            String::new()
        }
    };
    let mut s = format!(
        "<STMTTRN><TRNTYPE>DEBIT{}<DTPOSTED>20240102{}<TRNAMT{attrs}>-1.00{}<FITID>F{i}{}",
        end("TRNTYPE"),
        end("DTPOSTED"),
        end("TRNAMT"),
        end("FITID")
    );
    for k in 0..unknown {
        s.push_str(&if xml {
            format!("<X{k}/>")
        } else {
            format!("<X{k}>")
        });
    }
    s.push_str("</STMTTRN>\n");
    s
}

fn ofx_one_tag(xml: bool, size: usize) -> Vec<u8> {
    let (head, tail) = ofx_parts(xml);
    let tag = attributes(size - head.len() - tail.len() - 200);
    format!("{head}{}{tail}", ofx_txn(xml, &tag, 0, 0)).into_bytes()
}

/// Transactions of 40 unknown empty elements each (over 210 bytes, so 4 MB stays under
/// the row cap).
fn ofx_elements(xml: bool, size: usize) -> Vec<u8> {
    let (head, tail) = ofx_parts(xml);
    repeat(head, |i| ofx_txn(xml, "", 40, i), tail, size)
}

/// Records of many memo lines (only the first is kept), each over 210 bytes.
fn qif_lines(size: usize) -> Vec<u8> {
    let memo = "MMemo line\n".repeat(20);
    repeat(
        "!Type:Bank\n",
        |i| format!("D2024-01-02\nT-1.00\nPPayee {i}\n{memo}^\n"),
        "",
        size,
    )
}

/// Rows of 100 columns, each over 210 bytes.
fn csv_wide(size: usize) -> Vec<u8> {
    let head = format!("Date,Amount,Description{}\n", ",h".repeat(97));
    let filler = ",x".repeat(97);
    repeat(
        &head,
        |i| format!("2024-01-02,-1.00,Row {i}{filler}\n"),
        "",
        size,
    )
}

/// A header of as many columns as the file has room for, and one row as wide.
fn csv_columns(size: usize) -> Vec<u8> {
    let columns = size / 2 / 2;
    let mut s = String::with_capacity(size + 64);
    s.push_str("Date;Amount;Description");
    s.push_str(&";h".repeat(columns - 3));
    s.push('\n');
    s.push_str("2024-01-02;-1,00;Row");
    s.push_str(&";x".repeat(columns - 3));
    s.push('\n');
    s.into_bytes()
}

/// One quoted cell of many lines after a row.
fn csv_cell(size: usize) -> Vec<u8> {
    let mut s = String::from("Date,Amount,Description\n2024-01-02,-1.00,\"");
    while s.len() < size - 2 {
        s.push_str("a cell that \"\"goes\"\" on,\n");
    }
    s.push_str("\"\n");
    s.into_bytes()
}

/// The fastest of the reads, and how the last one ended.
fn time(bytes: &[u8]) -> (Duration, String) {
    let options = Options {
        max_rows: MAX_ROWS,
        ..Options::default()
    };
    let mut best = Duration::MAX;
    let mut outcome = String::new();
    let began = Instant::now();
    for run in 0..MAX_RUNS {
        if run >= RUNS && began.elapsed() > SPAN {
            break;
        }
        let start = Instant::now();
        let result = parse(bytes, &options);
        best = best.min(start.elapsed());
        outcome = match result {
            Ok(s) => format!("{} rows, {} row errors", s.rows.len(), s.errors.len()),
            Err(e) => {
                let e = e.to_string();
                let short: String = e.chars().take(70).collect();
                format!(
                    "refused: {short}{}",
                    if e.len() > short.len() { "…" } else { "" }
                )
            }
        };
    }
    (best, outcome)
}

type Input = (&'static str, &'static str, fn(usize) -> Vec<u8>);

/// The input of `ofx_one_tag`, in either dialect.
const OFX_ONE_TAG: &str = "one `<TRNAMT>` start tag carrying the whole file's attributes";

fn main() {
    let inputs: [Input; 10] = [
        (
            "CAMT.053",
            "one `<Amt>` start tag carrying the whole file's attributes, `Ccy` last",
            camt_one_tag,
        ),
        (
            "CAMT.053",
            "entries whose `<Amt>` carries 64 attributes",
            camt_entries,
        ),
        ("OFX SGML", OFX_ONE_TAG, |n| ofx_one_tag(false, n)),
        (
            "OFX SGML",
            "transactions of 40 unclosed unknown elements",
            |n| ofx_elements(false, n),
        ),
        ("OFX XML", OFX_ONE_TAG, |n| ofx_one_tag(true, n)),
        (
            "OFX XML",
            "transactions of 40 empty unknown elements",
            |n| ofx_elements(true, n),
        ),
        ("QIF", "records of 20 memo lines", qif_lines),
        ("CSV", "rows of 100 columns", csv_wide),
        (
            "CSV",
            "a header and one row of as many columns as fit",
            csv_columns,
        ),
        ("CSV", "one quoted cell of many lines", csv_cell),
    ];
    println!("## Bank-file readers on adversarial input");
    println!();
    println!(
        "`target/bench-local/readers` (`bench/readers`): each reader of `crates/bankfile` on an input built to slow it down, at 1 MB and at 4 MB (the import's limit), through `bankfile::parse` with the import's row cap; the fastest of {RUNS} to {MAX_RUNS} reads (more while they take under {} ms). A reader linear in its input takes about 4× as long on the 4 MB input (a quadratic one 16×). A start tag of more than 64 attributes or over 8 KiB is the file's error (HTTP 400), found before its attributes are read.",
        SPAN.as_millis()
    );
    println!();
    println!("| Reader | Input | 1 MB | 4 MB | Ratio | Outcome (4 MB) |");
    println!("|---|---|---:|---:|---:|---|");
    for (reader, what, build) in inputs {
        let (small, _) = time(&build(MB));
        let (large, outcome) = time(&build(4 * MB));
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        let ratio = ms(large) / ms(small).max(f64::MIN_POSITIVE);
        println!(
            "| {reader} | {what} | {:.2} ms | {:.2} ms | {ratio:.1} | {outcome} |",
            ms(small),
            ms(large)
        );
    }
    println!();
}
