//! Roles: everyone registers as USER; an operator makes the first ADMIN with the `admin`
//! command (AWS credentials, never an HTTP call), admins promote others.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Role {
    User,
    Admin,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::User => "USER",
            Role::Admin => "ADMIN",
        }
    }
}
