//! `make bench`: the warm path of every endpoint through the local server (real HTTP on
//! loopback) interleaved with the raw DynamoDB calls it needs, against the same DynamoDB
//! Local, in one run; the read and write units and the cost per million calls of each;
//! the list with many other users' items in the table; a sync page against a list page
//! and an export page (and again with other users' items); a create's write units; insights over 36
//! months; an import with and without 200 rules, against its raw floor, and a 20,000-row
//! import by a job; the recurring job per 1,000 due
//! occurrences; a bounded load test at several concurrencies. Prints Markdown (the body of
//! BENCHMARKS.md) and draws `docs/bench/*.png`.
//!
//! `BENCH_ONLY=endpoints,insights,scale,sync,create,imports,recurring,load` runs some
//! sections only. Figures are reported, never
//! asserted.

mod cost;
mod decompose;
mod endpoints;
mod fixture;
mod import_floor;
mod imports;
mod insights;
mod load;
mod meter;
mod plot;
mod recurring;
mod stats;
mod sync;
mod writes;

use std::sync::atomic::Ordering;

fn wanted(section: &str) -> bool {
    match std::env::var("BENCH_ONLY") {
        Ok(only) => only.split(',').any(|s| s.trim() == section),
        Err(_) => true,
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let endpoint =
        std::env::var("DYNAMODB_ENDPOINT").map_err(|_| anyhow::anyhow!("set DYNAMODB_ENDPOINT"))?;
    if let Ok(base) = std::env::var("BENCH_BASE_URL") {
        // scripts/bench-import.sh: the import against its floor through a running server.
        println!("{}", import_floor::against(&base, &endpoint).await?);
        return Ok(());
    }
    let plots = std::path::PathBuf::from(
        std::env::var("BENCH_PLOTS").unwrap_or_else(|_| "docs/bench".into()),
    );
    let meter = meter::Meter::default();
    let state = fixture::state(&endpoint, &meter).await?;
    let listener = local::listen("127.0.0.1:0").await?;
    let base = format!("http://{}", axum::serve::Listener::local_addr(&listener)?);
    let app = local::app(state.clone());
    tokio::spawn(async move { axum::serve(listener, app).await });
    let http = reqwest::Client::new();
    let store = state.store.clone();
    let (user_id, token) = fixture::sign_up(&http, &base, "bench@example.com").await?;

    let mut rows = Vec::new();
    let mut decomposition = String::new();
    if wanted("endpoints") {
        let bench = endpoints::Bench {
            store: &store,
            meter: &meter,
            http: &http,
            base: &base,
            token: &token,
            user_id,
        };
        rows = bench.run().await?;
        decomposition = decompose::decompose(&bench, local::app(state.clone())).await?;
    }

    if wanted("insights") {
        let (insights_id, insights_token) =
            fixture::sign_up(&http, &base, "insights@example.com").await?;
        let fill_time = insights::fill(&store, insights_id).await?;
        let url = format!("{base}/api/insights/monthly?from=2024-01&to=2026-12");
        let get = || http.get(&url).bearer_auth(&insights_token);
        let (from, to) = insights::range()?;
        let store = &store;
        let (api, raw) = stats::pair(
            |_| endpoints::send(get()),
            |_| async move {
                // The endpoint's own calls: wallet and totals at once, then the names.
                let (_, totals) = tokio::join!(
                    store.get_wallet(insights_id),
                    store.month_totals(insights_id, from, to)
                );
                if let Ok(totals) = totals {
                    let keys: std::collections::BTreeSet<_> = totals
                        .items
                        .iter()
                        .map(|t| (t.category_global, t.category_id))
                        .collect();
                    let _ = store.categories_by_key(insights_id, keys).await;
                }
            },
        )
        .await;
        let units = meter.measure(endpoints::send(get())).await.0;
        let (query_units, totals) = insights::query_cost(store, insights_id).await?;
        let list_url = format!("{base}/api/transactions?limit=50");
        let list =
            stats::single(|_| endpoints::send(http.get(&list_url).bearer_auth(&insights_token)))
                .await;
        let list_units = meter
            .measure(endpoints::send(
                http.get(&list_url).bearer_auth(&insights_token),
            ))
            .await
            .0;
        rows.push(endpoints::Row {
            endpoint: "GET /api/insights/monthly (36 months)",
            calls: "GetItem ∥ Query (360 totals), then BatchGetItem",
            api,
            raw,
            units,
        });
        println!("## Insights over 36 months\n");
        println!(
            "A second user gets {} transactions over 36 months in 10 categories, written through the \
             store's batched transaction write in {:.1} s ({totals} monthly totals). \
             `GET /api/insights/monthly?from=2024-01&to=2026-12`: p50 {:.2} ms, its `Query` {query_units} RCU; \
             a list page of 50 of the same user: p50 {:.2} ms, {} RCU.\n",
            insights::TRANSACTIONS,
            fill_time.as_secs_f64(),
            api.p50_ms(),
            list.p50_ms(),
            list_units.read,
        );
    }

    if !rows.is_empty() {
        println!("## Warm path: endpoint against its raw DynamoDB calls\n");
        println!(
            "{} timed rounds per side after {} untimed, endpoint and raw calls interleaved (the order swapped every round).\n",
            stats::ROUNDS,
            stats::WARMUP
        );
        println!("| endpoint | raw calls | endpoint p50 | endpoint p99 | raw p50 | raw p99 | ratio (p50) | RCU | WCU |");
        println!("|---|---|---|---|---|---|---|---|---|");
        for r in &rows {
            println!(
                "| `{}` | {} | {:.2} ms | {:.2} ms | {:.2} ms | {:.2} ms | {:.2} | {} | {} |",
                r.endpoint,
                r.calls,
                r.api.p50_ms(),
                r.api.p99_ms(),
                r.raw.p50_ms(),
                r.raw.p99_ms(),
                r.ratio(),
                r.units.read,
                r.units.write
            );
        }
        println!();
        println!("{decomposition}");
        println!("{}", cost::table(&rows));
        plot::endpoints(&plots.join("endpoints.png"), &rows)?;
        println!("![endpoint p50 against raw calls](docs/bench/endpoints.png)\n");
    }

    if wanted("scale") {
        let url = format!("{base}/api/transactions?limit=50");
        let list = || endpoints::send(http.get(&url).bearer_auth(&token));
        let before = stats::single(|_| list()).await;
        let units_before = meter.measure(list()).await.0;
        let foreign = 20_000;
        fixture::foreign_items(&state, "USER#1", foreign).await?;
        let after = stats::single(|_| list()).await;
        let units_after = meter.measure(list()).await.0;
        println!("## A list with other users' data in the table\n");
        println!("| table | `GET /api/transactions?limit=50` p50 | p99 | RCU |");
        println!("|---|---|---|---|");
        println!(
            "| the user's own items | {:.2} ms | {:.2} ms | {} |",
            before.p50_ms(),
            before.p99_ms(),
            units_before.read
        );
        println!(
            "| plus {foreign} items of another user | {:.2} ms | {:.2} ms | {} |\n",
            after.p50_ms(),
            after.p99_ms(),
            units_after.read
        );
    }

    if wanted("sync") {
        sync::run(&state, &meter, &base, &http).await?;
        println!();
    }

    if wanted("create") {
        println!(
            "{}",
            writes::create_units(&http, &base, &token, &meter).await?
        );
    }

    if wanted("imports") {
        println!("{}", imports::run(&http, &base, &meter).await?);
        let (id, token) = fixture::sign_up(&http, &base, "import-floor@example.com").await?;
        let target = import_floor::Target {
            http: &http,
            base: &base,
            client: store.client(),
            meter: &meter,
            service_metered: true,
        };
        println!("{}", import_floor::run(&target, (id, &token)).await?);
    }

    if wanted("recurring") {
        println!("{}", recurring::run(&http, &base, &store, &meter).await?);
    }

    if wanted("load") {
        let runs = load::run(&http, &base).await?;
        println!("{}", load::table(&runs));
        plot::load(&plots.join("load.png"), &runs)?;
        println!("![throughput and latency by concurrency](docs/bench/load.png)\n");
    }

    let failed = endpoints::FAILED.load(Ordering::Relaxed);
    state
        .store
        .client()
        .delete_table()
        .table_name(state.store.table())
        .send()
        .await?;
    anyhow::ensure!(
        failed == 0,
        "{failed} benchmark requests failed: the figures are void"
    );
    Ok(())
}
