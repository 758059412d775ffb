//! Black-box API tests: real HTTP against the whole API on DynamoDB Local.

mod auth;
mod calls;
mod concurrency;
mod helpers;
mod lambda;
mod tokens;
mod transactions;
