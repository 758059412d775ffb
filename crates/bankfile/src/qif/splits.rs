//! A QIF record's split lines, as Quicken and GnuCash write them after the record's own
//! lines: each part opens with `S` (its category, `[Account]` for a transfer, `/class`
//! dropped, like `L`), then `E` (its memo), `$` (its amount, signed like `T`) and, from
//! some banks and Quicken versions, `%` (its share of the total in percent). A part
//! without `$` takes its `%` of the total (to the cent); one without either is the row's
//! error, as are parts that do not add up to the total. A part of 0.00 is left out; a
//! record of fewer than two parts left is a plain row (Quicken writes one split line for
//! a single category).

use rust_decimal::{Decimal, RoundingStrategy};

use crate::amount;
use crate::SplitLine;

/// A split line as read, before its amount is parsed.
#[derive(Default)]
pub(super) struct RawSplit {
    category: Option<String>,
    memo: Option<String>,
    amount: Option<String>,
    percent: Option<String>,
}

/// Takes a split line (`S`, `E`, `$`, `%`) into the record's parts; whether it was one.
pub(super) fn take_line(parts: &mut Vec<RawSplit>, code: char, value: &str) -> bool {
    let value = value.to_owned();
    // A part opens with `S`; GnuCash and some banks leave it out of an uncategorized
    // part, which then opens with the first line its predecessor already has.
    let open = |parts: &mut Vec<RawSplit>, taken: fn(&RawSplit) -> bool| {
        if parts.last().is_none_or(taken) {
            parts.push(RawSplit::default());
        }
    };
    match code {
        'S' => parts.push(RawSplit {
            category: Some(value),
            ..RawSplit::default()
        }),
        'E' => {
            open(parts, |p| p.memo.is_some() || p.amount.is_some());
            if let Some(p) = parts.last_mut() {
                p.memo = Some(value);
            }
        }
        '$' => {
            open(parts, |p| p.amount.is_some());
            if let Some(p) = parts.last_mut() {
                p.amount = Some(value);
            }
        }
        '%' => {
            open(parts, |p| p.percent.is_some());
            if let Some(p) = parts.last_mut() {
                p.percent = Some(value);
            }
        }
        _ => return false,
    }
    true
}

/// The parts of a row of `total` (already inverted when `invert`), or why they are wrong.
pub(super) fn parts(
    raw: &[RawSplit],
    total: Decimal,
    decimal: char,
    invert: bool,
) -> Result<Vec<SplitLine>, String> {
    if raw.len() < 2 {
        return Ok(Vec::new());
    }
    let mut parts = Vec::with_capacity(raw.len());
    let mut sum = Decimal::ZERO;
    for (i, p) in raw.iter().enumerate() {
        let mut value = match (&p.amount, &p.percent) {
            (Some(a), _) => amount::parse(a, decimal)
                .map(|a| a.value)
                .map_err(|m| format!("part {}: $ {m}", i + 1))?,
            (None, Some(pct)) => {
                let pct = amount::parse(pct.trim_end_matches('%'), decimal)
                    .map_err(|m| format!("part {}: % {m}", i + 1))?
                    .value;
                let share = total * pct / Decimal::ONE_HUNDRED;
                let share = share.round_dp_with_strategy(2, RoundingStrategy::MidpointAwayFromZero);
                if invert {
                    -share
                } else {
                    share
                }
            }
            (None, None) => return Err(format!("part {} has no $ amount", i + 1)),
        };
        if invert {
            value = -value;
        }
        sum += value;
        parts.push(SplitLine {
            amount: value,
            category: p.category.as_deref().and_then(super::category),
            note: p.memo.clone().filter(|m| !m.is_empty()),
        });
    }
    if sum != total {
        return Err(format!(
            "the split's parts add up to {sum}, not to the total {total}"
        ));
    }
    // A part of 0.00 (finanzmanager's `E50% for Africa` / `$0.00`) moves nothing: left out;
    // a split of fewer parts then is a plain row.
    parts.retain(|p| !p.amount.is_zero());
    if parts.len() < 2 {
        parts.clear();
    }
    Ok(parts)
}
