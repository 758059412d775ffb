//! Shift_JIS, EUC-KR and GB18030 without a BOM or a declaration, as Japanese, Korean and
//! Chinese banks and wallets export their CSVs: sniffed when the bytes are not UTF-8.
//!
//! Windows-1252 decodes any bytes, and GB18030 nearly any, so validity alone decides
//! nothing. A candidate must decode the bytes without error; of those, the one whose
//! decoding has the most header cells that name a field wins ("日付", "거래일시",
//! "交易时间"), then the one with the most characters of its script (kana and kanji,
//! Hangul, ideographs). A Latin file is left to Windows-1252: one whose bytes above 127
//! stand mostly alone between ASCII (`Müller`), while CJK text writes them in runs, and
//! whose header reads no worse in Windows-1252.

use encoding_rs::{Encoding, EUC_KR, GB18030, SHIFT_JIS, WINDOWS_1252};

use crate::csv::header::field_of;

/// Lines and bytes of the head whose cells are matched against the header aliases.
const HEAD_LINES: usize = 20;
const HEAD_BYTES: usize = 8_192;

/// The CJK encoding of `bytes` (not UTF-8), or `None` for Windows-1252.
pub fn sniff(bytes: &[u8]) -> Option<&'static Encoding> {
    let latin_hits = header_hits(&latin_head(bytes));
    let latin = mostly_lone(bytes);
    // In order of preference when all else ties: Korean text is valid GB18030 too (both
    // code the same byte ranges), Chinese text is not all Hangul in EUC-KR.
    let mut best: Option<(usize, usize, &'static Encoding)> = None;
    for encoding in [SHIFT_JIS, EUC_KR, GB18030] {
        let Some(text) = whole(encoding, bytes) else {
            continue;
        };
        let hits = header_hits(head_of(&text));
        let script = script_chars(encoding, &text);
        if script == 0 || hits < latin_hits || (latin && hits == latin_hits) {
            continue;
        }
        if best.is_none_or(|(h, s, _)| (hits, script) > (h, s)) {
            best = Some((hits, script, encoding));
        }
    }
    best.map(|(_, _, e)| e)
}

/// The whole file decoded, `None` when a byte sequence is invalid in `encoding`.
fn whole(encoding: &'static Encoding, bytes: &[u8]) -> Option<String> {
    encoding
        .decode_without_bom_handling_and_without_replacement(bytes)
        .map(|t| t.into_owned())
}

/// The head of a file decoded as Windows-1252 (its bytes cut where a line ends).
fn latin_head(bytes: &[u8]) -> String {
    let end = bytes.len().min(HEAD_BYTES);
    let end = bytes[..end]
        .iter()
        .rposition(|&b| b == b'\n')
        .filter(|_| end < bytes.len())
        .map_or(end, |i| i + 1);
    WINDOWS_1252
        .decode_without_bom_handling(&bytes[..end])
        .0
        .into_owned()
}

fn head_of(text: &str) -> &str {
    let mut end = text.len().min(HEAD_BYTES);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// The most cells of one of the first lines that name a field.
fn header_hits(text: &str) -> usize {
    text.lines()
        .take(HEAD_LINES)
        .map(|line| {
            line.split([',', ';', '\t', '|'])
                .filter(|cell| {
                    let cell = cell.trim().trim_matches('"');
                    !cell.is_ascii() && field_of(cell).is_some()
                })
                .count()
        })
        .max()
        .unwrap_or(0)
}

/// Characters of the script `encoding` is for: kana and kanji for Shift_JIS (kana count
/// twice: Chinese or Korean bytes decode to half-width katakana, not to kana), Hangul
/// for EUC-KR, ideographs for GB18030.
fn script_chars(encoding: &'static Encoding, text: &str) -> usize {
    let ideograph = |c: char| ('\u{4E00}'..='\u{9FFF}').contains(&c);
    text.chars()
        .map(|c| {
            if encoding == SHIFT_JIS {
                match c {
                    '\u{3041}'..='\u{30FF}' => 2,
                    c if ideograph(c) => 1,
                    _ => 0,
                }
            } else if encoding == EUC_KR {
                usize::from(('\u{AC00}'..='\u{D7A3}').contains(&c))
            } else {
                usize::from(ideograph(c))
            }
        })
        .sum()
}

/// Whether most bytes above 127 stand alone between ASCII bytes, as accented letters of
/// Latin text do in a single-byte encoding.
fn mostly_lone(bytes: &[u8]) -> bool {
    let (mut high, mut lone) = (0usize, 0usize);
    for (i, &b) in bytes.iter().enumerate() {
        if b < 0x80 {
            continue;
        }
        high += 1;
        let before = i == 0 || bytes[i - 1] < 0x80;
        let after = bytes.get(i + 1).is_none_or(|&n| n < 0x80);
        lone += usize::from(before && after);
    }
    lone * 2 > high
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encoded(encoding: &'static Encoding, text: &str) -> Vec<u8> {
        encoding.encode(text).0.into_owned()
    }

    #[test]
    fn each_encoding_by_its_header_and_script() {
        let jp =
            "日付,摘要,お支払金額,お預り金額,差引残高\n2024/01/05,カ－ド,\"1,200\",,\"98,800\"\n";
        let kr = "거래일시,적요,출금액,입금액,잔액\n2024.01.05 12:30:00,스타벅스,4500,0,95500\n";
        let cn = "交易时间,交易对方,商品说明,收/支,金额(元)\n2024-01-05 12:30:00,美团外卖,午餐,支出,¥35.50\n";
        assert_eq!(sniff(&encoded(SHIFT_JIS, jp)), Some(SHIFT_JIS));
        assert_eq!(sniff(&encoded(EUC_KR, kr)), Some(EUC_KR));
        assert_eq!(sniff(&encoded(GB18030, cn)), Some(GB18030));
        // Without a header that names a field: by the script alone.
        assert_eq!(
            sniff(&encoded(SHIFT_JIS, "ひらがなとカタカナ\n")),
            Some(SHIFT_JIS)
        );
        assert_eq!(sniff(&encoded(EUC_KR, "한국어 텍스트\n")), Some(EUC_KR));
        assert_eq!(sniff(&encoded(GB18030, "中文文本内容\n")), Some(GB18030));
    }

    #[test]
    fn latin_text_stays_windows_1252() {
        for text in [
            "Buchungstag;Empfänger;Betrag\n01.02.2024;Müller;-5,00\n",
            "Date;Libellé;Débit\n01/02/2024;Opération créditée;5,00\n",
            "Data;Descrição;Valor\n01/02/2024;INFORMAÇÕES SALÁRIO;5,00\n",
        ] {
            assert_eq!(sniff(&encoded(WINDOWS_1252, text)), None, "{text}");
        }
    }
}
