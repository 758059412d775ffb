//! The request and response bodies more than one function speaks: the sync's changes and
//! the JSON export carry the same answers as each resource's own `GET`.

pub mod categories;
pub mod labels;
pub mod recurring;
pub mod rules;
pub mod splits;
pub mod transactions;
pub mod wallet;
