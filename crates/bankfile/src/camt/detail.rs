//! A CAMT entry's transaction detail (`TxDtls`): its amount and direction, its
//! references, the parties and the remittance text; and which references are
//! placeholders that name nothing (for the entry's own references too).

/// A reference that names nothing: SWIFT's `NONREF` (German savings and cooperative banks
/// write it for every entry), `NOTPROVIDED`, `NONE`, or nothing. No id: a placeholder kept
/// as one would make every entry a duplicate of the first.
pub(super) fn is_placeholder(value: &str) -> bool {
    let v = value.trim();
    v.is_empty()
        || ["NONREF", "NOTPROVIDED", "NONE", "NOREF", "N/A"]
            .iter()
            .any(|p| v.eq_ignore_ascii_case(p))
}

/// Whether `below` names a reference element (whose placeholders are no value).
pub(super) fn is_reference(below: &[&str]) -> bool {
    matches!(
        below,
        ["AcctSvcrRef" | "NtryRef"]
            | ["Refs", "EndToEndId" | "TxId" | "AcctSvcrRef"]
            | ["Refs", "Prtry", "Ref"]
    )
}

/// A transaction detail (`TxDtls`) of an entry, as written.
#[derive(Default)]
pub(super) struct Detail {
    pub(super) amount: Option<String>,
    pub(super) direction: Option<String>,
    end_to_end: Option<String>,
    tx_id: Option<String>,
    bank_ref: Option<String>,
    /// A bank's proprietary reference (`Refs/Prtry/Ref`, the Sparkassen's `FI-UMSATZ-ID`):
    /// unique to the account as `AcctSvcrRef` is.
    proprietary_ref: Option<String>,
    creditor: Option<String>,
    debtor: Option<String>,
    creditor_account: Option<String>,
    debtor_account: Option<String>,
    ultimate_creditor: Option<String>,
    ultimate_debtor: Option<String>,
    remittance: Vec<String>,
    info: Option<String>,
}

impl Detail {
    /// Stores the text of the element at `below` (the path under `TxDtls`).
    pub(super) fn text(&mut self, below: &[&str], value: &str) {
        if is_reference(below) && is_placeholder(value) {
            return;
        }
        let slot = match below {
            ["Amt"] | ["AmtDtls", "TxAmt", "Amt"] => &mut self.amount,
            ["CdtDbtInd"] => &mut self.direction,
            ["Refs", "EndToEndId"] => &mut self.end_to_end,
            ["Refs", "TxId"] => &mut self.tx_id,
            ["Refs", "AcctSvcrRef"] => &mut self.bank_ref,
            ["Refs", "Prtry", "Ref"] => &mut self.proprietary_ref,
            ["RltdPties", "Cdtr", "Nm"] | ["RltdPties", "Cdtr", "Pty", "Nm"] => &mut self.creditor,
            ["RltdPties", "Dbtr", "Nm"] | ["RltdPties", "Dbtr", "Pty", "Nm"] => &mut self.debtor,
            ["RltdPties", "CdtrAcct", "Id", "IBAN"] => &mut self.creditor_account,
            ["RltdPties", "DbtrAcct", "Id", "IBAN"] => &mut self.debtor_account,
            ["RltdPties", "UltmtCdtr", "Nm"] | ["RltdPties", "UltmtCdtr", "Pty", "Nm"] => {
                &mut self.ultimate_creditor
            }
            ["RltdPties", "UltmtDbtr", "Nm"] | ["RltdPties", "UltmtDbtr", "Pty", "Nm"] => {
                &mut self.ultimate_debtor
            }
            ["RmtInf", "Ustrd"] => {
                if self.remittance.len() < 16 {
                    self.remittance.push(value.to_owned());
                }
                return;
            }
            ["AddtlTxInf"] => &mut self.info,
            _ => return,
        };
        slot.get_or_insert_with(|| value.to_owned());
    }

    /// The bank's reference of the detail, unique to the account: `AcctSvcrRef`, else a
    /// proprietary one (`Refs/Prtry/Ref`).
    pub(super) fn own_ref(&self) -> Option<String> {
        self.bank_ref
            .clone()
            .or_else(|| self.proprietary_ref.clone())
    }

    /// The detail's own key within its entry: `EndToEndId` (unless `NOTPROVIDED`),
    /// else `TxId`.
    pub(super) fn key(&self) -> Option<&str> {
        self.end_to_end
            .as_deref()
            .filter(|e| !e.eq_ignore_ascii_case("NOTPROVIDED"))
            .or(self.tx_id.as_deref())
    }

    /// The other party: the creditor of money out, the debtor of money in; but never the
    /// statement's own account (`account`): a return or reversal (`RvslInd`, booked the
    /// other way) names the parties of the payment it undoes.
    pub(super) fn payee(&self, out: bool, account: Option<&str>) -> Option<String> {
        let creditor = (
            &self.creditor_account,
            &self.creditor,
            &self.ultimate_creditor,
        );
        let debtor = (&self.debtor_account, &self.debtor, &self.ultimate_debtor);
        let own = |iban: &Option<String>| {
            let bare = |t: &str| {
                t.split_whitespace()
                    .collect::<String>()
                    .to_ascii_uppercase()
            };
            iban.as_deref()
                .zip(account)
                .is_some_and(|(i, a)| bare(i) == bare(a))
        };
        let (mut side, other) = if out {
            (creditor, debtor)
        } else {
            (debtor, creditor)
        };
        if own(side.0) && !own(other.0) {
            side = other;
        }
        side.1.as_ref().or(side.2.as_ref()).cloned()
    }

    pub(super) fn note(&self) -> Option<String> {
        if self.remittance.is_empty() {
            return self.info.clone();
        }
        Some(self.remittance.join(" "))
    }
}
