//! Shared code of every function: domain, DynamoDB store, HTTP glue, auth, config.
//!
//! Layers point inward: `http` and `store` use `domain`; `domain` uses neither.

pub mod auth;
pub mod config;
pub mod domain;
pub mod http;
pub mod lambda;
pub mod store;
