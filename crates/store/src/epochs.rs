//! Whether an access token's session epoch is still its user's: the check every protected
//! request makes (`http::auth::Caller`), so that a password change, a reset, an e-mail or
//! role change or "log out everywhere" (each moves the profile's `sessionEpoch`, see
//! [`super::sessions`]) ends the access tokens issued before within
//! [`EPOCH_MAX_AGE`], not only the refresh tokens.
//!
//! Each instance keeps the epochs it read, per user, for at most [`EPOCH_MAX_AGE`]: a
//! caller's requests within it cost no read, and the first after it one strongly
//! consistent `GetItem` of the profile's epoch alone. The writes of this store that move an
//! epoch drop the user's entry at once, so the instance that ended the sessions refuses
//! their tokens from its next request; other instances within [`EPOCH_MAX_AGE`].

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::attr::get_opt_u64;
use super::keys::{user_pk, PROFILE};
use super::{batch, sdk_error, Store, StoreResult};

/// How old a cached epoch may be: the longest an ended session's access token still works
/// on an instance that did not end it.
pub const EPOCH_MAX_AGE: Duration = Duration::from_secs(5);

/// At most this many users' epochs are kept per instance (a Lambda instance serves one
/// request at a time and holds a handful; the local server serves everyone).
const MAX_ENTRIES: usize = 10_000;

/// What a profile read said: its epoch, or that there is no profile (a deleted user,
/// whose tokens reach nothing anyway: every handler finds nothing of theirs, and the
/// repeated `DELETE` that finishes a long purge needs them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stored {
    Epoch(u64),
    NoProfile,
}

/// Each user's stored epoch, as this instance last read it, and when.
#[derive(Clone, Debug, Default)]
pub(crate) struct EpochCache(Arc<Mutex<HashMap<u64, (Stored, Instant)>>>);

impl EpochCache {
    /// The user's epoch as read less than [`EPOCH_MAX_AGE`] ago.
    fn fresh(&self, user_id: u64, now: Instant) -> Option<Stored> {
        let cache = self.0.lock().unwrap_or_else(|e| e.into_inner());
        cache
            .get(&user_id)
            .filter(|(_, at)| now.saturating_duration_since(*at) < EPOCH_MAX_AGE)
            .map(|(stored, _)| *stored)
    }

    /// Keeps what was read at `at`; when full, the stale entries go first, and if all are
    /// fresh, all of them (they are re-read on need).
    fn put(&self, user_id: u64, stored: Stored, at: Instant) {
        let mut cache = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if cache.len() >= MAX_ENTRIES && !cache.contains_key(&user_id) {
            cache.retain(|_, (_, read)| at.saturating_duration_since(*read) < EPOCH_MAX_AGE);
            if cache.len() >= MAX_ENTRIES {
                cache.clear();
            }
        }
        cache.insert(user_id, (stored, at));
    }

    fn forget(&self, user_id: u64) {
        let mut cache = self.0.lock().unwrap_or_else(|e| e.into_inner());
        cache.remove(&user_id);
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.0.lock().map(|c| c.len()).unwrap_or(0)
    }
}

/// Whether a token of `epoch` stands against what was stored: epochs only grow, so a
/// token behind the profile's is of an ended session. `None`: the read may be stale
/// (the token is ahead of it: a login after a change this instance has not seen yet).
fn stands(epoch: u64, stored: Stored) -> Option<bool> {
    match stored {
        Stored::NoProfile => Some(true),
        Stored::Epoch(e) if epoch == e => Some(true),
        Stored::Epoch(e) if epoch < e => Some(false),
        Stored::Epoch(_) => None,
    }
}

impl Store {
    /// True when a token issued in session epoch `epoch` is still of a live session of
    /// the user: from this instance's cache when it read the epoch less than
    /// [`EPOCH_MAX_AGE`] ago, else by one `GetItem` of the profile's epoch.
    pub async fn session_is_current(&self, user_id: u64, epoch: u64) -> StoreResult<bool> {
        let now = Instant::now();
        if let Some(verdict) = self
            .epochs
            .fresh(user_id, now)
            .and_then(|s| stands(epoch, s))
        {
            return Ok(verdict);
        }
        let stored = self.read_epoch(user_id).await?;
        self.epochs.put(user_id, stored, now);
        // Read just now and still behind the token: not a session of this profile.
        Ok(stands(epoch, stored).unwrap_or(false))
    }

    /// Drops this instance's cached epoch of the user: called by every write that moves
    /// it, so that this instance refuses the ended sessions' tokens at once.
    pub fn forget_session_epoch(&self, user_id: u64) {
        self.epochs.forget(user_id);
    }

    /// The profile's epoch alone (profiles written before epochs existed are at 0).
    async fn read_epoch(&self, user_id: u64) -> StoreResult<Stored> {
        let out = self
            .client
            .get_item()
            .table_name(&self.table)
            .set_key(Some(batch::key(&user_pk(user_id), PROFILE)))
            .projection_expression("PK, sessionEpoch")
            .consistent_read(true)
            .send()
            .await
            .map_err(sdk_error)?;
        Ok(match out.item {
            Some(item) if !item.is_empty() => {
                Stored::Epoch(get_opt_u64(&item, "sessionEpoch").unwrap_or(0))
            }
            _ => Stored::NoProfile,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_stands_at_the_stored_epoch_only_and_a_newer_one_is_read_again() {
        assert_eq!(stands(3, Stored::Epoch(3)), Some(true));
        assert_eq!(stands(2, Stored::Epoch(3)), Some(false));
        assert_eq!(stands(4, Stored::Epoch(3)), None);
        assert_eq!(stands(7, Stored::NoProfile), Some(true));
    }

    #[test]
    fn entries_are_fresh_for_the_max_age_only() {
        let cache = EpochCache::default();
        let at = Instant::now();
        cache.put(1, Stored::Epoch(2), at);
        assert_eq!(cache.fresh(1, at), Some(Stored::Epoch(2)));
        let almost = at + EPOCH_MAX_AGE - Duration::from_millis(1);
        assert_eq!(cache.fresh(1, almost), Some(Stored::Epoch(2)));
        assert_eq!(cache.fresh(1, at + EPOCH_MAX_AGE), None);
        cache.forget(1);
        assert_eq!(cache.fresh(1, at), None);
    }

    #[test]
    fn the_cache_stays_bounded() {
        let cache = EpochCache::default();
        let old = Instant::now();
        for id in 0..MAX_ENTRIES as u64 {
            cache.put(id, Stored::Epoch(0), old);
        }
        assert_eq!(cache.len(), MAX_ENTRIES);
        // Full of stale entries: they make room.
        let later = old + EPOCH_MAX_AGE;
        cache.put(u64::MAX, Stored::Epoch(1), later);
        assert_eq!(cache.len(), 1);
        // Full of fresh ones: all go.
        let cache = EpochCache::default();
        for id in 0..MAX_ENTRIES as u64 {
            cache.put(id, Stored::Epoch(0), later);
        }
        cache.put(u64::MAX - 1, Stored::Epoch(1), later);
        assert_eq!(cache.len(), 1);
        assert_eq!(cache.fresh(u64::MAX - 1, later), Some(Stored::Epoch(1)));
    }
}
