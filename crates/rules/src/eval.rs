//! Matching a transaction against compiled rules and combining the matching rules' actions.

use rust_decimal::Decimal;
use serde::Serialize;

use crate::compile::{AmountOp, CompiledRule, Matcher, TextField, TextOp};
use crate::fold::fold;
use crate::model::{Actions, Kind};

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
    /// The matching rules' actions combined: the first kind-compatible, known category,
    /// the first provider, the union of their tags (in order, without duplicates) and the
    /// first note (apply it only to a transaction without a note).
    #[serde(flatten)]
    pub actions: Actions,
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
            .or_else(|| self.actions.category_id.and_then(category_kind))
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
        if let Some(k) = out.actions.combine(&rule.actions, kind, &category_kind) {
            kind = Some(k);
        }
        if rule.stop {
            break;
        }
    }
    out
}

impl Actions {
    /// Adds the actions of a later matching rule to these (combined so far): what is not
    /// set yet is taken from `later`, its tags are added. A category is taken only when
    /// `category_kind` knows it and it suits `kind`; its kind is returned then.
    fn combine(
        &mut self,
        later: &Actions,
        kind: Option<Kind>,
        category_kind: impl Fn(u64) -> Option<Kind>,
    ) -> Option<Kind> {
        let mut chosen = None;
        if let (None, Some(c)) = (self.category_id, later.category_id) {
            if let Some(ck) = category_kind(c) {
                if kind.is_none_or(|k| k == ck) {
                    self.category_id = Some(c);
                    chosen = Some(ck);
                }
            }
        }
        if self.provider_id.is_none() {
            self.provider_id = later.provider_id;
        }
        for t in &later.tag_ids {
            if !self.tag_ids.contains(t) {
                self.tag_ids.push(*t);
            }
        }
        if self.note.is_none() {
            self.note = later.note.clone().filter(|n| !n.trim().is_empty());
        }
        chosen
    }
}
