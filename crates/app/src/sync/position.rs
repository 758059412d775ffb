//! Where a sync continues: a snapshot phase and its last key, or a feed position; the
//! cursor a client holds encodes it.

use pf_store::feed::Phase;

/// Where a sync continues.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Position {
    /// Paging through the current items; then the changes after the feed heads read when
    /// the snapshot began.
    Snapshot {
        phase: Phase,
        after: Option<String>,
        user_seq: u64,
        global_seq: u64,
    },
    /// After these entries of the caller's feed and their shard's global one.
    Log {
        user_seq: u64,
        global_seq: u64,
        /// When the cursor was issued (epoch ms): older than the retention is gone.
        issued_ms: i64,
    },
}

impl Position {
    /// The cursor payload (sealed by the HTTP layer before it reaches a client).
    pub fn encode(&self) -> String {
        match self {
            Position::Snapshot {
                phase,
                after,
                user_seq,
                global_seq,
            } => format!(
                "s|{}|{}|{}|{}",
                phase.index(),
                user_seq,
                global_seq,
                after.as_deref().unwrap_or("")
            ),
            Position::Log {
                user_seq,
                global_seq,
                issued_ms,
            } => format!("l|{user_seq}|{global_seq}|{issued_ms}"),
        }
    }

    pub fn decode(text: &str) -> Option<Self> {
        let mut parts = text.splitn(5, '|');
        match parts.next()? {
            "s" => {
                let phase = *Phase::ALL.get(parts.next()?.parse::<usize>().ok()?)?;
                let user_seq = parts.next()?.parse().ok()?;
                let global_seq = parts.next()?.parse().ok()?;
                let after = parts.next()?;
                Some(Position::Snapshot {
                    phase,
                    after: (!after.is_empty()).then(|| after.to_owned()),
                    user_seq,
                    global_seq,
                })
            }
            "l" => Some(Position::Log {
                user_seq: parts.next()?.parse().ok()?,
                global_seq: parts.next()?.parse().ok()?,
                issued_ms: parts.next()?.parse().ok()?,
            }),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_survive_their_encoding() {
        let all = [
            Position::Snapshot {
                phase: Phase::Tags,
                after: Some("TAG#12".into()),
                user_seq: 4,
                global_seq: 9,
            },
            Position::Snapshot {
                phase: Phase::Profile,
                after: None,
                user_seq: 0,
                global_seq: 0,
            },
            Position::Log {
                user_seq: 17,
                global_seq: 3,
                issued_ms: 1_790_000_000_000,
            },
        ];
        for p in all {
            assert_eq!(Position::decode(&p.encode()), Some(p));
        }
        assert_eq!(Position::decode("x|1"), None);
        assert_eq!(Position::decode("s|99|0|0|"), None);
    }
}
