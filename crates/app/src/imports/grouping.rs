//! How a window of records is cut into chunks, each one `TransactWriteItems`: records
//! that move the same counters go together, so a call holds as many rows as it can.

use std::collections::HashSet;

use super::build::Record;
use pf_store::transact::MAX_TRANSACT_ITEMS;
use pf_store::transactions::{counters, Counter, IMPORT_TXN_ITEMS, IMPORT_WRITE_ITEMS};

/// A window's records in chunks that move few counters (monthly totals, use counts; see
/// [`counters`]): each chunk takes, one after the other, the earliest record that adds
/// the fewest counters the chunk does not move yet, while the chunk's items fit in one
/// `TransactWriteItems`. A bank file spread over months and payees row by row so fits
/// more rows a call than in file order.
pub(super) fn grouped(window: Vec<Record>) -> Vec<Vec<Record>> {
    let mut rest: Vec<(Record, Vec<Counter>)> = window
        .into_iter()
        .map(|r| {
            let moved = counters(&r.txn).collect();
            (r, moved)
        })
        .collect();
    let mut chunks = Vec::new();
    while !rest.is_empty() {
        let mut moved: HashSet<Counter> = HashSet::new();
        let mut items = IMPORT_WRITE_ITEMS;
        let mut chunk = Vec::new();
        loop {
            let added = |c: &[Counter]| c.iter().filter(|c| !moved.contains(c)).count();
            let mut best: Option<(usize, usize)> = None;
            for (at, (_, c)) in rest.iter().enumerate() {
                let n = added(c);
                if best.is_none_or(|(fewest, _)| n < fewest) {
                    best = Some((n, at));
                    if n == 0 {
                        break;
                    }
                }
            }
            let Some((n, at)) = best else { break };
            if !chunk.is_empty() && items + IMPORT_TXN_ITEMS + n > MAX_TRANSACT_ITEMS {
                break;
            }
            let (record, c) = rest.remove(at);
            items += IMPORT_TXN_ITEMS + n;
            moved.extend(c);
            chunk.push(record);
        }
        chunks.push(chunk);
    }
    chunks
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::imports::write::WINDOW;
    use pf_domain::Transaction;

    /// A window's records as a bench file has them: month, payee and tag go round row by
    /// row (12 months, 50 payees, 3 tags), one category.
    fn window(rows: usize) -> Vec<Record> {
        (0..rows)
            .map(|i| {
                let month = time::Month::try_from(1 + (i % 12) as u8).unwrap();
                let date = time::Date::from_calendar_date(2026, month, 1).unwrap();
                let mut txn = Transaction::example(date, 4, 100 + i as i64);
                txn.id = 1_000 + i as u64;
                txn.details.provider_id = Some((i % 50) as u64);
                txn.details.tag_ids = vec![(i % 3) as u64];
                Record {
                    row: i + 1,
                    txn,
                    import_id: format!("i{i}"),
                    uncategorized: false,
                }
            })
            .collect()
    }

    /// Items of a chunk as the store counts them.
    fn items(chunk: &[Record]) -> usize {
        let moved: HashSet<Counter> = chunk.iter().flat_map(|r| counters(&r.txn)).collect();
        IMPORT_WRITE_ITEMS + IMPORT_TXN_ITEMS * chunk.len() + moved.len()
    }

    #[test]
    fn a_window_is_cut_into_chunks_that_fit_and_share_counters_holding_each_record_once() {
        let chunks = grouped(window(WINDOW));
        let mut rows: Vec<usize> = chunks.iter().flatten().map(|r| r.row).collect();
        rows.sort_unstable();
        assert_eq!(rows, (1..=WINDOW).collect::<Vec<_>>());
        assert!(chunks
            .iter()
            .all(|c| !c.is_empty() && items(c) <= MAX_TRANSACT_ITEMS));
        // Every chunk but the last is full: no other record (3 counters at most) fits.
        for c in &chunks[..chunks.len() - 1] {
            assert!(
                items(c) + IMPORT_TXN_ITEMS + 3 > MAX_TRANSACT_ITEMS,
                "{}",
                items(c)
            );
        }
        // In file order, a chunk of the most records that fit.
        let (mut file_order, mut rest) = (0, window(WINDOW));
        while !rest.is_empty() {
            let fit = (1..=rest.len())
                .take_while(|&k| items(&rest[..k]) <= MAX_TRANSACT_ITEMS)
                .last()
                .unwrap();
            rest.drain(..fit);
            file_order += 1;
        }
        assert!(
            chunks.len() < file_order,
            "{} chunks, {file_order} in file order",
            chunks.len()
        );
    }

    #[test]
    fn a_record_that_moves_more_than_a_chunk_holds_is_a_chunk_of_its_own() {
        let mut records = window(3);
        records[1].txn.details.tag_ids = (0..200).collect();
        let chunks = grouped(records);
        assert_eq!(chunks.iter().map(Vec::len).sum::<usize>(), 3);
        assert!(chunks.iter().any(|c| c.len() == 1 && c[0].row == 2));
    }
}
