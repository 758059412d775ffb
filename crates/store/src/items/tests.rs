//! Every entity survives its item: what `to_item` writes, `TryFrom<&Item>` reads back.

use crate::FromItem;
use aws_sdk_dynamodb::types::AttributeValue;
use rust_decimal::Decimal;

use super::category::{self, category_pk, partitions};
use super::{transaction, user, wallet};
use crate::attr::s;
use crate::keys::SHARDS;
use pf_domain::time::Timestamp;
use pf_domain::{Category, CategoryType, Role, Transaction, User, Wallet};

fn new_year() -> Timestamp {
    Timestamp::parse("2026-01-01T00:00:00").unwrap()
}

#[test]
fn a_user_survives_the_profile_item() {
    let u = User {
        id: 7,
        email: "Ann@Example.com".into(),
        first_name: "Ann".into(),
        last_name: "Lee".into(),
        password_hash: "$argon2id$...".into(),
        role: Role::Admin,
        session_epoch: 3,
        email_verified: true,
        previous_email: Some("ann@old.example".into()),
        version: 4,
        created_at: new_year(),
        updated_at: new_year(),
    };
    let item = user::to_item(&u);
    assert_eq!(item["GSI1SK"].as_s().unwrap(), "USER#7");
    assert_eq!(User::from_item(&item).unwrap(), u);
    let mut old = item.clone();
    old.remove("sessionEpoch");
    assert_eq!(User::from_item(&old).unwrap().session_epoch, 0);
}

#[test]
fn a_wallet_survives_its_item() {
    let mut w = Wallet::new_default(7, 8, new_year());
    w.txn_sum = Decimal::new(-1250, 2);
    w.txn_count = 2;
    assert_eq!(Wallet::from_item(&wallet::to_item(&w)).unwrap(), w);
    assert_eq!(w.balance().to_string(), "-12.50");
}

#[test]
fn own_and_global_categories_survive_their_items() {
    let mut c = Category {
        id: 99,
        owner: Some(7),
        name: "Pets".into(),
        icon: "paw".into(),
        color: "#8E24AA".into(),
        category_type: CategoryType::Debit,
        use_count: 3,
        version: 2,
        created_at: new_year(),
        updated_at: new_year(),
    };
    assert_eq!(partitions(&c), ["USER#7"]);
    assert_eq!(
        Category::from_item(&category::to_item(&c, "USER#7")).unwrap(),
        c
    );
    c.owner = None;
    let copies = partitions(&c);
    assert_eq!(copies.len() as u64, 1 + SHARDS);
    for pk in &copies {
        assert_eq!(Category::from_item(&category::to_item(&c, pk)).unwrap(), c);
        assert_eq!(
            category::to_item(&c, pk)["isGlobal"],
            AttributeValue::Bool(true)
        );
    }
    assert!(copies.contains(&category_pk(7, true)));
}

#[test]
fn a_transaction_survives_its_item() {
    let example = Transaction::example(time::macros::date!(2026 - 02 - 28), 4, 1250);
    let t = Transaction {
        user_id: 7,
        id: 42,
        details: pf_domain::Details {
            note: Some("Café".into()),
            provider_id: Some(9),
            tag_ids: vec![1, 3],
            ..example.details.clone()
        },
        category_source: pf_domain::CategorySource::Rule,
        recurring_id: Some(5),
        version: 2,
        created_at: Timestamp::parse("2026-02-28T09:00:00").unwrap(),
        updated_at: Timestamp::parse("2026-02-28T10:00:00").unwrap(),
        ..example
    };
    let item = transaction::to_item(&t);
    assert_eq!(
        item["LSI1SK"].as_s().unwrap(),
        "TXN#2026-02-28#0000000000000042"
    );
    assert_eq!(item["noteLc"].as_s().unwrap(), "café");
    assert_eq!(Transaction::from_item(&item).unwrap(), t);
    let mut broken = item.clone();
    broken.insert("currencyCode".into(), s("XXX"));
    assert!(Transaction::from_item(&broken).is_err());
}

#[test]
fn a_splits_parts_survive_its_item_in_order_with_the_sets_the_filters_read() {
    let mut t = Transaction::example(time::macros::date!(2026 - 02 - 28), 4, 1000);
    let part = |cents, category_id, global, tags: Vec<u64>| pf_domain::Part {
        amount: pf_domain::Money::new(Decimal::new(cents, 2), pf_domain::Currency::eur()).unwrap(),
        category_id,
        category_type: CategoryType::Debit,
        category_global: global,
        note: (cents > 500).then(|| "big".to_owned()),
        tag_ids: tags,
    };
    t.details.splits = vec![part(600, 4, true, vec![2, 7]), part(400, 11, false, vec![])];
    let item = transaction::to_item(&t);
    assert!(matches!(&item["splitCategoryIds"], AttributeValue::Ns(c) if c.len() == 2));
    assert!(matches!(&item["splitTagIds"], AttributeValue::Ns(c) if c.len() == 2));
    assert_eq!(Transaction::from_item(&item).unwrap(), t);
    let plain = transaction::to_item(&Transaction::example(t.date, 4, 1000));
    assert!(!plain.contains_key("splits") && !plain.contains_key("splitCategoryIds"));
}
