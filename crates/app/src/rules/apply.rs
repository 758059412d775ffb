//! Running the rules over existing transactions (`POST /api/rules/apply`).

use std::collections::HashMap;
use std::time::Instant;

use rules::{Outcome, Subject};

use crate::ruleset::{kind_of, Ruleset};
use crate::transactions::{self, TransactionDraft};
use crate::{AppError, AppResult, IfMatch};
use pf_domain::{CategorySource, LabelKind, Transaction};
use pf_store::transactions::TxnFilter;
use pf_store::Store;

/// What a rule outcome changes in a transaction's fields; `None` when nothing changes, and
/// always for a transaction whose category the user chose (`categorySource: user`): a run
/// never touches what the user edited, neither its category nor its provider, tags or note.
pub fn changes(t: &Transaction, o: &Outcome) -> Option<TransactionDraft> {
    if t.category_source == CategorySource::User {
        return None;
    }
    let mut draft = changes_from(t);
    let mut changed = false;
    if let Some(c) = o.actions.category_id {
        if c != t.details.category_id {
            draft.category_id = Some(c);
            draft.category_source = CategorySource::Rule;
            changed = true;
        }
    }
    if o.actions.provider_id.is_some() && o.actions.provider_id != t.details.provider_id {
        draft.provider_id = o.actions.provider_id;
        changed = true;
    }
    if crate::transactions::add_tags(&mut draft.tag_ids, &o.actions.tag_ids) {
        changed = true;
    }
    if draft.note.is_none() && o.actions.note.is_some() {
        draft.note = o.actions.note.clone();
        changed = true;
    }
    changed.then_some(draft)
}

/// The names of the user's providers, for `payee` conditions (one Query).
async fn payees(store: &Store, user_id: u64) -> AppResult<HashMap<u64, String>> {
    let all = store.list_labels(user_id, LabelKind::Provider).await?;
    Ok(all.into_iter().map(|p| (p.id, p.name)).collect())
}

/// One change of a run of [`apply`], as a dry run shows it.
#[derive(Debug, Clone)]
pub struct Change {
    pub id: u64,
    pub from: TransactionDraft,
    pub to: TransactionDraft,
}

/// What [`apply`] did (or, dry, would do).
#[derive(Debug, Default)]
pub struct ApplyReport {
    pub examined: u64,
    pub matched: u64,
    pub changed: u64,
    /// Dry run: the first 50 changes.
    pub changes: Vec<Change>,
    /// Where to continue when the time ran out (a transaction-list position).
    pub next: Option<String>,
}

/// Runs the rules over the user's transactions dated `from`..=`to`, a page at a time from
/// `position`, until done or `deadline`: a transaction is written only when a rule
/// matches it and its actions change one of its fields, through the same path as an
/// update (balance, monthly totals and the feed stay exact), conditional on the version
/// read (a transaction edited meanwhile is left as its editor made it).
pub async fn apply(
    store: &Store,
    user_id: u64,
    filter: &TxnFilter,
    position: Option<String>,
    dry_run: bool,
    deadline: Instant,
) -> AppResult<ApplyReport> {
    let ruleset = Ruleset::load(store, user_id).await?;
    let names = payees(store, user_id).await?;
    let mut report = ApplyReport::default();
    let mut position = position;
    loop {
        let page = transactions::list(store, user_id, filter, 100, position.as_deref()).await?;
        for t in &page.items {
            report.examined += 1;
            let d = &t.details;
            let subject = Subject {
                payee: d
                    .provider_id
                    .and_then(|p| names.get(&p))
                    .map(String::as_str),
                note: d.note.as_deref(),
                amount: Some(d.amount.amount()),
                kind: Some(kind_of(d.category_type)),
            };
            let outcome = ruleset.evaluate(&subject);
            if outcome.matched.is_empty() {
                continue;
            }
            report.matched += 1;
            let Some(draft) = changes(t, &outcome) else {
                continue;
            };
            if dry_run {
                report.changed += 1;
                if report.changes.len() < 50 {
                    let from = changes_from(t);
                    report.changes.push(Change {
                        id: t.id,
                        from,
                        to: draft,
                    });
                }
                continue;
            }
            let expected = Some(IfMatch::Version(Some(t.version)));
            match transactions::update(store, user_id, t.id, draft, expected, None).await {
                Ok(_) => report.changed += 1,
                // Edited or deleted meanwhile: its editor's version stands. A change the
                // transaction refuses leaves it as it is, and the run goes on.
                Err(
                    AppError::PreconditionFailed(_) | AppError::NotFound(_) | AppError::Invalid(_),
                ) => {}
                Err(e) => return Err(e),
            }
        }
        position = page.next_cursor;
        if position.is_none() {
            return Ok(report);
        }
        if Instant::now() >= deadline {
            report.next = position;
            return Ok(report);
        }
    }
}

/// A transaction's fields as a draft (the "from" of a change).
fn changes_from(t: &Transaction) -> TransactionDraft {
    let d = &t.details;
    TransactionDraft::of(d, t.date, d.amount.amount(), t.category_source)
}
