//! Key layout of the single table.
//!
//! | item | PK | SK | LSI1SK |
//! |---|---|---|---|
//! | user | `USER#<id>` | `PROFILE` | |
//! | e-mail reservation | `EMAIL#<lower-case email>` | `EMAIL` | |
//! | wallet | `USER#<id>` | `WALLET` | |
//! | transaction | `USER#<id>` | `TXN#<id, 16 digits>` | `TXN#<date>#<id, 16 digits>` |
//! | own category | `USER#<id>` | `CAT#<id>` | |
//! | global category | `GLOBAL` | `CAT#<id>` | |
//! | idempotency record | `USER#<id>` | `IDEM#<key>` | |
//! | tag / provider | `USER#<id>` | `TAG#<id>` / `PROV#<id>` | |
//! | tag / provider name reservation | `USER#<id>` | `TAGNAME#<lower name>` / `PROVNAME#<lower name>` | |
//! | import marker (one per imported row, kept forever: re-imports create nothing) | `USER#<id>` | `IMPORT#<import id>` | |
//! | profile picture | `USER#<id>` | `PICTURE` | |
//! | session (one per login) | `USER#<id>` | `SESSION#<session id>` | |
//! | login attempts per address / per e-mail | `EMAIL#<lower-case email>` | `LOGIN#ADDR#<address>#<window>` / `LOGIN#ALL#<day>` | |
//! | registrations per address | `REGISTER#<address>` | `W#<hour>` | |
//!
//! Sessions and throttle counters carry `expiresAt` (epoch seconds), the table's TTL.
//!
//! Profiles also carry `GSI1PK = USERS`, `GSI1SK = USER#<id>` so admins can page through
//! users without a scan.
//!
//! Everything a user owns shares their partition, so each request touches one item
//! collection; the local secondary index orders transactions by date with strongly
//! consistent reads (a list right after a create shows it).

pub const PROFILE: &str = "PROFILE";
pub const WALLET: &str = "WALLET";
pub const EMAIL_SK: &str = "EMAIL";
pub const GLOBAL_PK: &str = "GLOBAL";
pub const LSI1: &str = "LSI1";
pub const GSI1: &str = "GSI1";
pub const USERS_INDEX_PK: &str = "USERS";
pub const PICTURE: &str = "PICTURE";
pub const TXN_PREFIX: &str = "TXN#";
pub const CAT_PREFIX: &str = "CAT#";

pub fn user_pk(user_id: u64) -> String {
    format!("USER#{user_id}")
}

pub fn email_pk(normalized_email: &str) -> String {
    format!("EMAIL#{normalized_email}")
}

pub fn txn_sk(txn_id: u64) -> String {
    format!("TXN#{txn_id:016}")
}

pub fn txn_lsi(date: &str, txn_id: u64) -> String {
    format!("TXN#{date}#{txn_id:016}")
}

pub fn cat_sk(category_id: u64) -> String {
    format!("CAT#{category_id}")
}

pub fn idem_sk(key: &str) -> String {
    format!("IDEM#{key}")
}

/// The marker of an imported row, put with its transaction (`attribute_not_exists`).
pub fn import_sk(import_id: &str) -> String {
    format!("IMPORT#{import_id}")
}

pub fn tag_sk(tag_id: u64) -> String {
    format!("TAG#{tag_id}")
}

pub fn provider_sk(provider_id: u64) -> String {
    format!("PROV#{provider_id}")
}
