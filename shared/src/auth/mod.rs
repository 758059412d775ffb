//! Authentication primitives: password hashing and access tokens.

pub mod password;
pub mod token;
