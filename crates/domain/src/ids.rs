//! Identifiers: positive integers below 2^53, unique without a shared counter.
//!
//! An id is the milliseconds since 2024-01-01 (41 bits, good until 2093) followed by
//! 12 random bits. Every create writes its item conditionally on the id being free,
//! so a collision is retried rather than overwriting, and no item is written by all
//! creates (a global counter would be a hot key). Ids grow with time and so are never
//! handed out again once the millisecond has passed.

use rand::Rng;

const EPOCH_MS: u64 = 1_704_067_200_000; // 2024-01-01T00:00:00Z
const RANDOM_BITS: u32 = 12;

/// Largest id a JavaScript client can hold exactly.
pub const MAX_SAFE_ID: u64 = (1 << 53) - 1;

pub fn new_id() -> u64 {
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(EPOCH_MS);
    let since = now_ms.saturating_sub(EPOCH_MS) & ((1 << 41) - 1);
    let random: u64 = rand::rng().random_range(0..(1 << RANDOM_BITS));
    // Never 0: ids are positive.
    ((since << RANDOM_BITS) | random).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_positive_js_safe_and_increase_over_time() {
        let a = new_id();
        std::thread::sleep(std::time::Duration::from_millis(2));
        let b = new_id();
        assert!(a > 0 && a <= MAX_SAFE_ID && b <= MAX_SAFE_ID);
        assert!(b > a);
    }
}
