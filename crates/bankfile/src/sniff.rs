//! What a file is, from its content only: binaries refused by their magic bytes, then
//! the text format by its first markup.

use crate::{FileError, Format};

/// Refuses binaries by their magic bytes (before decoding).
pub fn refuse_binary(bytes: &[u8]) -> Result<(), FileError> {
    const MAGIC: [(&[u8], &str); 14] = [
        (b"%PDF", "PDF document"),
        (
            b"PK\x03\x04",
            "ZIP archive (XLSX, ODS and DOCX are ZIP; export CSV instead)",
        ),
        (b"PK\x05\x06", "ZIP archive"),
        (b"\x89PNG", "PNG image"),
        (b"\xFF\xD8\xFF", "JPEG image"),
        (b"GIF8", "GIF image"),
        (b"II*\x00", "TIFF image"),
        (b"MM\x00*", "TIFF image"),
        (
            b"\xD0\xCF\x11\xE0",
            "OLE document (old Excel XLS; export CSV instead)",
        ),
        (b"\x1F\x8B", "gzip archive"),
        (b"Rar!", "RAR archive"),
        (b"7z\xBC\xAF", "7-Zip archive"),
        (b"RIFF", "RIFF media (WebP, WAV, AVI)"),
        (b"\x7FELF", "executable"),
    ];
    for (magic, what) in MAGIC {
        if bytes.starts_with(magic) {
            return Err(FileError::unsupported(what));
        }
    }
    Ok(())
}

/// Refuses decoded text that is binary: NULs or many control characters.
pub fn refuse_control(text: &str) -> Result<(), FileError> {
    let mut seen = 0usize;
    let mut control = 0usize;
    for c in text.chars().take(8192) {
        seen += 1;
        if c == '\0' {
            return Err(FileError::unsupported("binary data (NUL bytes)"));
        }
        // Tab, LF, VT, FF, CR and DOS end-of-file (0x1A, often closing QIF files) are text.
        if c.is_control() && !matches!(c, '\t' | '\n' | '\u{0B}' | '\u{0C}' | '\r' | '\u{1A}')
            || c == '\u{FFFD}'
        {
            control += 1;
        }
    }
    if control * 10 > seen {
        return Err(FileError::unsupported("binary data"));
    }
    Ok(())
}

/// The format of decoded text, never from a file name or Content-Type.
pub fn format(text: &str) -> Result<Format, FileError> {
    let start = text.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{FEFF}');
    let head: String = start
        .chars()
        .take(4096)
        .collect::<String>()
        .to_ascii_uppercase();
    if head.starts_with("OFXHEADER") || head.contains("<OFX>") || head.contains("<?OFX") {
        return Ok(Format::Ofx);
    }
    if head.starts_with("!TYPE:") || head.starts_with("!ACCOUNT") || head.starts_with("!OPTION") {
        return Ok(Format::Qif);
    }
    if head.starts_with('<') {
        if head.contains("CAMT.05") || head.contains("BKTOCSTMR") {
            return Ok(Format::Camt);
        }
        if head.contains("<HTML") || head.starts_with("<!DOCTYPE HTML") {
            return Err(FileError::unsupported("HTML page"));
        }
        return Err(FileError::unsupported(
            "XML that is neither OFX nor ISO 20022 CAMT.052/053/054",
        ));
    }
    if head.starts_with(":20:") || head.starts_with("{1:") {
        return Err(FileError::unsupported(
            "SWIFT MT940 (export CAMT.053 or CSV instead)",
        ));
    }
    if head.starts_with("{\\RTF") {
        return Err(FileError::unsupported("RTF document"));
    }
    Ok(Format::Csv)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_and_binaries() {
        assert_eq!(format("OFXHEADER:100\n").unwrap(), Format::Ofx);
        assert_eq!(
            format("<?xml version=\"1.0\"?><?OFX OFXHEADER=\"200\"?>").unwrap(),
            Format::Ofx
        );
        assert_eq!(format("\n!Type:Bank\nD1/1/24").unwrap(), Format::Qif);
        assert_eq!(
            format("<?xml?><Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.02\">")
                .unwrap(),
            Format::Camt
        );
        assert_eq!(format("date,amount").unwrap(), Format::Csv);
        assert!(refuse_binary(b"%PDF-1.7").is_err());
        assert!(refuse_binary(b"PK\x03\x04").is_err());
        assert!(refuse_control("a\0b").is_err());
        assert!(refuse_control("a;b\r\n").is_ok());
    }
}
