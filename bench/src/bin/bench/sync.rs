//! `make bench`, the change feed against the list and the export, side by side in one run
//! for one user of 200 transactions and 10,000 changes: a sync page of 200 from a cursor in
//! the middle of the feed, the first page of a first sync, a list page of 200 and the first
//! export pages (JSON, CSV), and a list page and the first page of a first sync of a user
//! who also owns labels, each with p50, p99 and the read units one request consumes;
//! then the sync and list pages again with 100,000 other users' items in the table. A page
//! should cost the same in both: O(its changes).

use std::time::Instant;

use aws_sdk_dynamodb::types::AttributeValue;
use shared::app::sync::Position;
use shared::http::AppState;
use shared::store::batch::key;
use shared::store::feed::{entry_item, Change, Entity, Feed, Phase};
use shared::store::keys::{user_pk, WALLET};
use shared::store::Item;

use super::endpoints::send;
use super::meter::Meter;
use super::stats::{Stats, ROUNDS, WARMUP};

const CHANGES: u64 = 10_000;
const TRANSACTIONS: u64 = 200;
const PAGE: usize = 200;
/// What the second user owns besides their transactions: own categories, tags, providers.
const LABELS: (usize, usize, usize) = (5, 20, 50);

pub(super) fn s(v: impl Into<String>) -> AttributeValue {
    AttributeValue::S(v.into())
}

pub(super) fn n(v: impl ToString) -> AttributeValue {
    AttributeValue::N(v.to_string())
}

/// `count` change entries in `pk`'s feed from `first_seq` about `items` in turn (edits of
/// the same transactions), each carrying the item as the service's entries of a
/// transaction's create or update do (built by the service's own `entry_item`).
pub(super) fn entries(
    user_id: u64,
    first_seq: u64,
    count: u64,
    items: &[(u64, Item)],
) -> Vec<Item> {
    let now_ms = time::OffsetDateTime::now_utc().unix_timestamp() * 1000;
    (0..count)
        .filter_map(|i| {
            let seq = first_seq + i;
            let (id, item) = items.get((i as usize) % items.len().max(1))?;
            let change = Change::upsert(Feed::User(user_id), Entity::Transaction, *id, 1);
            Some(entry_item(&change, seq, now_ms + seq as i64, Some(item)))
        })
        .collect()
}

/// Read units of the raw calls a page from `after` makes, as the service makes them: the
/// user's feed `Query` and the `BatchGetItem` of both heads (the user's wallet and the
/// shard's head), at once; the shard's feed is not read (no global category changed).
async fn page_capacity(
    state: &AppState,
    meter: &Meter,
    user_id: u64,
    after: u64,
) -> anyhow::Result<[f64; 2]> {
    let store = &state.store;
    let fetch = PAGE as i32 + 1;
    let (mine, global) = (Feed::User(user_id), Feed::global_of(user_id));
    let own = meter.measure(store.feed_entries(mine, after, fetch)).await;
    let heads = [mine, global].map(|f| {
        let (pk, sk) = f.head_key();
        key(&pk, sk)
    });
    let heads = meter.measure(store.batch_get(heads.to_vec())).await;
    own.1?;
    heads.1?;
    Ok([own.0.read, heads.0.read])
}

/// The store calls under the pages, side by side like the requests: the list page's
/// `Query` of 200 items, the sync page's `Query` of 201 entries and a first page's `Query`
/// of 200 transactions (a `BETWEEN` range of their sort-key prefix, as the service sends
/// it, and the same range by `begins_with`): what DynamoDB itself takes for each.
async fn raw_side_by_side(state: &AppState, user_id: u64, after: u64) -> [Stats; 4] {
    let store = &state.store;
    let filter = shared::store::transactions::TxnFilter::default();
    let mut samples: [Vec<_>; 4] = Default::default();
    for round in 0..WARMUP + ROUNDS {
        for k in 0..4 {
            let i = (round + k) % 4;
            let start = Instant::now();
            let limit = PAGE as i32;
            let ok = match i {
                0 => store
                    .list_transactions(user_id, &filter, limit, None)
                    .await
                    .is_ok(),
                1 => (store
                    .feed_entries(Feed::User(user_id), after, limit + 1)
                    .await)
                    .is_ok(),
                2 => (store
                    .snapshot_page(user_id, Phase::Transactions, None, limit)
                    .await)
                    .is_ok(),
                _ => super::fixture::begins_with_txn(state, user_id)
                    .limit(limit)
                    .send()
                    .await
                    .is_ok(),
            };
            assert!(ok, "a raw call failed");
            if round >= WARMUP {
                samples[i].push(start.elapsed());
            }
        }
    }
    samples.map(Stats::of)
}

/// A GET of a URL as a user (their token).
type Get = (String, String);

/// GETs `urls` round-robin ([`WARMUP`] untimed rounds, then [`ROUNDS`] timed), the order
/// turned every round, so each is measured under the same conditions as the others.
async fn side_by_side(http: &reqwest::Client, urls: &[Get]) -> Vec<Stats> {
    let mut samples = vec![Vec::with_capacity(ROUNDS); urls.len()];
    for round in 0..WARMUP + ROUNDS {
        for k in 0..urls.len() {
            let i = (round + k) % urls.len();
            let (url, token) = &urls[i];
            let start = Instant::now();
            send(http.get(url).bearer_auth(token)).await;
            if round >= WARMUP {
                samples[i].push(start.elapsed());
            }
        }
    }
    samples.into_iter().map(Stats::of).collect()
}

/// The read units one GET of each of `urls` consumes.
async fn read_units(meter: &Meter, http: &reqwest::Client, urls: &[Get]) -> Vec<f64> {
    let mut units = Vec::new();
    for (url, token) in urls {
        units.push(
            meter
                .measure(send(http.get(url).bearer_auth(token)))
                .await
                .0
                .read,
        );
    }
    units
}

/// 100,000 items of 100 other users: their transactions and their feeds.
async fn other_users(state: &AppState) -> anyhow::Result<usize> {
    let mut foreign = Vec::new();
    for u in 0..100u64 {
        let other_id = 9_000_000 + u;
        let other = user_pk(other_id);
        let txns: Vec<(u64, Item)> = (0..500u64)
            .map(|i| {
                let item = Item::from([
                    ("PK".to_owned(), s(&other)),
                    ("SK".to_owned(), s(format!("TXN#{i:016}"))),
                    ("note".to_owned(), s("x".repeat(200))),
                ]);
                (i, item)
            })
            .collect();
        foreign.extend(entries(other_id, 1, 500, &txns[..3]));
        foreign.extend(txns.into_iter().map(|(_, item)| item));
    }
    let count = foreign.len();
    super::fixture::put_all(state, foreign).await?;
    Ok(count)
}

pub async fn run(
    state: &AppState,
    meter: &Meter,
    base: &str,
    http: &reqwest::Client,
) -> anyhow::Result<()> {
    let (user_id, token) = super::fixture::sign_up(http, base, "sync@example.com").await?;
    let labelled = super::fixture::labelled_user(http, base, TRANSACTIONS, LABELS).await?;
    let token = token.as_str();
    // The user's transactions the changes are about, written through the API.
    for i in 0..TRANSACTIONS {
        let date = format!("2020-01-{:02}", 1 + i % 28);
        super::fixture::create_transaction(http, base, token, &date).await?;
    }
    // 10,000 more changes in the user's feed, after what the writes above recorded, each
    // carrying its transaction's item; the head (`seq` on the wallet) moved past them.
    let txns = super::fixture::stored_transactions(state, user_id).await?;
    let store = &state.store;
    let head = store.feed_head(Feed::User(user_id)).await?;
    let global_head = store.feed_head(Feed::global_of(user_id)).await?;
    let pk = user_pk(user_id);
    super::fixture::put_all(state, entries(user_id, head + 1, CHANGES, &txns)).await?;
    store
        .client()
        .update_item()
        .table_name(store.table())
        .set_key(Some(key(&pk, WALLET)))
        .update_expression("SET seq = :s")
        .expression_attribute_values(":s", n(head + CHANGES))
        .send()
        .await?;

    // A later sync from the middle of the history (past every global change).
    let after = (head + CHANGES / 2, global_head);
    let position = Position::Log {
        user_seq: after.0,
        global_seq: after.1,
        issued_ms: time::OffsetDateTime::now_utc().unix_timestamp() * 1000,
    };
    let sealed = state
        .tokens
        .cursors()
        .seal("sync", user_id, &position.encode());
    let cursor: String = form_urlencoded::byte_serialize(sealed.as_bytes()).collect();
    let own = |path: String| (format!("{base}{path}"), token.to_owned());
    let theirs = |path: String| (format!("{base}{path}"), labelled.clone());
    let urls = [
        own(format!("/api/transactions?limit={PAGE}")),
        own(format!("/api/sync?limit={PAGE}&cursor={cursor}")),
        own(format!("/api/sync?limit={PAGE}")),
        own("/api/export?format=json".to_owned()),
        own("/api/export?format=csv".to_owned()),
        theirs(format!("/api/transactions?limit={PAGE}")),
        theirs(format!("/api/sync?limit={PAGE}")),
    ];
    let (l, t, p) = LABELS;
    let names = [
        format!("`GET /api/transactions?limit={PAGE}` (list page)"),
        format!("`GET /api/sync?limit={PAGE}&cursor=…` (mid-feed)"),
        format!("`GET /api/sync?limit={PAGE}` (first page of a first sync)"),
        "`GET /api/export?format=json` (first page)".to_owned(),
        "`GET /api/export?format=csv` (first page)".to_owned(),
        format!("`GET /api/transactions?limit={PAGE}` (list page, a user with {l} own categories, {t} tags, {p} providers)"),
        format!("`GET /api/sync?limit={PAGE}` (first page of a first sync, the same user)"),
    ];
    let stats = side_by_side(http, &urls).await;
    let units = read_units(meter, http, &urls).await;
    let raw = page_capacity(state, meter, user_id, after.0).await?;
    let floor = raw_side_by_side(state, user_id, after.0).await;

    let foreign = other_users(state).await?;
    let again = side_by_side(http, &urls[..2]).await;
    let units_again = read_units(meter, http, &urls[..2]).await;
    let raw_again = page_capacity(state, meter, user_id, after.0).await?;

    println!("## A sync page against a list page and an export page\n");
    println!(
        "One user with {TRANSACTIONS} transactions (written through the API) and {CHANGES} more changes \
         in their feed about them (each entry carrying its transaction's item, as the service writes \
         them; the head is `seq` on the wallet); a second user with {TRANSACTIONS} transactions and \
         {l} own categories, {t} tags and {p} providers, all made through the API, whose first sync \
         page reads those phases too. The seven requests are sent round-robin, \
         {WARMUP} untimed rounds then {ROUNDS} timed, the order turned every round; RCU: what one \
         request consumed (the meter on the service's client). Ratios are to the first list page.\n"
    );
    println!("| request | p50 | p99 | RCU | p50 ratio | RCU ratio |");
    println!("|---|---|---|---|---|---|");
    let (list_p50, list_units) = (stats[0].p50_ms(), units[0]);
    for ((name, st), u) in names.iter().zip(&stats).zip(&units) {
        println!(
            "| {name} | {:.2} ms | {:.2} ms | {u} | {:.2} | {:.2} |",
            st.p50_ms(),
            st.p99_ms(),
            st.p50_ms() / list_p50,
            u / list_units
        );
    }
    println!();
    let line = |r: [f64; 2]| {
        format!(
            "user's feed `Query` {} RCU, heads `BatchGetItem` (the user's wallet and the shard's head) {} RCU",
            r[0], r[1]
        )
    };
    println!(
        "The mid-feed page's raw calls, made as the service makes them (at once): {}.\n",
        line(raw)
    );
    println!(
        "The two pages' main store calls alone, side by side ({WARMUP} untimed and {ROUNDS} timed rounds): \
         the list page's `Query` of {PAGE} transactions p50 {:.2} ms, the sync page's `Query` of {} entries \
         p50 {:.2} ms ({:.2}×).\n",
        floor[0].p50_ms(),
        PAGE + 1,
        floor[1].p50_ms(),
        floor[1].p50_ms() / floor[0].p50_ms()
    );
    println!(
        "A first page's `Query` of {PAGE} transactions alone, side by side with those (the user's \
         partition also holds their {CHANGES} feed entries): a `BETWEEN` range of the `TXN#` prefix, \
         as the service sends it, p50 {:.2} ms; the same range by `begins_with` p50 {:.2} ms ({:.2}×).\n",
        floor[2].p50_ms(),
        floor[3].p50_ms(),
        floor[3].p50_ms() / floor[2].p50_ms()
    );
    println!("With {foreign} other users' items (their transactions and feeds) in the table:\n");
    println!("| request | p50 | p99 | RCU |");
    println!("|---|---|---|---|");
    for ((name, st), u) in names.iter().zip(&again).zip(&units_again) {
        println!(
            "| {name} | {:.2} ms | {:.2} ms | {u} |",
            st.p50_ms(),
            st.p99_ms()
        );
    }
    println!("\nThe mid-feed page's raw calls: {}.", line(raw_again));
    Ok(())
}
