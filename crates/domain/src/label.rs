//! Tags and providers: names a user gives to group transactions (what it was for, who was
//! paid), unique per user ignoring case, undeletable while transactions use them.

use super::time::Timestamp;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    pub id: u64,
    pub name: String,
    /// Transactions using it.
    pub use_count: u64,
    /// A provider's category for creates that name none and match no rule (tags: none).
    pub default_category_id: Option<u64>,
    /// Starts at 1; every change adds one (the ETag).
    pub version: u64,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
}

/// The two kinds of label: a tag (what a transaction was for) or a provider (who it paid,
/// or was paid by).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LabelKind {
    Tag,
    Provider,
}

impl LabelKind {
    /// Singular noun, for messages: `tag`, `provider`.
    pub fn noun(self) -> &'static str {
        match self {
            LabelKind::Tag => "tag",
            LabelKind::Provider => "provider",
        }
    }

    /// The field that carries its name in the API: `tagName`, `providerName`.
    pub fn field(self) -> &'static str {
        match self {
            LabelKind::Tag => "tagName",
            LabelKind::Provider => "providerName",
        }
    }
}
