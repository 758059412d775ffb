//! The operator's role command: makes the first administrator (or removes one) by writing
//! the role straight into the table. It needs the table's credentials (AWS credentials in
//! AWS, the local endpoint locally), never an HTTP call: registration never grants a role.

use shared::domain::time::now_local_date_time;
use shared::domain::{Email, Role};
use shared::store::users::RoleChange;
use shared::store::Store;

pub const USAGE: &str = "usage: admin promote <email> | admin demote <email>";

/// Runs `promote <email>` or `demote <email>` against the store; returns what to print.
pub async fn run(store: &Store, args: &[String]) -> anyhow::Result<String> {
    let [command, email] = args else {
        anyhow::bail!(USAGE);
    };
    let role = match command.as_str() {
        "promote" => Role::Admin,
        "demote" => Role::User,
        _ => anyhow::bail!(USAGE),
    };
    let email = Email::parse(email).map_err(|e| anyhow::anyhow!("e-mail {e}"))?;
    let outcome = store
        .set_role_by_email(&email.normalized(), role, &now_local_date_time())
        .await?;
    let role = role.as_str();
    match outcome {
        RoleChange::Changed { user_id } => Ok(format!(
            "user {user_id} <{}> is now {role}; their sessions have ended",
            email.as_str()
        )),
        RoleChange::Unchanged { user_id } => Ok(format!(
            "user {user_id} <{}> was already {role}",
            email.as_str()
        )),
        RoleChange::NoSuchUser => anyhow::bail!(
            "no account is registered with {}: register it first, then promote it",
            email.as_str()
        ),
    }
}
