//! Domain types. Nothing here knows about HTTP, DynamoDB or Lambda.

pub mod category;
pub mod email;
pub mod ids;
pub mod label;
pub mod money;
pub mod month;
pub mod password;
pub mod recurring;
pub mod role;
mod schema;
pub mod split;
pub mod text;
pub mod time;
pub mod transaction;
pub mod user;
pub mod violation;
pub mod wallet;

pub use category::{Category, CategoryType};
pub use email::Email;
pub use label::{Label, LabelKind};
pub use money::{Currency, Money, MoneyError};
pub use month::Month;
pub use password::Password;
pub use role::Role;
pub use split::{Part, Share};
pub use transaction::{CategorySource, Details, Transaction};
pub use user::User;
pub use violation::Violation;
pub use wallet::Wallet;
