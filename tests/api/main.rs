//! Black-box API tests: real HTTP against the whole API on DynamoDB Local.

mod accounts;
mod auth;
mod bank_files;
mod calls;
mod concurrency;
mod deletion;
mod docs;
mod helpers;
mod iam_calls;
mod import_jobs;
mod imports;
mod insights;
mod integrity;
mod lambda;
mod lists;
mod matrix;
mod recurring;
mod resources;
mod rules;
mod security;
mod shards;
mod sync;
mod sync_resources;
mod tokens;
mod transactions;
mod users;
