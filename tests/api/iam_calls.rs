//! The IAM actions the API tests' DynamoDB calls needed, per function (recorded by the
//! store's call counter, see `shared::store::counter`): each app adds its own when it is
//! dropped to the file `DYNAMODB_CALLS_OUT` names. `make test` sets it, then holds every
//! action against the function's policy in template.yaml (`check_template.py --calls`).

use std::collections::BTreeSet;
use std::sync::Mutex;

use shared::store::counter::Action;

use crate::helpers::TestApp;

/// Every action seen by this test process so far.
static SEEN: Mutex<BTreeSet<Action>> = Mutex::new(BTreeSet::new());

impl Drop for TestApp {
    fn drop(&mut self) {
        let Some(path) = std::env::var_os("DYNAMODB_CALLS_OUT") else {
            return;
        };
        let Ok(mut seen) = SEEN.lock() else {
            return;
        };
        let before = seen.len();
        seen.extend(self.state.store.calls().actions());
        if seen.len() == before {
            return;
        }
        let written = serde_json::to_vec_pretty(&*seen)
            .map_err(std::io::Error::other)
            .and_then(|json| std::fs::write(&path, json));
        if let Err(e) = written {
            eprintln!("DYNAMODB_CALLS_OUT {path:?}: {e}");
        }
    }
}
