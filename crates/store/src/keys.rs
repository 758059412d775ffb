//! Key layout of the single table.
//!
//! | item | PK | SK | LSI1SK |
//! |---|---|---|---|
//! | user | `USER#<id>` | `PROFILE` | |
//! | e-mail reservation | `EMAIL#<lower-case email>` | `EMAIL` | |
//! | wallet | `USER#<id>` | `WALLET` | |
//! | transaction | `USER#<id>` | `TXN#<id, 16 digits>` | `TXN#<date>#<id, 16 digits>` |
//! | own category | `USER#<id>` | `CAT#<id>` | |
//! | own category name reservation (per type; categories stored before it have none) | `USER#<id>` | `CATNAME#<type>#<lower name>` | |
//! | global category (the copy a user reads, one per shard) | `GLOBAL#<shard>` | `CAT#<id>` | |
//! | global category (the source the copies are made from, read by seeding only) | `GLOBAL` | `CAT#<id>` | |
//! | copies complete (written by seeding after every copy) | `GLOBAL#<shard>` | `SEEDED` | |
//! | idempotency record | `USER#<id>` | `IDEM#<key>` | |
//! | tag / provider | `USER#<id>` | `TAG#<id>` / `PROV#<id>` | |
//! | tag / provider name reservation | `USER#<id>` | `TAGNAME#<lower name>` / `PROVNAME#<lower name>` | |
//! | import marker (one per imported row, kept forever: re-imports create nothing; a job's carry its id) | `USER#<id>` | `IMPORT#<import id>` | |
//! | import job (a large import's progress, 7 days) / its rows (one item per chunk, 7 days) | `USER#<id>` | `IMPJOB#<id, 16 digits>` / `IMPJOB#<id, 16 digits>#<chunk, 4 digits>` | |
//! | profile picture | `USER#<id>` | `PICTURE` | |
//! | session (one per login) | `USER#<id>` | `SESSION#<session id>` | |
//! | change feed entry (see `feed`; a user's head is `seq` on their wallet) | `USER#<id>` or `GLOBAL#<shard>` | `CHG#<seq, 16 digits>` | |
//! | a shard's change feed head | `GLOBAL#<shard>` | `FEED` | |
//! | login attempts per address / per e-mail | `EMAIL#<lower-case email>` | `LOGIN#ADDR#<address>#<window>` / `LOGIN#ALL#<day>` | |
//! | registrations per address | `REGISTER#<address>` | `W#<hour>` | |
//! | monthly total of a category | `USER#<id>` | `AGG#<YYYY-MM>#<G\|U><category id>` | (none) |
//! | budget | `USER#<id>` | `BUDGET#<YYYY-MM>#<category id>` | `CATREF#<G\|U><category id>#<SK>` |
//! | recurring schedule (see `recurring`) | `USER#<id>` | `RECUR#<id, 16 digits>` | |
//!
//! Sessions, change entries, import jobs and throttle counters carry `expiresAt` (epoch seconds), the table's TTL.
//!
//! Profiles also carry `GSI1PK = USERS#<shard>`, `GSI1SK = USER#<id>` so admins can page
//! through users without a scan.
//! Recurring schedules with a next due date carry `GSI1PK = RECUR#<shard>`,
//! `GSI1SK = <due date>#<user id>#<id>`: the job's due-date index.
//!
//! No key is read or written by every user's requests: what all users share (the users
//! index, the global categories and their change feed) is split into [`SHARDS`] partitions,
//! and a user only ever touches the one of their shard ([`shard_of`]). Admins' rare writes
//! of a global category write every copy in one transaction; their user list reads every
//! shard.
//!
//! Budgets carry `LSI1SK = CATREF#...` so that deleting a category finds them with one
//! `Query` on the index (the transaction list reads only `TXN#`). Monthly totals do not:
//! every transaction write moves one or two of them, and an index copy would cost it 2
//! more write units each; deleting a category reads the user's `AGG#` keys instead. `G`/`U`
//! tells a global category from an own one.
//!
//! Everything a user owns shares their partition, so each request touches one item
//! collection; the local secondary index orders transactions by date with strongly
//! consistent reads (a list right after a create shows it).

pub const PROFILE: &str = "PROFILE";
pub const WALLET: &str = "WALLET";
pub const EMAIL_SK: &str = "EMAIL";
/// The source of the global categories' copies (see [`global_pk`]).
pub const GLOBAL_PK: &str = "GLOBAL";
pub const LSI1: &str = "LSI1";
pub const GSI1: &str = "GSI1";
pub const PICTURE: &str = "PICTURE";
pub const TXN_PREFIX: &str = "TXN#";
pub const CAT_PREFIX: &str = "CAT#";

/// Partitions of what all users share. Changing it moves every user to another shard:
/// seeding would have to copy the global categories again and the profiles' index keys
/// would have to be rewritten. 16 keeps an admin's write of a global category (a copy, a
/// change entry and a feed head per shard, [`SHARDS`] × 3 + 1 items) within one
/// `TransactWriteItems` of at most 100 items; `docs/CAPACITY.md` shows what it sustains.
pub const SHARDS: u64 = 16;

/// The shard of a user: a fixed function of the id (the MurmurHash3 64-bit finaliser, so
/// that ids made in the same millisecond still spread), never stored.
pub fn shard_of(user_id: u64) -> u64 {
    let mut h = user_id;
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^= h >> 33;
    h % SHARDS
}

/// The partition of one shard's copy of the global categories and its change feed.
pub fn global_pk(shard: u64) -> String {
    format!("GLOBAL#{shard}")
}

/// The users-index partition of a user's profile: `USERS#<shard>`.
pub fn users_index_pk(user_id: u64) -> String {
    users_shard_pk(shard_of(user_id))
}

pub fn users_shard_pk(shard: u64) -> String {
    format!("USERS#{shard}")
}

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

/// The reservation of an own category's name among the user's own of its type
/// (`CATNAME#DEBIT#pets`), written in the same transaction as the category.
pub fn cat_name_sk(category_type: &str, name: &str) -> String {
    format!("CATNAME#{category_type}#{}", name.trim().to_lowercase())
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

/// A large import's job item (see `import_jobs`).
pub fn import_job_sk(job_id: u64) -> String {
    format!("IMPJOB#{job_id:016}")
}

/// One chunk of a large import's rows, beside its job item.
pub fn import_chunk_sk(job_id: u64, chunk: usize) -> String {
    format!("IMPJOB#{job_id:016}#{chunk:04}")
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn users_spread_over_every_shard_evenly() {
        // Ids as `ids::new_id` makes them: consecutive milliseconds, few random bits.
        let mut counts = [0u32; SHARDS as usize];
        let first = 1_000_000u64 << 12;
        for id in (0..16_000u64).map(|i| first + (i << 12)) {
            counts[shard_of(id) as usize] += 1;
        }
        assert!(
            counts.iter().all(|&c| (850..1150).contains(&c)),
            "{counts:?}"
        );
        assert_eq!(shard_of(42), shard_of(42));
        assert_eq!(global_pk(3), "GLOBAL#3");
        assert_eq!(users_shard_pk(15), "USERS#15");
    }
}
