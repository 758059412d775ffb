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

/// Throughput and latency against concurrency.
pub fn load(path: &Path, runs: &[Run]) -> anyhow::Result<()> {
    font()?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let root = BitMapBackend::new(path, (1100, 450)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let (left, right) = root.split_horizontally(550);
    let xs: Vec<f64> = runs.iter().map(|r| (r.concurrency as f64).log2()).collect();
    let x_max = xs.iter().copied().fold(1.0, f64::max) + 0.5;
    let label = |x: &f64| format!("{}", 2f64.powf(*x).round());

    let top = runs.iter().map(Run::throughput).fold(1.0, f64::max) * 1.2;
    let mut chart = ChartBuilder::on(&left)
        .caption("Throughput (req/s)", ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(35)
        .y_label_area_size(55)
        .build_cartesian_2d(-0.5..x_max, 0f64..top)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("concurrent clients")
        .x_labels(runs.len())
        .x_label_formatter(&label)
        .draw()
        .map_err(err)?;
    let points: Vec<(f64, f64)> = xs
        .iter()
        .zip(runs)
        .map(|(x, r)| (*x, r.throughput()))
        .collect();
    chart
        .draw_series(LineSeries::new(points.clone(), BLUE.stroke_width(2)))
        .map_err(err)?;
    chart
        .draw_series(points.iter().map(|p| Circle::new(*p, 4, BLUE.filled())))
        .map_err(err)?;

    let top = runs.iter().map(|r| r.latency.p99_ms()).fold(1.0, f64::max) * 1.2;
    let mut chart = ChartBuilder::on(&right)
        .caption("Latency: p50 (blue), p99 (red), ms", ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(35)
        .y_label_area_size(55)
        .build_cartesian_2d(-0.5..x_max, 0f64..top)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("concurrent clients")
        .x_labels(runs.len())
        .x_label_formatter(&label)
        .draw()
        .map_err(err)?;
    for (color, pick) in [(BLUE, 0), (RED, 1)] {
        let points: Vec<(f64, f64)> = xs
            .iter()
            .zip(runs)
            .map(|(x, r)| {
                (
                    *x,
                    if pick == 0 {
                        r.latency.p50_ms()
                    } else {
                        r.latency.p99_ms()
                    },
                )
            })
            .collect();
        chart
            .draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))
            .map_err(err)?;
        chart
            .draw_series(points.iter().map(|p| Circle::new(*p, 4, color.filled())))
            .map_err(err)?;
    }
    root.present().map_err(err)?;
    Ok(())
}
