//! Brings a local table written by an earlier version up to the present layout, so that
//! `make run` keeps a developer's data (DynamoDB Local's `.local/data`) across versions.
//! Deployed tables need none of this: no production table predates the present layout.
//!
//! - A user's feed head moved from its own item (`USER#<id>`, `FEED`) onto their wallet
//!   (attribute `seq`): each old head is copied there (never lowering a head the wallet
//!   already has) and removed.

use aws_sdk_dynamodb::types::AttributeValue;
use shared::store::Store;

/// The item that records a table upgraded to the present layout: a start of `make run`
/// reads it and scans nothing.
pub const MARKER: (&str, &str) = ("LOCAL", "LAYOUT#2");

/// Runs every step once per table (one `GetItem` afterwards); the number of heads moved.
pub async fn run(store: &Store) -> anyhow::Result<usize> {
    let (pk, sk) = MARKER;
    if store.get(pk, sk).await?.is_some() {
        return Ok(0);
    }
    let moved = move_heads(store).await?;
    store
        .client()
        .put_item()
        .table_name(store.table())
        .item("PK", AttributeValue::S(pk.into()))
        .item("SK", AttributeValue::S(sk.into()))
        .send()
        .await?;
    Ok(moved)
}

/// Moves every old feed head onto its wallet (one `Scan` of the table).
pub async fn move_heads(store: &Store) -> anyhow::Result<usize> {
    let client = store.client();
    let mut moved = 0;
    let mut start = None;
    loop {
        let page = client
            .scan()
            .table_name(store.table())
            .filter_expression("SK = :feed AND begins_with(PK, :user)")
            .expression_attribute_values(":feed", AttributeValue::S("FEED".into()))
            .expression_attribute_values(":user", AttributeValue::S("USER#".into()))
            .set_exclusive_start_key(start)
            .send()
            .await?;
        for item in page.items() {
            let (Some(pk), Some(seq)) = (item.get("PK"), item.get("seq")) else {
                continue;
            };
            let copied = client
                .update_item()
                .table_name(store.table())
                .key("PK", pk.clone())
                .key("SK", AttributeValue::S("WALLET".into()))
                .update_expression("SET seq = :seq")
                .condition_expression(
                    "attribute_exists(PK) AND (attribute_not_exists(seq) OR seq < :seq)",
                )
                .expression_attribute_values(":seq", seq.clone())
                .send()
                .await;
            if let Err(e) = copied {
                let refused = e
                    .as_service_error()
                    .is_some_and(|e| e.is_conditional_check_failed_exception());
                if !refused {
                    return Err(e.into());
                }
            }
            client
                .delete_item()
                .table_name(store.table())
                .key("PK", pk.clone())
                .key("SK", AttributeValue::S("FEED".into()))
                .send()
                .await?;
            moved += 1;
        }
        match page.last_evaluated_key {
            Some(key) => start = Some(key),
            None => return Ok(moved),
        }
    }
}
