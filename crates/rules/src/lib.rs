//! Transaction rules: the model of a rule, its validation, its compilation and its evaluation.
//! No HTTP and no storage: callers load the rules, compile them once per request and evaluate
//! them for every transaction.
//!
//! # A rule
//!
//! ```json
//! {"name": "Coffee", "match": "all",
//!  "conditions": [{"field": "payee", "op": "contains", "value": "starbucks"},
//!                 {"field": "amount", "op": "lt", "value": "20"}],
//!  "actions": {"categoryId": 12, "providerId": 4, "tagIds": [3], "note": "coffee"},
//!  "stop": false, "position": 0}
//! ```
//!
//! - `name`: 1 to 100 characters, not blank.
//! - `match`: `all` (default: every condition must match) or `any` (at least one).
//! - `conditions`: 1 to 10, each `{field, op, value}`:
//!   - `payee` and `note` take the text ops `contains`, `equals`, `startsWith`, `endsWith` and
//!     `matches`, with a non-empty string of at most 500 characters. A transaction without
//!     that field (no payee, no note) matches no text condition on it.
//!   - `amount` takes `equals`, `gt`, `gte`, `lt`, `lte` with one amount, and `between` with
//!     `[low, high]` (inclusive, `low` ≤ `high`). Amounts are exact decimals, given as a JSON
//!     number (`20`, `12.5`, `1e2`) or a string of digits with an optional fraction (`"12.50"`),
//!     never negative: they are compared with the transaction's absolute amount, so
//!     `12.5` equals `12.50`.
//!   - `type` takes only `equals`, with `"DEBIT"` or `"CREDIT"`. A transaction whose type is
//!     not known yet (a create without a category) matches no `type` condition, unless an
//!     earlier rule in the same run chose its category (see below).
//! - `actions`: at least one of `categoryId`, `providerId`, `tagIds` (at most 20;
//!   duplicates are ignored; `[]` counts as no action) and `note` (1 to 1000 characters, not blank).
//! - `stop`: when `true` and the rule matches, no later rule is evaluated.
//! - `position`: where the rule goes; the caller orders the rules (absent → last).
//!
//! A rule that breaks any of these is refused with one [`FieldError`] per problem, each naming
//! its JSON path (`name`, `conditions[1].op`, `conditions[0].value`, `actions.tagIds`,
//! `actions`); [`RuleBody::from_json`] does the same for JSON that does not even parse into
//! the shape (unknown fields, wrong types, unknown ops).
//!
//! # Text comparison
//!
//! Every text comparison ignores case and accents: both the transaction's text and the
//! condition's value are folded by [`fold`] (Unicode NFKD, lowercase, accents removed,
//! letters with a stroke plain, `ß` → `ss`, final `ς` → `σ`, Hangul and voiced kana composed
//! again) before comparing. So `"Café de Flore"` contains `"cafe"`, `"MÜNCHEN"` equals `"munchen"`,
//! and `"Straße"` equals `"STRASSE"`. Whitespace and punctuation are compared as they
//! are after compatibility folding (a non-breaking space is a space, `…` is `...`).
//!
//! `matches` takes a regular expression in the syntax of the Rust `regex` crate, which runs in
//! time linear in the text (no backtracking, so `(a+)+$` cannot hang). It is matched
//! case-insensitively, anywhere in the text unless anchored with `^`/`$`, against the folded
//! text. The pattern's literal characters are folded the same way (so `café` matches
//! `"CAFE"`), while its syntax is kept: escapes such as `\D`, `\p{Lu}` or `\x{E9}`, and
//! `(?flags)`/`(?P<name>` group openings are left as written. Consequences: an escape for an
//! accented letter (`\x{E9}`) or a combining mark never matches, as the text no longer holds
//! it; write the letter itself or its plain form. A letter that folds to two (`ß` → `ss`) is
//! grouped, so `straß?e` matches `"Strae"`; in a class, a range's accented ends stay as
//! written (`[À-ÿ]`), and `[ß]` or an accent with no letter before it is refused, as
//! `conditions[i].value`. Patterns are limited to 500 characters and a
//! compiled size; one that is too complex is refused as `conditions[i].value`.
//!
//! # Evaluation and precedence
//!
//! Rules run in order (by `position`). For each rule whose conditions match:
//! 1. its id is recorded in `matched`;
//! 2. **category**: the first matching rule whose category can apply wins; later categories
//!    are ignored. A category applies only when it is known (visible to the user) and its type
//!    (`DEBIT`/`CREDIT`) is the transaction's type; otherwise it is skipped for this
//!    transaction and a later matching rule's category may win. A transaction without a type
//!    yet accepts any known category, and the category chosen gives it its type: later
//!    rules' `type` conditions and category checks in the same run use that type;
//! 3. **provider**: the first matching rule that sets one wins;
//! 4. **tags**: the tags of every matching rule are added, in order, without duplicates;
//! 5. **note**: the first matching rule that sets one wins; it is only written to a
//!    transaction whose note is empty;
//! 6. if the rule has `stop: true`, no later rule is evaluated (its own actions still apply).
//!
//! A rule that matches but changes nothing (its category skipped, say) still counts as
//! matched and still stops the run when it has `stop`.

mod compile;
mod eval;
mod fold;
mod model;
mod parse;

pub use compile::CompiledRule;
pub use eval::{evaluate, Outcome, Subject};
pub use fold::{fold, fold_pattern};
pub use model::{Actions, Condition, FieldError, FieldName, Kind, Match, Op, RuleBody};

/// Most rules one user may have.
pub const MAX_RULES: usize = 200;
/// Most conditions in one rule.
pub const MAX_CONDITIONS: usize = 10;
/// Most `matches` conditions over all of one user's rules: each compiles to up to
/// [`REGEX_SIZE_LIMIT`] plus a lazy cache of [`REGEX_DFA_SIZE_LIMIT`] (a Unicode `\w{20}`
/// takes 1 MiB), and every create without a category compiles them all.
pub const MAX_PATTERNS: usize = 50;
/// Longest text value or pattern of a condition, in characters.
pub const MAX_PATTERN_CHARS: usize = 500;
/// Longest rule name, in characters.
pub const MAX_NAME_CHARS: usize = 100;
/// Longest note action, in characters.
pub const MAX_NOTE_CHARS: usize = 1000;
/// Most tags one rule may add.
pub const MAX_TAGS: usize = 20;
/// `regex` compiled program size limit for one pattern, in bytes.
pub const REGEX_SIZE_LIMIT: usize = 1 << 20;
/// `regex` lazy DFA cache limit for one pattern, in bytes.
pub const REGEX_DFA_SIZE_LIMIT: usize = 1 << 20;
