//! A user's profile item: `PK = USER#<id>`, `SK = PROFILE`, and the keys of the admins'
//! user list (`GSI1PK = USERS#<shard>`, `GSI1SK = USER#<id>`).

use super::{get_string, get_times, get_version, stamps};
use crate::attr::{get_opt_s, get_opt_u64, get_s, get_u64, n, s, Item};
use crate::keys::{user_pk, users_index_pk, PROFILE};
use crate::FromItem;
use aws_sdk_dynamodb::types::AttributeValue;
use pf_domain::{Role, User};

pub fn to_item(u: &User) -> Item {
    let mut item = Item::from([
        ("PK".into(), s(user_pk(u.id))),
        ("SK".into(), s(PROFILE)),
        ("GSI1PK".into(), s(users_index_pk(u.id))),
        ("GSI1SK".into(), s(user_pk(u.id))),
        ("id".into(), n(u.id)),
        ("email".into(), s(&u.email)),
        ("firstName".into(), s(&u.first_name)),
        ("lastName".into(), s(&u.last_name)),
        ("passwordHash".into(), s(&u.password_hash)),
        ("role".into(), s(u.role.as_str())),
        ("sessionEpoch".into(), n(u.session_epoch)),
        (
            "emailVerified".into(),
            AttributeValue::Bool(u.email_verified),
        ),
    ]);
    if let Some(previous) = &u.previous_email {
        item.insert("previousEmail".into(), s(previous));
    }
    item.extend(stamps(u.version, u.created_at, u.updated_at));
    item
}

pub fn parse_role(raw: &str) -> anyhow::Result<Role> {
    match raw {
        "USER" => Ok(Role::User),
        "ADMIN" => Ok(Role::Admin),
        other => anyhow::bail!("unknown stored role {other}"),
    }
}

impl FromItem for User {
    fn from_item(item: &Item) -> anyhow::Result<Self> {
        let (created_at, updated_at) = get_times(item)?;
        Ok(Self {
            id: get_u64(item, "id")?,
            email: get_string(item, "email")?,
            first_name: get_string(item, "firstName")?,
            last_name: get_string(item, "lastName")?,
            password_hash: get_string(item, "passwordHash")?,
            role: parse_role(get_s(item, "role")?)?,
            // Profiles written before sessions had epochs have none: epoch 0.
            session_epoch: get_opt_u64(item, "sessionEpoch").unwrap_or(0),
            email_verified: matches!(item.get("emailVerified"), Some(AttributeValue::Bool(true))),
            previous_email: get_opt_s(item, "previousEmail"),
            version: get_version(item),
            created_at,
            updated_at,
        })
    }
}
