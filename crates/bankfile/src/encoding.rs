//! Decoding, once, up front: a label override, else a BOM (UTF-8, UTF-16 LE/BE), else
//! UTF-16 recognised by its zero bytes, else the charset an OFX header or an XML
//! declaration names (but a single-byte one gives way to UTF-8 when the bytes are valid
//! UTF-8 with multi-byte sequences: the bytes contradict it), else UTF-8 when the bytes
//! are valid UTF-8, else Shift_JIS, EUC-KR or GB18030 when one of them decodes the bytes
//! into its script (see [`cjk`]), else Windows-1252.

mod cjk;

use encoding_rs::{Encoding, UTF_16BE, UTF_16LE, UTF_8, WINDOWS_1252};

use crate::FileError;

/// What a file declares as its charset (an OFX header, an XML declaration), by its
/// WHATWG name; `None` when it declares none (or one that names no encoding).
pub fn declared_name(bytes: &[u8]) -> Option<&'static str> {
    declared(bytes).map(Encoding::name)
}

/// Decodes `bytes` to text; returns the text and the WHATWG name of the encoding used.
/// `label` is a WHATWG label that overrides detection (an unknown one is
/// [`FileError::BadOption`] named `encoding`). A BOM is removed; bytes invalid in the
/// encoding become U+FFFD.
pub fn decode(bytes: &[u8], label: Option<&str>) -> Result<(String, &'static str), FileError> {
    let encoding = match label.map(str::trim).filter(|l| !l.is_empty()) {
        Some(label) => Encoding::for_label(label.as_bytes()).ok_or_else(|| {
            FileError::bad("encoding", format!("{label:?} is no WHATWG encoding label"))
        })?,
        None => detect(bytes),
    };
    // UTF-16 or a replacement label would make no sense for text files given as
    // ASCII-compatible ones; encoding_rs maps "replacement" labels to an error decoder.
    if encoding == encoding_rs::REPLACEMENT {
        return Err(FileError::bad("encoding", "that label decodes nothing"));
    }
    let (text, _) = encoding.decode_with_bom_removal(bytes);
    // encoding_rs maps `utf-16` labels to UTF-16LE; keep output names WHATWG's.
    Ok((text.into_owned(), encoding.name()))
}

fn detect(bytes: &[u8]) -> &'static Encoding {
    if let Some((encoding, _)) = Encoding::for_bom(bytes) {
        return encoding;
    }
    if let Some(encoding) = utf16_by_zeros(bytes) {
        return encoding;
    }
    if let Some(encoding) = declared(bytes) {
        // A single-byte charset that the bytes contradict (Banco do Brasil's OFX says
        // `CHARSET:1252` over UTF-8): valid UTF-8 with multi-byte sequences is UTF-8.
        if encoding.is_single_byte() && !bytes.is_ascii() && std::str::from_utf8(bytes).is_ok() {
            return UTF_8;
        }
        return encoding;
    }
    let utf8 = std::str::from_utf8(bytes).is_ok();
    // An OFX header of `USASCII` without a charset: bytes above 127 are most likely
    // Windows-1252.
    if !utf8 && is_ofx_header(bytes) {
        return WINDOWS_1252;
    }
    if utf8 {
        UTF_8
    } else {
        cjk::sniff(bytes).unwrap_or(WINDOWS_1252)
    }
}

/// UTF-16 without BOM: text in Latin script has a zero in every other byte.
fn utf16_by_zeros(bytes: &[u8]) -> Option<&'static Encoding> {
    let head = &bytes[..bytes.len().min(4096) & !1];
    let pairs = head.len() / 2;
    if pairs < 2 {
        return None;
    }
    let (mut even, mut odd) = (0usize, 0usize);
    for pair in head.chunks_exact(2) {
        even += usize::from(pair[0] == 0);
        odd += usize::from(pair[1] == 0);
    }
    // Most characters of a bank file are ASCII: well over a third of the pairs.
    let many = |n: usize| n * 3 > pairs;
    let few = |n: usize| n * 20 < pairs;
    if many(odd) && few(even) {
        Some(UTF_16LE)
    } else if many(even) && few(odd) {
        Some(UTF_16BE)
    } else {
        None
    }
}

/// The charset an OFX 1.x header (`CHARSET:1252`, `ENCODING:UTF-8`) or an XML
/// declaration (`encoding="ISO-8859-1"`) names, read from the first 1 KB: what the file
/// declares, nothing guessed.
fn declared(bytes: &[u8]) -> Option<&'static Encoding> {
    let head = &bytes[..bytes.len().min(1024)];
    let head: String = head.iter().map(|&b| char::from(b)).collect();
    let upper = head.to_ascii_uppercase();
    let xml = upper.trim_start().starts_with("<?XML");
    if let Some(start) = upper.find("ENCODING=").filter(|_| xml) {
        let rest = &head[start + 9..];
        let quote = rest.chars().next().filter(|c| *c == '"' || *c == '\'')?;
        let value = rest[1..].split(quote).next()?;
        return Encoding::for_label(value.trim().as_bytes()).filter(|e| e.is_ascii_compatible());
    }
    if upper.trim_start().starts_with("OFXHEADER") {
        let value = |key: &str| -> Option<String> {
            let line = upper.lines().find(|l| l.trim_start().starts_with(key))?;
            Some(line.split_once(':')?.1.trim().to_owned())
        };
        if let Some(charset) = value("CHARSET") {
            let label = match charset.as_str() {
                "1252" => "windows-1252".to_owned(),
                "8859-1" | "ISO-8859-1" => "iso-8859-1".to_owned(),
                "NONE" | "" => String::new(),
                other if other.bytes().all(|b| b.is_ascii_digit()) => format!("windows-{other}"),
                other => other.to_owned(),
            };
            // The header was just read one byte a character: a UTF-16 charset
            // (`CSUNICODE`, `UNICODE`) cannot be the file's.
            if let Some(e) =
                Encoding::for_label(label.as_bytes()).filter(|e| e.is_ascii_compatible())
            {
                return Some(e);
            }
        }
        // OFX 1.6: `ENCODING:UNICODE` is UTF-8.
        if value("ENCODING")
            .is_some_and(|e| e.contains("UTF-8") || e.contains("UTF8") || e == "UNICODE")
        {
            return Some(UTF_8);
        }
    }
    None
}

/// An OFX 1.x header (`OFXHEADER:100`) at the start.
fn is_ofx_header(bytes: &[u8]) -> bool {
    let start = bytes.trim_ascii_start();
    start.len() >= 9 && start[..9].eq_ignore_ascii_case(b"OFXHEADER")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boms_zero_bytes_headers_and_fallbacks() {
        let utf16: Vec<u8> = "date;amount\n"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        assert_eq!(
            decode(&utf16, None).unwrap(),
            ("date;amount\n".into(), "UTF-16LE")
        );
        let be: Vec<u8> = "Datum;Betrag"
            .encode_utf16()
            .flat_map(u16::to_be_bytes)
            .collect();
        assert_eq!(decode(&be, None).unwrap().1, "UTF-16BE");
        assert_eq!(
            decode(b"\xEF\xBB\xBFa", None).unwrap(),
            ("a".into(), "UTF-8")
        );
        assert_eq!(
            decode(b"M\xfcller", None).unwrap(),
            ("Müller".into(), "windows-1252")
        );
        let ofx = b"OFXHEADER:100\nCHARSET:1252\n<OFX>\xe9";
        assert_eq!(decode(ofx, None).unwrap().1, "windows-1252");
        let unicode = "OFXHEADER:100\nENCODING:UNICODE\nCHARSET:CSUNICODE\n<OFX><NAME>Café";
        assert_eq!(
            decode(unicode.as_bytes(), None).unwrap(),
            (unicode.into(), "UTF-8")
        );
        let xml = b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a>\xe9</a>";
        assert!(decode(xml, None).unwrap().0.contains('é'));
        assert_eq!(decode(b"abc", Some("latin1")).unwrap().1, "windows-1252");
        assert!(matches!(
            decode(b"a", Some("nope")),
            Err(FileError::BadOption { .. })
        ));
    }
}
