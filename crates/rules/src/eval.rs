//! Matching a transaction against compiled rules and combining the matching rules' actions.

use rust_decimal::Decimal;
use serde::Serialize;

use crate::compile::{AmountOp, CompiledRule, Matcher, TextField, TextOp};
use crate::fold::fold;
use crate::model::Kind;

/// What rules look at: a transaction being created, an import row, a stored transaction, or
/// the body of `POST /api/rules/test`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Subject<'a> {
    /// The provider's name, or an import row's payee text. `None` matches no text condition.
    pub payee: Option<&'a str>,
    /// The note. `None` matches no text condition.
    pub note: Option<&'a str>,
    /// The amount; its absolute value is compared. `None` matches no amount condition.
    pub amount: Option<Decimal>,
    /// `None` for a create without a category: `type` conditions never match it (until a
    /// rule's category gives it a kind during [`evaluate`]).
    pub kind: Option<Kind>,
}

/// The combined effect of the matching rules.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Outcome {
    /// Ids of the rules that matched, in evaluation order.
    pub matched: Vec<u64>,
    /// The first kind-compatible, known category of a matching rule.
    pub category_id: Option<u64>,
    /// The first provider set by a matching rule.
    pub provider_id: Option<u64>,
    /// Union of the matching rules' tags, in order, without duplicates.
    pub tag_ids: Vec<u64>,
    /// The first note set by a matching rule (apply it only to a transaction without a note).
    pub note: Option<String>,
}

impl Outcome {
    /// The subject's kind after evaluation: its own, or the kind of the chosen category.
    /// `category_kind` is the same lookup given to [`evaluate`].
    pub fn kind(
        &self,
        subject: &Subject,
        category_kind: impl Fn(u64) -> Option<Kind>,
    ) -> Option<Kind> {
        subject
            .kind
            .or_else(|| self.category_id.and_then(category_kind))
    }
}

/// A subject with its text folded once for all the rules.
struct Folded {
    payee: Option<String>,
    note: Option<String>,
    amount: Option<Decimal>,
}

impl Folded {
    fn new(s: &Subject) -> Self {
        Folded {
            payee: s.payee.map(fold),
            note: s.note.map(fold),
            amount: s.amount.map(|a| a.abs()),
        }
    }

    fn text(&self, field: TextField) -> Option<&str> {
        match field {
            TextField::Payee => self.payee.as_deref(),
            TextField::Note => self.note.as_deref(),
        }
    }
}

impl Matcher {
    fn test(&self, s: &Folded, kind: Option<Kind>) -> bool {
        match self {
            Matcher::Text(field, op, needle) => s.text(*field).is_some_and(|t| match op {
                TextOp::Contains => t.contains(needle.as_str()),
                TextOp::Equals => t == needle,
                TextOp::StartsWith => t.starts_with(needle.as_str()),
                TextOp::EndsWith => t.ends_with(needle.as_str()),
            }),
            Matcher::Regex(field, re) => s.text(*field).is_some_and(|t| re.is_match(t)),
            Matcher::Amount(op, v) => s.amount.is_some_and(|a| match op {
                AmountOp::Equals => a == *v,
                AmountOp::Gt => a > *v,
                AmountOp::Gte => a >= *v,
                AmountOp::Lt => a < *v,
                AmountOp::Lte => a <= *v,
            }),
            Matcher::Between(low, high) => s.amount.is_some_and(|a| *low <= a && a <= *high),
            Matcher::Type(k) => kind == Some(*k),
        }
    }
}

impl CompiledRule {
    /// Whether the subject satisfies this rule's conditions (`all` or `any` of them).
    pub fn matches(&self, s: &Subject) -> bool {
        self.matches_folded(&Folded::new(s), s.kind)
    }

    fn matches_folded(&self, s: &Folded, kind: Option<Kind>) -> bool {
        let mut tests = self.conditions.iter().map(|m| m.test(s, kind));
        if self.all {
            tests.all(|ok| ok)
        } else {
            tests.any(|ok| ok)
        }
    }
}

/// Runs `rules` in order over `s` and combines the matching rules' actions (see the crate
/// docs for the precedence). `category_kind` gives a category's type, or `None` when it is
/// unknown or not visible to the caller, in which case that rule's category is ignored.
pub fn evaluate(
    rules: &[CompiledRule],
    s: &Subject,
    category_kind: impl Fn(u64) -> Option<Kind>,
) -> Outcome {
    let folded = Folded::new(s);
    let mut kind = s.kind;
    let mut out = Outcome::default();
    for rule in rules {
        if !rule.matches_folded(&folded, kind) {
            continue;
        }
        out.matched.push(rule.id);
        let a = &rule.actions;
        if let (None, Some(c)) = (out.category_id, a.category_id) {
            if let Some(ck) = category_kind(c) {
                if kind.is_none_or(|k| k == ck) {
                    out.category_id = Some(c);
                    kind = Some(ck);
                }
            }
        }
        if out.provider_id.is_none() {
            out.provider_id = a.provider_id;
        }
        for t in &a.tag_ids {
            if !out.tag_ids.contains(t) {
                out.tag_ids.push(*t);
            }
        }
        if out.note.is_none() {
            out.note = a.note.clone().filter(|n| !n.trim().is_empty());
        }
        if rule.stop {
            break;
        }
    }
    out
}
