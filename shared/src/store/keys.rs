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
//! | change feed head / entry (see `feed`) | `USER#<id>` or `GLOBAL` | `FEED` / `CHG#<seq, 16 digits>` | |
//! | login attempts per address / per e-mail | `EMAIL#<lower-case email>` | `LOGIN#ADDR#<address>#<window>` / `LOGIN#ALL#<day>` | |
//! | registrations per address | `REGISTER#<address>` | `W#<hour>` | |
//! | monthly total of a category | `USER#<id>` | `AGG#<YYYY-MM>#<G\|U><category id>` | `CATREF#<G\|U><category id>#<SK>` |
//! | budget | `USER#<id>` | `BUDGET#<YYYY-MM>#<category id>` | `CATREF#<G\|U><category id>#<SK>` |
//!
//! Sessions, change entries and throttle counters carry `expiresAt` (epoch seconds), the table's TTL.
//!
//! Profiles also carry `GSI1PK = USERS`, `GSI1SK = USER#<id>` so admins can page through
//! users without a scan.
//!
//! Monthly totals and budgets carry `LSI1SK = CATREF#...` so that deleting a category finds
//! what refers to it with one `Query` on the index (the transaction list reads only `TXN#`).
//! `G`/`U` tells a global category from an own one.
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

pub const AGG_PREFIX: &str = "AGG#";
pub const BUDGET_PREFIX: &str = "BUDGET#";

/// `G` for a global category, `U` for an own one.
fn scope(global: bool) -> char {
    if global {
        'G'
    } else {
        'U'
    }
}

/// The monthly total of a category: `AGG#2026-11#U123`.
pub fn agg_sk(month: &str, global: bool, category_id: u64) -> String {
    format!("AGG#{month}#{}{category_id}", scope(global))
}

/// A budget: `BUDGET#2026-11#123`.
pub fn budget_sk(month: &str, category_id: u64) -> String {
    format!("BUDGET#{month}#{category_id}")
}

/// The index position of everything that refers to a category, then of one item.
pub fn cat_ref_prefix(global: bool, category_id: u64) -> String {
    format!("CATREF#{}{category_id}#", scope(global))
}

pub fn cat_ref(global: bool, category_id: u64, sk: &str) -> String {
    format!("{}{sk}", cat_ref_prefix(global, category_id))
}
