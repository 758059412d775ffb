//! DynamoDB items of the domain entities: each converts to an item and back with
//! `TryFrom<&Item>`, failing (never panicking) on an item that is not one.

pub mod category;
pub mod transaction;
pub mod user;
pub mod wallet;
