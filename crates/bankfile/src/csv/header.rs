//! Header names: aliases in English, German, French, Spanish, Italian, Dutch and
//! Portuguese, matched case- and accent-insensitively (see [`crate::text::fold`]).
//! A header with a suffix such as `Amount (EUR)` or `Débit euros` matches by its leading
//! words when what follows is short (a currency or unit).

use super::aliases::ALIASES;
use crate::text::fold;
use crate::Field;

/// Payee headers that name who paid (preferred for money in); the others name who was
/// paid (preferred for money out).
const PAYERS: [&str; 5] = [
    "payer",
    "auftraggeber",
    "zahlungspflichtige r",
    "zahlungspflichtiger",
    "ordenante",
];

fn squash(s: &str) -> String {
    s.chars().filter(|c| *c != ' ').collect()
}

/// The aliases folded and without spaces, once.
fn table() -> &'static [(String, Field)] {
    static TABLE: std::sync::OnceLock<Vec<(String, Field)>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        ALIASES
            .iter()
            .flat_map(|(f, names)| names.iter().map(move |n| (squash(&fold(n)), *f)))
            .collect()
    })
}

fn lookup(key: &str) -> Option<Field> {
    table().iter().find(|(n, _)| n == key).map(|(_, f)| *f)
}

/// The field a header names, if any.
pub fn field_of(header: &str) -> Option<Field> {
    // RBC's `CAD$` and `USD$`: the amount in the account's currency, the other empty.
    let h = header.trim().as_bytes();
    if h.len() == 4 && h[..3].iter().all(u8::is_ascii_uppercase) && h[3] == b'$' {
        return Some(Field::Amount);
    }
    let folded = fold(header);
    let mut words: Vec<&str> = folded.split(' ').filter(|w| !w.is_empty()).collect();
    // A number written onto the last word (UBS's `Beschreibung1`) is a suffix.
    if let Some(&last) = words.last() {
        let letters = last.trim_end_matches(|c: char| c.is_ascii_digit());
        if !letters.is_empty() && letters.len() < last.len() {
            words.pop();
            words.extend([letters, &last[letters.len()..]]);
        }
    }
    if words.is_empty() || words.len() > 8 {
        return None;
    }
    for k in (1..=words.len()).rev() {
        let rest = &words[k..];
        // A currency or unit (`Amount (EUR)`), never an account's number (`Payee IBAN`).
        let short_suffix = rest.len() <= 2
            && rest
                .iter()
                .all(|w| w.len() <= 3 || matches!(*w, "euro" | "euros" | "dollars"))
            && !rest.iter().any(|w| matches!(*w, "bic" | "iban" | "swift"));
        if !short_suffix {
            continue;
        }
        if let Some(f) = lookup(&squash(&words[..k].concat())) {
            return Some(f);
        }
    }
    None
}

/// Whether a payee header names the payer rather than the one paid.
pub fn is_payer(header: &str) -> bool {
    let folded = fold(header);
    PAYERS.iter().any(|p| fold(p) == folded)
}

/// A currency a header names: `Amount (EUR)`, `Betrag (€)`, `Débit euros`, and the
/// unit in parentheses of Chinese, Japanese and Korean headers: `金额(元)`, `入出金(円)`,
/// `출금(원)`.
pub fn currency_hint(header: &str) -> Option<String> {
    if header.contains('€') || fold(header).split(' ').any(|w| w == "euro" || w == "euros") {
        return Some("EUR".into());
    }
    let unit = header
        .trim()
        .strip_suffix([')', '）'])
        .map(|h| h.trim_end());
    for (sign, code) in [
        ("元", "CNY"),
        ("人民币", "CNY"),
        ("円", "JPY"),
        ("원", "KRW"),
    ] {
        if unit.is_some_and(|u| {
            u.strip_suffix(sign)
                .is_some_and(|rest| rest.trim_end().ends_with(['(', '（']))
        }) {
            return Some(code.into());
        }
    }
    header
        .split(|c: char| !c.is_ascii_alphabetic())
        .skip(1)
        .find(|w| w.len() == 3 && w.bytes().all(|b| b.is_ascii_uppercase()))
        .map(str::to_owned)
}

/// Whether a header cell equals `name` as a `col.<field>` override names it: exactly,
/// else case- and accent-insensitively.
pub fn same_header(cell: &str, name: &str) -> bool {
    cell.trim() == name.trim() || {
        let a = fold(cell);
        !a.is_empty() && a == fold(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_in_many_languages() {
        let cases = [
            ("Buchungstag", Field::Date),
            ("Valuta", Field::ValueDate),
            ("Auftraggeber/Empfänger", Field::Payee),
            ("Beguenstigter/Zahlungspflichtiger", Field::Payee),
            ("Betrag (EUR)", Field::Amount),
            ("Amount (EUR)", Field::Amount),
            ("Débit euros", Field::Debit),
            ("Crédit euros", Field::Credit),
            ("Date de valeur", Field::ValueDate),
            ("Libellé", Field::Note),
            ("fecha", Field::Date),
            ("concepto", Field::Note),
            ("importe", Field::Amount),
            ("Withdrawal", Field::Debit),
            ("Deposit", Field::Credit),
            ("importId", Field::Id),
            ("import_id", Field::Id),
            ("Währung", Field::Currency),
            ("Debit/Credit", Field::Type),
            ("Bénéficiaire", Field::Payee),
            ("Begunstigde", Field::Payee),
            ("Naam / Omschrijving", Field::Payee),
            ("Af Bij", Field::Type),
            ("Posting Date", Field::Date),
            ("Zahlungsempfänger*in", Field::Payee),
            ("Gutschrift in CHF", Field::Credit),
            ("Lastschrift in CHF", Field::Debit),
            ("CAD$", Field::Amount),
            ("USD$", Field::Amount),
            ("Beschreibung1", Field::Note),
            ("Description 2", Field::Note),
            ("Transaktions-Nr.", Field::Id),
            ("Amount (total)", Field::Amount),
            ("Memo/Description", Field::Note),
            ("Détail de l'écriture", Field::Note),
            ("dateOp", Field::Date),
            ("dateVal", Field::ValueDate),
            ("Kirjauspäivä", Field::Date),
            ("Nimi", Field::Payee),
            ("Rubrik", Field::Note),
            ("Contabilizzazione", Field::Status),
        ];
        for (h, f) in cases {
            assert_eq!(field_of(h), Some(f), "{h}");
        }
        for h in [
            "Lastschrift Ursprungsbetrag",
            "Balance",
            "Saldo",
            "Credit Card Number",
            "Kontonummer",
            "IBAN",
            "Beneficiary BIC",
            "Counterparty IBAN",
            "CAD",
            "Cad$",
            "Card label",
            "2024",
            "",
        ] {
            assert_eq!(field_of(h), None, "{h}");
        }
        assert_eq!(currency_hint("Amount (EUR)").as_deref(), Some("EUR"));
        assert_eq!(currency_hint("Betrag (€)").as_deref(), Some("EUR"));
        assert_eq!(currency_hint("Amount"), None);
        assert!(is_payer("Zahlungspflichtige*r") && !is_payer("Zahlungsempfänger*in"));
    }
}
