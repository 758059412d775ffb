//! What a million calls of each endpoint cost at AWS list prices (`bench::prices`), from
//! the units DynamoDB reported and the handler time measured, and the same for a mixed
//! workload. Exact decimals, as everything that is money here.

use bench::prices::{Cost, MEMORY_MB};
use rust_decimal::Decimal;

use super::endpoints::Row;

/// Lambda bills whole milliseconds.
fn billed_ms(row: &Row) -> i64 {
    (row.api.p50.as_secs_f64() * 1e3).ceil() as i64
}

fn units(v: f64) -> Decimal {
    Decimal::try_from(v).unwrap_or_default()
}

/// Read units AWS bills for the transaction writes, from `docs/CAPACITY.md`: a key of
/// their `BatchGetItem` that does not exist costs the minimum (1 unit, strongly
/// consistent), where DynamoDB Local reports 0. Reads and queries of existing items are
/// billed as it reports them.
pub const AWS_READS: &[(&str, f64)] = &[
    // The wallet (with the feed head), the own category's key, the global copy.
    ("POST /api/transactions", 3.0),
    // The same and the stored transaction.
    ("PUT /api/transactions/{id}", 4.0),
    // The wallet and the stored transaction.
    ("DELETE /api/transactions/{id}", 2.0),
];

/// The units billed for one call: AWS's rules where DynamoDB Local departs from them.
/// Writes: every item of a `TransactWriteItems` 2 units per KB, its `ConditionCheck`s and
/// local-index copies included, counted from the calls sent ([`Units::aws_write`]);
/// DynamoDB Local reports less (no index copies, no condition checks).
///
/// [`Units::aws_write`]: super::meter::Units::aws_write
pub fn billed_units(row: &Row) -> (f64, f64) {
    let read = AWS_READS
        .iter()
        .find(|(e, _)| *e == row.endpoint)
        .map_or(row.units.read, |(_, r)| r.max(row.units.read));
    (read, row.units.aws_write())
}

pub fn of(row: &Row) -> Cost {
    let (read, write) = billed_units(row);
    Cost::per_million(MEMORY_MB, billed_ms(row), units(read), units(write))
}

/// The share of each endpoint in the mixed workload (percent): a client that lists and
/// reads far more than it writes.
pub const MIX: &[(&str, u32)] = &[
    ("GET /api/transactions?limit=50", 25),
    ("GET /api/wallet", 15),
    ("GET /api/transactions/{id}", 10),
    ("GET /api/categories", 10),
    ("POST /api/transactions", 15),
    ("PUT /api/transactions/{id}", 5),
    ("DELETE /api/transactions/{id}", 3),
    ("GET /api/tags", 5),
    ("GET /api/providers", 5),
    ("GET /users/me", 5),
    ("GET /api/insights/monthly (36 months)", 2),
];

/// The mixed workload's cost per million calls, if every endpoint of [`MIX`] was measured.
pub fn mix(rows: &[Row]) -> Option<Decimal> {
    let mut total = Decimal::ZERO;
    for (endpoint, share) in MIX {
        let row = rows.iter().find(|r| r.endpoint == *endpoint)?;
        total += of(row).total() * Decimal::from(*share) / Decimal::from(100);
    }
    Some(total)
}

pub fn table(rows: &[Row]) -> String {
    let mut out = String::from("## Cost per million calls\n\n");
    out.push_str(&format!(
        "AWS list prices: API Gateway HTTP API $1.00/M; Lambda arm64 $0.20/M + $0.0000133334 per GB-s at {MEMORY_MB} MB, \
         billed on the measured endpoint p50 rounded up to the millisecond (DynamoDB Local's latency stands in for DynamoDB's); \
         DynamoDB on demand $0.125/M read units, $0.625/M write units. Units are those DynamoDB Local reported \
         (`ReturnConsumedCapacity`), except for the transaction writes, where AWS bills more than DynamoDB Local reports \
         (every item of a `TransactWriteItems` twice, its local-index copies and condition checks included; \
         see [docs/CAPACITY.md](docs/CAPACITY.md)): those are billed as AWS would.\n\n"
    ));
    out.push_str("| endpoint | billed ms | RCU / WCU reported by DynamoDB Local | RCU / WCU billed by AWS | API Gateway | Lambda | DynamoDB | total $/M |\n|---|---|---|---|---|---|---|---|\n");
    for row in rows {
        let c = of(row);
        let (read, write) = billed_units(row);
        out.push_str(&format!(
            "| `{}` | {} | {} / {} | {read} / {write} | {:.2} | {:.4} | {:.4} | **{:.4}** |\n",
            row.endpoint,
            billed_ms(row),
            row.units.read,
            row.units.write,
            c.api_gateway,
            c.lambda,
            c.dynamodb,
            c.total()
        ));
    }
    if let Some(m) = mix(rows) {
        let shares: Vec<String> = MIX.iter().map(|(e, s)| format!("{s}% `{e}`")).collect();
        out.push_str(&format!(
            "\nMixed workload ({}): **${:.4} per million calls** (budget $2.00).\n",
            shares.join(", "),
            m.round_dp(4)
        ));
    }
    out
}
