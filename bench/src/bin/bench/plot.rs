//! The report's plots (PNG, drawn with plotters; the text in DejaVu Sans, from Debian's
//! fonts-dejavu-core, which `scripts/bench.sh` installs when missing).

use std::path::Path;

use plotters::prelude::*;

use super::endpoints::Row;
use super::load::Run;

const FONTS: [&str; 2] = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
];

fn font() -> anyhow::Result<()> {
    static DONE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    let ok = DONE.get_or_init(|| {
        FONTS
            .iter()
            .find_map(|p| std::fs::read(p).ok())
            .is_some_and(|bytes| {
                let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
                plotters::style::register_font("sans-serif", FontStyle::Normal, bytes).is_ok()
            })
    });
    anyhow::ensure!(*ok, "no font for the plots: install fonts-dejavu-core");
    Ok(())
}

fn err(e: impl std::fmt::Display) -> anyhow::Error {
    anyhow::anyhow!("plot: {e}")
}

/// Each endpoint's p50 next to its raw calls' p50, one pair of bars per endpoint.
pub fn endpoints(path: &Path, rows: &[Row]) -> anyhow::Result<()> {
    font()?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let max = rows
        .iter()
        .map(|r| r.api.p50_ms().max(r.raw.p50_ms()))
        .fold(1.0, f64::max)
        * 1.45;
    let n = rows.len() as f64;
    let root = BitMapBackend::new(path, (1100, 80 + 44 * rows.len() as u32)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "Warm p50: endpoint (blue) and its raw DynamoDB calls (grey), ms",
            ("sans-serif", 22),
        )
        .margin(12)
        .x_label_area_size(30)
        .y_label_area_size(10)
        .build_cartesian_2d(0f64..max, 0f64..n)
        .map_err(err)?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .disable_y_axis()
        .x_desc("milliseconds")
        .draw()
        .map_err(err)?;
    let blue = RGBColor(52, 101, 164);
    let grey = RGBColor(160, 160, 160);
    for (i, r) in rows.iter().enumerate() {
        let y = n - i as f64 - 1.0;
        chart
            .draw_series([
                Rectangle::new([(0.0, y + 0.52), (r.api.p50_ms(), y + 0.88)], blue.filled()),
                Rectangle::new([(0.0, y + 0.12), (r.raw.p50_ms(), y + 0.48)], grey.filled()),
            ])
            .map_err(err)?;
        let label = format!(
            "{}  {:.2} / {:.2} ms  ({:.2}×)",
            r.endpoint,
            r.api.p50_ms(),
            r.raw.p50_ms(),
            r.ratio()
        );
        chart
            .draw_series([Text::new(
                label,
                (r.api.p50_ms().max(r.raw.p50_ms()) + max * 0.01, y + 0.75),
                ("sans-serif", 15),
            )])
            .map_err(err)?;
    }
    root.present().map_err(err)?;
    Ok(())
}

/// One chart: its caption, the top of its y axis, and its lines with their colours.
type Panel<'a> = (&'a str, f64, Vec<(Vec<(f64, f64)>, RGBColor)>);

/// Throughput and latency against concurrency.
pub fn load(path: &Path, runs: &[Run]) -> anyhow::Result<()> {
    font()?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let root = BitMapBackend::new(path, (1100, 450)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let (left, right) = root.split_horizontally(550);
    let x = |r: &Run| (r.concurrency as f64).log2();
    let x_max = runs.iter().map(x).fold(1.0, f64::max) + 0.5;
    let label = |x: &f64| format!("{}", 2f64.powf(*x).round());
    let series = |reads_only: bool, y: fn(&Run) -> f64| -> Vec<(f64, f64)> {
        runs.iter()
            .filter(|r| r.reads_only == reads_only)
            .map(|r| (x(r), y(r)))
            .collect()
    };
    let lines: [Panel; 2] = [
        (
            "Throughput, req/s: mixed (blue), reads only (green)",
            runs.iter().map(Run::throughput).fold(1.0, f64::max) * 1.2,
            vec![
                (series(false, Run::throughput), BLUE),
                (series(true, Run::throughput), GREEN),
            ],
        ),
        (
            "Mixed workload latency, ms: p50 (blue), p99 (red)",
            runs.iter()
                .filter(|r| !r.reads_only)
                .map(|r| r.latency.p99_ms())
                .fold(1.0, f64::max)
                * 1.2,
            vec![
                (series(false, |r| r.latency.p50_ms()), BLUE),
                (series(false, |r| r.latency.p99_ms()), RED),
            ],
        ),
    ];
    for (area, (caption, top, lines)) in [left, right].iter().zip(lines) {
        let mut chart = ChartBuilder::on(area)
            .caption(caption, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(35)
            .y_label_area_size(55)
            .build_cartesian_2d(-0.5..x_max, 0f64..top)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("concurrent clients")
            .x_labels(super::load::CONCURRENCY.len())
            .x_label_formatter(&label)
            .draw()
            .map_err(err)?;
        for (points, color) in lines {
            chart
                .draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))
                .map_err(err)?;
            chart
                .draw_series(points.iter().map(|p| Circle::new(*p, 4, color.filled())))
                .map_err(err)?;
        }
    }
    root.present().map_err(err)?;
    Ok(())
}
