//! Amounts as banks write them: currency symbols and codes, thousands separators
//! (`,` `.` `'` space, no-break space), a decimal point or comma decided per file,
//! a leading or trailing sign, parentheses, and `CR`/`DR`/`DB` (German `S`/`H`) markers. Exact, never `f64`.

use std::str::FromStr;

use rust_decimal::Decimal;

/// A read amount and whether it carried a sign of its own (`-`, `+`, parentheses,
/// `CR`/`DR`): a type column signs only amounts that carry none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Amount {
    pub value: Decimal,
    pub signed: bool,
}

const SYMBOLS: [char; 18] = [
    '$', '€', '£', '¥', '₹', '₽', '₩', '₺', '₪', '₫', '₴', '₦', '₱', '฿', '¢', '₣', '￥', '￦',
];
const THOUSANDS: [char; 7] = ['.', ',', '\'', '’', ' ', '\u{A0}', '\u{202F}'];
const MAX_LEN: usize = 64;

/// The number part of a cell, its sign and the letters around it.
struct Parts<'a> {
    core: &'a str,
    negative: bool,
    signed: bool,
    letters: String,
}

fn is_edge(c: char) -> bool {
    c.is_whitespace() || c.is_alphabetic() || SYMBOLS.contains(&c)
}

fn split(raw: &str) -> Result<Parts<'_>, String> {
    let bad = || "must be an amount such as -1234.56".to_string();
    let mut s = raw.trim();
    if s.len() > MAX_LEN {
        return Err(format!("is longer than {MAX_LEN} characters"));
    }
    let (mut negative, mut signed) = (false, false);
    if let Some(inner) = s.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
        (s, negative, signed) = (inner, true, true);
    }
    let mut letters = String::new();
    let edges = |s: &mut &str, letters: &mut String| {
        let start = s.trim_start_matches(is_edge);
        letters.extend(
            s[..s.len() - start.len()]
                .chars()
                .filter(|c| c.is_alphabetic()),
        );
        let core = start.trim_end_matches(is_edge);
        letters.push(' ');
        letters.extend(start[core.len()..].chars().filter(|c| c.is_alphabetic()));
        *s = core;
    };
    edges(&mut s, &mut letters);
    for (sign, neg) in [('-', true), ('−', true), ('+', false)] {
        if let Some(rest) = s.strip_prefix(sign).or_else(|| s.strip_suffix(sign)) {
            if signed {
                return Err(bad());
            }
            (s, negative, signed) = (rest, neg, true);
            edges(&mut s, &mut letters);
            break;
        }
    }
    let words: Vec<String> = letters.split_whitespace().map(str::to_uppercase).collect();
    for w in &words {
        match w.as_str() {
            // Debit markers: `DR`, `DB` (Indonesian and Malaysian statements), and the
            // German `S`/`Soll` against `H`/`Haben` in the amount cell.
            "CR" | "DR" | "DB" | "S" | "H" | "SOLL" | "HABEN" if !signed => {
                (negative, signed) = (!matches!(w.as_str(), "CR" | "H" | "HABEN"), true)
            }
            w if w.chars().count() <= 3 || matches!(w, "EURO" | "EUROS" | "USD$") => {}
            _ => return Err(bad()),
        }
    }
    if s.is_empty() {
        return Err(bad());
    }
    Ok(Parts {
        core: s,
        negative,
        signed,
        letters: words.join(" "),
    })
}

/// A cell with full-width digits, signs and separators (`１，２００`, `－５００`, as
/// Japanese banks write them) in ASCII; other characters as they are.
pub fn half_width(raw: &str) -> std::borrow::Cow<'_, str> {
    if !raw
        .chars()
        .any(|c| ('\u{FF01}'..='\u{FF5E}').contains(&c) || c == '\u{3000}')
    {
        return std::borrow::Cow::Borrowed(raw);
    }
    let ascii = |c: char| match c {
        '０'..='９' | '，' | '．' | '－' | '＋' | '（' | '）' | '／' | '：' => {
            char::from_u32(u32::from(c) - 0xFEE0).unwrap_or(c)
        }
        '\u{3000}' => ' ',
        c => c,
    };
    std::borrow::Cow::Owned(raw.chars().map(ascii).collect())
}

/// Reads a cell with `decimal` (`.` or `,`) as decimal separator.
pub fn parse(raw: &str, decimal: char) -> Result<Amount, String> {
    let raw = half_width(raw);
    let parts = split(&raw)?;
    let bad = || format!("must be an amount with {decimal:?} as decimal separator");
    let (int, frac) = match parts.core.rsplit_once(decimal) {
        Some((i, f)) => (i, Some(f)),
        None => (parts.core, None),
    };
    if frac.is_some_and(|f| f.is_empty() || !f.bytes().all(|b| b.is_ascii_digit())) {
        return Err(bad());
    }
    // Integer digits with thousands separators: groups of 3 (2 in Indian grouping),
    // the last one of 3.
    let mut groups = int.split(|c: char| THOUSANDS.contains(&c) && c != decimal);
    let first = groups.next().unwrap_or("");
    let mut digits = String::with_capacity(int.len() + 4);
    if !first.bytes().all(|b| b.is_ascii_digit()) || (first.is_empty() && frac.is_none()) {
        return Err(bad());
    }
    digits.push_str(first);
    let mut last = None;
    for g in groups {
        if first.is_empty() || !(2..=3).contains(&g.len()) || !g.bytes().all(|b| b.is_ascii_digit())
        {
            return Err(bad());
        }
        digits.push_str(g);
        last = Some(g.len());
    }
    if last.is_some_and(|n| n != 3) {
        return Err(bad());
    }
    if digits.is_empty() {
        digits.push('0');
    }
    if let Some(f) = frac {
        digits.push('.');
        digits.push_str(f);
    }
    let value = Decimal::from_str(&digits).map_err(|_| "is out of range".to_string())?;
    Ok(Amount {
        value: if parts.negative { -value } else { value },
        signed: parts.signed,
    })
}

/// An ISO 4217 code or symbol the cell names (`€`, `£`, `EUR`), for currency detection.
pub fn currency_of(raw: &str) -> Option<String> {
    if raw.contains('€') {
        return Some("EUR".into());
    }
    if raw.contains('£') {
        return Some("GBP".into());
    }
    let parts = split(raw).ok()?;
    parts
        .letters
        .split(' ')
        .find(|w| w.len() == 3 && w.bytes().all(|b| b.is_ascii_uppercase()))
        .map(str::to_owned)
}

/// The active ISO 4217 codes of currencies (no metals, funds or test codes).
const ISO_4217: &str = "AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD \
    BND BOB BRL BSD BTN BWP BYN BZD CAD CDF CHF CLP CNY COP CRC CUC CUP CVE CZK DJF DKK DOP \
    DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR \
    IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD \
    MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN \
    PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SLL SOS SRD SSP \
    STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VED VES VND VUV \
    WST XAF XCD XCG XOF XPF YER ZAR ZMW ZWG ZWL";

/// Whether `code` is a currency's ISO 4217 code (upper case).
pub fn is_currency_code(code: &str) -> bool {
    code.len() == 3 && ISO_4217.split_whitespace().any(|c| c == code)
}

/// Currencies without minor units, and with three (ISO 4217): `1.500` in a yen statement
/// is fifteen hundred, in a dinar one one and a half.
const NO_DECIMALS: &str = "BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF";
const THREE_DECIMALS: &str = "BHD IQD JOD KWD LYD OMR TND";

/// The decimal separator of a column, from every cell: a cell with both `.` and `,`
/// has its decimal last; one used twice is a thousands separator; one followed by
/// other than three digits is the decimal. When no cell settles it, the `currency` the
/// rows are wanted in does where it has no decimals (the separator seen groups
/// thousands) or three (it is the decimal); else `default`.
pub fn detect_decimal(cells: &[&str], default: char, currency: Option<&str>) -> char {
    let (mut dot, mut comma) = (0usize, 0usize);
    // Cells whose one separator is followed by exactly three digits.
    let (mut dot_3, mut comma_3) = (0usize, 0usize);
    for cell in cells {
        let cell = half_width(cell);
        let Ok(parts) = split(&cell) else { continue };
        let core = parts.core;
        let last_dot = core.rfind('.');
        let last_comma = core.rfind(',');
        match (last_dot, last_comma) {
            (Some(d), Some(c)) if d > c => dot += 1,
            (Some(_), Some(_)) => comma += 1,
            (Some(d), None) => vote(core, '.', d, (&mut dot, &mut comma), &mut dot_3),
            (None, Some(c)) => vote(core, ',', c, (&mut comma, &mut dot), &mut comma_3),
            (None, None) => {}
        }
    }
    let listed = |list: &str| currency.is_some_and(|c| list.split(' ').any(|l| l == c));
    let seen = match dot_3.cmp(&comma_3) {
        std::cmp::Ordering::Greater => Some(('.', ',')),
        std::cmp::Ordering::Less => Some((',', '.')),
        std::cmp::Ordering::Equal => None,
    };
    match (dot.cmp(&comma), seen) {
        (std::cmp::Ordering::Greater, _) => '.',
        (std::cmp::Ordering::Less, _) => ',',
        (_, Some((_, other))) if listed(NO_DECIMALS) => other,
        (_, Some((sep, _))) if listed(THREE_DECIMALS) => sep,
        _ => default,
    }
}

fn vote(
    core: &str,
    sep: char,
    at: usize,
    (this, other): (&mut usize, &mut usize),
    three: &mut usize,
) {
    let after = core.len() - at - 1;
    if core.matches(sep).count() > 1 {
        *other += 1;
    } else if after != 3 {
        *this += 1;
    } else {
        *three += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(raw: &str, decimal: char) -> String {
        parse(raw, decimal)
            .map(|a| a.value.to_string())
            .unwrap_or_else(|e| e)
    }

    #[test]
    fn bank_notations() {
        for (raw, decimal, want) in [
            ("1.234,56", ',', "1234.56"),
            ("-1.234,56 EUR", ',', "-1234.56"),
            ("11'373.94", '.', "11373.94"),
            ("$1,036.47", '.', "1036.47"),
            ("-$1,036.47", '.', "-1036.47"),
            ("1 234,5\u{a0}€", ',', "1234.5"),
            ("CHF 1'000", '.', "1000"),
            (".50", '.', "0.50"),
            ("1,00,000.00", '.', "100000.00"),
        ] {
            assert_eq!(value(raw, decimal), want, "{raw:?} with {decimal:?}");
        }
        // Money out, however the bank writes the sign.
        for raw in [
            "-12.50",
            "(12.50)",
            "12.50-",
            "12.50 DR",
            "12.50 DB",
            "12.50DB",
            "12.50 S",
            "12.50 Soll",
        ] {
            assert_eq!(value(raw, '.'), "-12.50", "{raw:?}");
        }
        for raw in [
            "12.50 CR",
            "12.50 H",
            "12.50 Haben",
            "12.50 EUR",
            "kr 12.50",
        ] {
            assert_eq!(value(raw, '.'), "12.50", "{raw:?}");
        }
        assert_eq!(value("1.234,56 S", ','), "-1234.56");
        for bad in [
            "1e5", "=1+2", "1,5", "--1", "abc", "", "1.2.3", "1,2345", "12.", "EUR",
        ] {
            assert!(parse(bad, '.').is_err(), "{bad}");
        }
        assert!(parse("-1,234", '.').is_ok());
        assert!(!parse("12.5", '.').unwrap().signed);
        assert!(parse("+12.5", '.').unwrap().signed);
    }

    #[test]
    fn the_decimal_is_decided_by_the_column() {
        assert_eq!(detect_decimal(&["1.234", "12,50"], '.', None), ',');
        assert_eq!(detect_decimal(&["1.234", "-12.50"], ',', None), '.');
        assert_eq!(detect_decimal(&["1.234.567", "5"], '.', None), ',');
        assert_eq!(detect_decimal(&["1,234.56"], ',', None), '.');
        assert_eq!(detect_decimal(&["1.234"], ',', None), ',');
        // Only three digits after the one separator: the currency's decimals decide.
        let yen = ["1,500", "-12,000", "980"];
        assert_eq!(detect_decimal(&yen, ',', Some("JPY")), '.');
        assert_eq!(detect_decimal(&["1.500", "-3.200"], '.', Some("JPY")), ',');
        let dinar = ["12,500", "-3,250"];
        assert_eq!(detect_decimal(&dinar, '.', Some("KWD")), ',');
        assert_eq!(detect_decimal(&["12.500"], ',', Some("BHD")), '.');
        assert_eq!(detect_decimal(&["1.500"], ',', Some("EUR")), ',');
        assert_eq!(detect_decimal(&["1.500", "2,50"], '.', Some("JPY")), ',');
        assert_eq!(currency_of("-12,50 EUR").as_deref(), Some("EUR"));
        assert_eq!(currency_of("€5").as_deref(), Some("EUR"));
    }
}
