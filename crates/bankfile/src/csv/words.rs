//! The words of type and status cells, in the languages of the header aliases.

use crate::text::fold;

/// The sign a type cell gives: `Some(true)` for money out. Words that are neither
/// (`ATM`, `CHECK`, `Credit Transfer`) give none.
pub fn type_sign(cell: &str) -> Option<bool> {
    const OUT: [&str; 29] = [
        "debit",
        "debito",
        "dbit",
        "d",
        "db",
        "dr",
        "s",
        "soll",
        "lastschrift",
        "belastung",
        "withdrawal",
        "expense",
        "outflow",
        "out",
        "af",
        "debe",
        "cargo",
        "addebito",
        "uscita",
        "saida",
        "payment",
        "sortie",
        "支出",
        "支",
        "借",
        "出金",
        "支払",
        "支払い",
        "출금",
    ];
    const IN: [&str; 25] = [
        "credit",
        "credito",
        "crdt",
        "c",
        "cr",
        "h",
        "haben",
        "gutschrift",
        "deposit",
        "income",
        "inflow",
        "in",
        "bij",
        "haber",
        "abono",
        "accredito",
        "entrata",
        "entrada",
        "refund",
        "entree",
        "收入",
        "收",
        "贷",
        "入金",
        "입금",
    ];
    let word = fold(cell);
    if OUT.contains(&word.as_str()) {
        Some(true)
    } else if IN.contains(&word.as_str()) {
        Some(false)
    } else {
        None
    }
}

/// Whether a status cell says the bank has not booked the row: pending (`Vorgemerkt`,
/// Sparkasse's `Umsatz vorgemerkt`, PayPal's `Ausstehend`, Comdirect's `offen`), declined,
/// reverted (Revolut), failed, cancelled. Other words (`Completed`, `Posted`, `Gebucht`)
/// and an empty cell are booked.
pub fn not_booked(cell: &str) -> bool {
    const WORDS: [&str; 26] = [
        "pending",
        "declined",
        "reverted",
        "failed",
        "cancelled",
        "canceled",
        "rejected",
        "denied",
        "vorgemerkt",
        "abgelehnt",
        "en attente",
        "refuse",
        "pendiente",
        "rechazado",
        "in sospeso",
        "in behandeling",
        "pendente",
        "umsatz vorgemerkt",
        "ausstehend",
        "offen",
        "venter",
        "non contabilizzato",
        "in attesa",
        "交易关闭",
        "支付失败",
        "处理中",
    ];
    WORDS.contains(&fold(cell).as_str())
}

/// Whether a column without a header is a type column: each filled cell a debit or credit
/// word, as Volksbank's and Raiffeisenbank's `S`/`H` column beside `Umsatz`.
pub fn is_type_column<'a>(cells: impl Iterator<Item = &'a String>) -> bool {
    let mut filled = cells.filter(|c| !c.trim().is_empty()).peekable();
    filled.peek().is_some() && filled.all(|c| type_sign(c).is_some())
}

/// Whether a record is a balance line among the rows (Volksbank's `Anfangssaldo` and
/// `Endsaldo`, each with a date and an amount): a cell that says so, whole.
pub fn is_balance_line(cells: &[String]) -> bool {
    const WORDS: [&str; 12] = [
        "anfangssaldo",
        "endsaldo",
        "opening balance",
        "closing balance",
        "saldo anterior",
        "saldo inicial",
        "saldo final",
        "solde initial",
        "solde final",
        "saldo iniziale",
        "saldo finale",
        "beginsaldo",
    ];
    cells.iter().any(|c| WORDS.contains(&fold(c).as_str()))
}
