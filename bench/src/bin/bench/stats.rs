//! Timing: percentiles of samples, and an endpoint measured side by side with its raw
//! calls, interleaved round by round so neither side profits from the other's warm-up
//! (DynamoDB Local's JIT, caches) or suffers the machine's drift.

use std::future::Future;
use std::time::{Duration, Instant};

/// Untimed rounds before measuring, per side.
pub const WARMUP: usize = 20;
/// Timed rounds, per side.
pub const ROUNDS: usize = 300;

/// The median and the 99th percentile of a set of samples.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    pub p50: Duration,
    pub p99: Duration,
}

impl Stats {
    pub fn of(mut samples: Vec<Duration>) -> Self {
        samples.sort_unstable();
        let at = |q: f64| {
            let i = ((samples.len() as f64 * q).ceil() as usize).saturating_sub(1);
            samples.get(i).copied().unwrap_or_default()
        };
        Self {
            p50: at(0.5),
            p99: at(0.99),
        }
    }

    pub fn p50_ms(&self) -> f64 {
        self.p50.as_secs_f64() * 1e3
    }

    pub fn p99_ms(&self) -> f64 {
        self.p99.as_secs_f64() * 1e3
    }
}

async fn timed<Fut: Future<Output = ()>>(f: Fut) -> Duration {
    let start = Instant::now();
    f.await;
    start.elapsed()
}

/// Measures `api` and `raw` in alternation: after [`WARMUP`] untimed rounds of each,
/// [`ROUNDS`] rounds that run one then the other, the order swapped every round. Each
/// closure gets its round number (0.. WARMUP + ROUNDS), e.g. to pick a fresh fixture.
pub async fn pair<A, AF, R, RF>(mut api: A, mut raw: R) -> (Stats, Stats)
where
    A: FnMut(usize) -> AF,
    AF: Future<Output = ()>,
    R: FnMut(usize) -> RF,
    RF: Future<Output = ()>,
{
    for i in 0..WARMUP {
        api(i).await;
        raw(i).await;
    }
    let (mut a, mut r) = (Vec::with_capacity(ROUNDS), Vec::with_capacity(ROUNDS));
    for i in WARMUP..WARMUP + ROUNDS {
        if i % 2 == 0 {
            a.push(timed(api(i)).await);
            r.push(timed(raw(i)).await);
        } else {
            r.push(timed(raw(i)).await);
            a.push(timed(api(i)).await);
        }
    }
    (Stats::of(a), Stats::of(r))
}

/// Measures one thing alone: [`WARMUP`] untimed rounds, then [`ROUNDS`] timed ones.
pub async fn single<F, Fut>(mut f: F) -> Stats
where
    F: FnMut(usize) -> Fut,
    Fut: Future<Output = ()>,
{
    for i in 0..WARMUP {
        f(i).await;
    }
    let mut samples = Vec::with_capacity(ROUNDS);
    for i in WARMUP..WARMUP + ROUNDS {
        samples.push(timed(f(i)).await);
    }
    Stats::of(samples)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_are_order_statistics() {
        let samples: Vec<Duration> = (1..=100).rev().map(Duration::from_millis).collect();
        let s = Stats::of(samples);
        assert_eq!(s.p50, Duration::from_millis(50));
        assert_eq!(s.p99, Duration::from_millis(99));
        let one = Stats::of(vec![Duration::from_millis(7)]);
        assert_eq!(
            (one.p50, one.p99),
            (Duration::from_millis(7), Duration::from_millis(7))
        );
    }
}
