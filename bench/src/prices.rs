//! AWS list prices (us-east-1, arm64, on demand) and what a million calls cost by part.
//! Exact decimals, as everything that is money here.

use rust_decimal::Decimal;

/// The Lambda memory size of every function but the two that hash passwords
/// (`template.yaml` Globals).
pub const MEMORY_MB: i64 = 256;
/// The memory of auth and users (argon2's memory).
pub const HASHING_MEMORY_MB: i64 = 1024;

pub fn dec(text: &str) -> Decimal {
    text.parse().unwrap_or_default()
}

/// HTTP API, per million requests.
pub const API_GATEWAY_PER_MILLION: &str = "1.00";
/// Lambda, per million requests and per GB-second (arm64).
pub const LAMBDA_PER_MILLION: &str = "0.20";
pub const LAMBDA_PER_GB_SECOND: &str = "0.0000133334";
/// DynamoDB on demand, per million read and write request units.
pub const READ_PER_MILLION: &str = "0.125";
pub const WRITE_PER_MILLION: &str = "0.625";

/// US dollars per million calls, by part.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Cost {
    pub api_gateway: Decimal,
    pub lambda: Decimal,
    pub dynamodb: Decimal,
}

impl Cost {
    pub fn total(&self) -> Decimal {
        self.api_gateway + self.lambda + self.dynamodb
    }

    /// A million calls of a function of `memory_mb` billed `billed_ms` each, consuming
    /// `read` and `write` units each.
    pub fn per_million(memory_mb: i64, billed_ms: i64, read: Decimal, write: Decimal) -> Self {
        let million = Decimal::from(1_000_000);
        let gb_seconds = Decimal::from(billed_ms) / Decimal::from(1000) * Decimal::from(memory_mb)
            / Decimal::from(1024)
            * million;
        Self {
            api_gateway: dec(API_GATEWAY_PER_MILLION),
            lambda: dec(LAMBDA_PER_MILLION) + gb_seconds * dec(LAMBDA_PER_GB_SECOND),
            dynamodb: read * dec(READ_PER_MILLION) + write * dec(WRITE_PER_MILLION),
        }
    }

    /// This cost scaled by `share` (e.g. a share of a workload, or calls per million).
    pub fn times(&self, share: Decimal) -> Self {
        Self {
            api_gateway: self.api_gateway * share,
            lambda: self.lambda * share,
            dynamodb: self.dynamodb * share,
        }
    }

    pub fn plus(&self, o: &Cost) -> Self {
        Self {
            api_gateway: self.api_gateway + o.api_gateway,
            lambda: self.lambda + o.lambda,
            dynamodb: self.dynamodb + o.dynamodb,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_million_calls_add_up_exactly() {
        // 10 ms at 256 MB: 2,500 GB-s = $0.033333500; one read unit: $0.125.
        let c = Cost::per_million(MEMORY_MB, 10, Decimal::ONE, Decimal::ZERO);
        assert_eq!(c.lambda, dec("0.2333335"));
        assert_eq!(c.dynamodb, dec("0.125"));
        assert_eq!(c.total(), dec("1.3583335"));
        // A transactional write of two items: 4 write units, $2.50.
        assert_eq!(
            Cost::per_million(MEMORY_MB, 0, Decimal::ZERO, Decimal::from(4)).dynamodb,
            dec("2.500")
        );
    }
}
