//! A user's profile item: `PK = USER#<id>`, `SK = PROFILE`, and the keys of the admins'
//! user list (`GSI1PK = USERS#<shard>`, `GSI1SK = USER#<id>`).

use super::super::attr::{get_opt_u64, get_s, get_timestamp, get_u64, n, s, Item};
use super::super::keys::{user_pk, users_index_pk, PROFILE};
use crate::domain::{Role, User};

pub fn to_item(u: &User) -> Item {
    Item::from([
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
        ("version".into(), n(u.version)),
        ("createdAt".into(), s(u.created_at.to_string())),
        ("updatedAt".into(), s(u.updated_at.to_string())),
    ])
}

pub fn parse_role(raw: &str) -> anyhow::Result<Role> {
    match raw {
        "USER" => Ok(Role::User),
        "ADMIN" => Ok(Role::Admin),
        other => anyhow::bail!("unknown stored role {other}"),
    }
}

impl TryFrom<&Item> for User {
    type Error = anyhow::Error;

    fn try_from(item: &Item) -> anyhow::Result<Self> {
        Ok(Self {
            id: get_u64(item, "id")?,
            email: get_s(item, "email")?.to_owned(),
            first_name: get_s(item, "firstName")?.to_owned(),
            last_name: get_s(item, "lastName")?.to_owned(),
            password_hash: get_s(item, "passwordHash")?.to_owned(),
            role: parse_role(get_s(item, "role")?)?,
            // Profiles written before sessions had epochs have none: epoch 0.
            session_epoch: get_opt_u64(item, "sessionEpoch").unwrap_or(0),
            version: get_opt_u64(item, "version").unwrap_or(1),
            created_at: get_timestamp(item, "createdAt")?,
            updated_at: get_timestamp(item, "updatedAt")?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::time::Timestamp;

    #[test]
    fn a_user_survives_the_profile_item() {
        let at = Timestamp::parse("2026-01-01T00:00:00").unwrap();
        let u = User {
            id: 7,
            email: "Ann@Example.com".into(),
            first_name: "Ann".into(),
            last_name: "Lee".into(),
            password_hash: "$argon2id$...".into(),
            role: Role::Admin,
            session_epoch: 3,
            version: 4,
            created_at: at,
            updated_at: at,
        };
        let item = to_item(&u);
        assert_eq!(item["GSI1SK"].as_s().unwrap(), "USER#7");
        assert_eq!(User::try_from(&item).unwrap(), u);
        let mut old = item.clone();
        old.remove("sessionEpoch");
        assert_eq!(User::try_from(&old).unwrap().session_epoch, 0);
    }
}
