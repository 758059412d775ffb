//! Authentication primitives: password hashing and access tokens.

pub mod cursor;
pub mod password;
pub mod token;
