//! What the lines above a CSV header say: the statement's account (an IBAN anywhere, or
//! the value after an account label) and its currency (`Währung: EUR`).

use crate::text::fold;

const ACCOUNT_LABELS: [&str; 16] = [
    "konto",
    "kontonummer",
    "iban",
    "account",
    "account number",
    "account no",
    "compte",
    "numero de compte",
    "cuenta",
    "numero de cuenta",
    "conto",
    "rekening",
    "rekeningnummer",
    "conta",
    "auftragskonto",
    "kontonr",
];
const CURRENCY_LABELS: [&str; 7] = [
    "wahrung", "currency", "devise", "monnaie", "moneda", "valuta", "munt",
];

pub fn looks_like_iban(s: &str) -> bool {
    let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    let b = s.as_bytes();
    (15..=34).contains(&b.len())
        && b[..2].iter().all(u8::is_ascii_uppercase)
        && b[2..4].iter().all(u8::is_ascii_digit)
        && b[4..].iter().all(u8::is_ascii_alphanumeric)
}

/// The value after a label among `labels`: in the next cell, or after `:` in the cell.
fn labelled(preamble: &[Vec<String>], labels: &[&str]) -> Option<String> {
    for row in preamble {
        for (i, cell) in row.iter().enumerate() {
            let (label, inline) = match cell.split_once(':') {
                Some((l, v)) if !v.trim().is_empty() => (l, Some(v.trim())),
                _ => (cell.as_str(), None),
            };
            let label = fold(label);
            if !labels.iter().any(|l| fold(l) == label) {
                continue;
            }
            let value = inline.map(str::to_owned).or_else(|| {
                row[i + 1..]
                    .iter()
                    .map(|c| c.trim())
                    .find(|c| !c.is_empty())
                    .map(str::to_owned)
            });
            if value.is_some() {
                return value;
            }
        }
    }
    None
}

/// The account a preamble names: an IBAN anywhere, else the value of an account label.
pub fn account(preamble: &[Vec<String>]) -> Option<String> {
    let iban = preamble.iter().flatten().find_map(|cell| {
        cell.split([':', ';', ',', '/'])
            .map(str::trim)
            .find(|s| looks_like_iban(s))
            .map(|s| s.chars().filter(|c| !c.is_whitespace()).collect())
    });
    iban.or_else(|| {
        labelled(preamble, &ACCOUNT_LABELS).map(|v| v.split_whitespace().collect::<String>())
    })
    .filter(|a: &String| !a.is_empty() && a.len() <= 64)
}

/// The currency a preamble names (`Währung: EUR`).
pub fn currency(preamble: &[Vec<String>]) -> Option<String> {
    labelled(preamble, &CURRENCY_LABELS)
        .map(|c| c.trim().to_ascii_uppercase())
        .filter(|c| c.len() == 3 && c.bytes().all(|b| b.is_ascii_uppercase()))
}
