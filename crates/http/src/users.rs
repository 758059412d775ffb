//! The public shape of a user, shared by the auth and users functions.

use serde::Serialize;

use pf_domain::{Role, User};
use pf_store::accounts::UserSummary;

/// A user as the API shows it (never the password or its hash).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = User)]
pub struct UserResponse {
    pub id: u64,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub role: Role,
    /// `true` once the current e-mail was confirmed through the mailed link (or a password
    /// reset); an unverified account works all the same.
    pub email_verified: bool,
    /// UTC, `YYYY-MM-DDTHH:MM:SS`.
    #[schema(example = "2026-11-22T10:00:00")]
    pub created_at: String,
    #[schema(example = "2026-11-22T10:00:00")]
    pub updated_at: String,
}

impl From<&User> for UserResponse {
    fn from(u: &User) -> Self {
        Self {
            id: u.id,
            first_name: u.first_name.clone(),
            last_name: u.last_name.clone(),
            email: u.email.clone(),
            role: u.role,
            email_verified: u.email_verified,
            created_at: u.created_at.to_string(),
            updated_at: u.updated_at.to_string(),
        }
    }
}

impl From<UserSummary> for UserResponse {
    fn from(u: UserSummary) -> Self {
        Self {
            id: u.id,
            first_name: u.first_name,
            last_name: u.last_name,
            email: u.email,
            role: u.role,
            email_verified: u.email_verified,
            created_at: u.created_at,
            updated_at: u.updated_at,
        }
    }
}
