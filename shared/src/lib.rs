//! Shared code of every function: domain, DynamoDB store, HTTP glue, auth, config.
//!
//! Layers point inward: `http` parses and responds, `app` holds the rules and calls
//! `store`; all of them use `domain`, which uses none of them.

pub mod app;
pub mod auth;
pub mod config;
pub mod domain;
pub mod http;
pub mod lambda;
pub mod mail;
pub mod store;
