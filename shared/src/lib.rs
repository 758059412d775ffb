//! The facade of the layer crates (`crates/domain`, `config`, `auth`, `store`, `mail`,
//! `app`, `http`), re-exported under their old names for the tests, the local server and
//! the benches. The layers themselves live in their crates, each depending only on those
//! below it (docs/ARCHITECTURE.md).

pub use pf_app as app;
pub use pf_auth as auth;
pub use pf_config as config;
pub use pf_domain as domain;
pub use pf_http as http;
pub use pf_http::lambda;
pub use pf_mail as mail;
pub use pf_store as store;
