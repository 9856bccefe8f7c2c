//! The SVG chart (plotters, SVG backend): on top, µs/puzzle of each dataset (best round) as
//! horizontal bars on a log scale; below, each dataset's per-puzzle solve time distribution as a
//! cumulative curve (share of puzzles solved within x µs, x on a log scale).

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{Exporter, Report, ReportError, usec};

/// Draws the report as an SVG chart.
#[derive(Debug, Clone, Copy, Default)]
pub struct SvgExporter;

const WIDTH: u32 = 960;
const BAR_HEIGHT: u32 = 30;
const DISTRIBUTION_HEIGHT: u32 = 420;
const FONT: &str = "sans-serif";

impl Exporter for SvgExporter {
    fn serialize(&self, report: &Report) -> Result<Vec<u8>, ReportError> {
        let bars = 110 + BAR_HEIGHT * report.datasets.len().max(1) as u32;
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (WIDTH, bars + DISTRIBUTION_HEIGHT))
                .into_drawing_area();
            root.fill(&WHITE).map_err(fail)?;
            let (top, bottom) = root.split_vertically(bars);
            draw_bars(&top, report)?;
            draw_distribution(&bottom, report)?;
            root.present().map_err(fail)?;
        }
        svg.push('\n');
        Ok(svg.into_bytes())
    }
}

fn fail(e: impl std::fmt::Display) -> ReportError {
    ReportError::Svg(e.to_string())
}

/// A log axis range around the positive values, from power of ten to power of ten (so the axis
/// labels fall on 1, 10, 100, ... and never crowd), at least one decade wide.
fn log_range(values: impl Iterator<Item = f64>) -> std::ops::Range<f64> {
    let (lo, hi) = values
        .filter(|v| v.is_finite() && *v > 0.0)
        .fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)));
    if lo > hi {
        return 0.1..10.0;
    }
    let low = lo.log10().floor();
    let high = hi.log10().ceil().max(low + 1.0);
    10f64.powf(low)..10f64.powf(high)
}

/// An axis number as short as it can be written: 10, not 10.0.
fn axis_number(v: &f64) -> String {
    format!("{v}")
}

fn draw_bars<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    report: &Report,
) -> Result<(), ReportError> {
    let data = &report.datasets;
    let n = data.len();
    let range = log_range(data.iter().map(|d| d.usec_per_puzzle));
    let names: Vec<&str> = data.iter().map(|d| d.name.as_str()).collect();
    let threads = report.run.threads;
    let caption = format!(
        "µs per puzzle, best round (log scale), {} thread{}, limit {}",
        threads,
        if threads == 1 { "" } else { "s" },
        report.run.limit
    );
    let mut chart = ChartBuilder::on(area)
        .caption(caption, (FONT, 20))
        .margin(12)
        .margin_right(36)
        .x_label_area_size(36)
        .y_label_area_size(260)
        // a segmented 0..k has k + 1 slots (0 to k inclusive), one per dataset; 0..0 would draw
        // nothing, so a single dataset gets an empty slot above it
        .build_cartesian_2d(
            range.clone().log_scale(),
            (0..n.saturating_sub(1).max(1)).into_segmented(),
        )
        .map_err(fail)?;
    // the first dataset on top
    let slot = |i: usize| n - 1 - i;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(n.max(1))
        .y_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) if *i < n => names[slot(*i)].to_string(),
            _ => String::new(),
        })
        .x_label_formatter(&axis_number)
        .x_desc("µs/puzzle")
        .label_style((FONT, 14))
        .draw()
        .map_err(fail)?;
    chart
        .draw_series(data.iter().enumerate().map(|(i, d)| {
            let y = slot(i);
            let mut bar = Rectangle::new(
                [
                    (range.start, SegmentValue::Exact(y)),
                    (
                        d.usec_per_puzzle.max(range.start),
                        SegmentValue::Exact(y + 1),
                    ),
                ],
                Palette99::pick(i).filled(),
            );
            bar.set_margin(4, 4, 0, 0);
            bar
        }))
        .map_err(fail)?;
    chart
        .draw_series(data.iter().enumerate().map(|(i, d)| {
            Text::new(
                match d.puzzles {
                    0 => " no puzzle".to_string(),
                    _ => format!(" {}", usec(d.usec_per_puzzle)),
                },
                (
                    d.usec_per_puzzle.max(range.start),
                    SegmentValue::CenterOf(slot(i)),
                ),
                (FONT, 13).into_font(),
            )
        }))
        .map_err(fail)?;
    Ok(())
}

fn draw_distribution<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    report: &Report,
) -> Result<(), ReportError> {
    let data = &report.datasets;
    let range = log_range(data.iter().flat_map(|d| d.quantiles_usec.iter().copied()));
    let mut chart = ChartBuilder::on(area)
        .caption(
            "Per-puzzle solve time distribution (each puzzle timed alone)",
            (FONT, 20),
        )
        .margin(12)
        .margin_right(36)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(range.clone().log_scale(), 0.0..100.0)
        .map_err(fail)?;
    chart
        .configure_mesh()
        .x_label_formatter(&axis_number)
        .x_desc("µs per puzzle")
        .y_desc("% of puzzles solved within")
        .label_style((FONT, 14))
        .draw()
        .map_err(fail)?;
    for (i, d) in data.iter().enumerate() {
        let last = d.quantiles_usec.len().saturating_sub(1).max(1) as f64;
        let points = d
            .quantiles_usec
            .iter()
            .enumerate()
            .map(|(q, &v)| (v.max(range.start), q as f64 * 100.0 / last));
        let color = Palette99::pick(i);
        chart
            .draw_series(LineSeries::new(points, color.stroke_width(2)))
            .map_err(fail)?
            .label(d.name.clone())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
            });
    }
    if !data.is_empty() {
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .label_font((FONT, 13))
            .draw()
            .map_err(fail)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::tests::sample;
    use super::*;

    #[test]
    fn chart_names_every_dataset_and_is_deterministic() {
        let report = sample();
        let a = SvgExporter.serialize(&report).unwrap();
        let text = String::from_utf8(a.clone()).unwrap();
        assert!(text.starts_with("<svg"));
        assert!(text.trim_end().ends_with("</svg>"));
        for d in &report.datasets {
            // once as a bar label, once in the legend
            assert_eq!(text.matches(&d.name).count(), 2, "{}", d.name);
        }
        assert_eq!(a, SvgExporter.serialize(&report).unwrap());
    }

    #[test]
    fn chart_of_no_datasets_still_draws() {
        let mut report = sample();
        report.datasets.clear();
        assert!(SvgExporter.serialize(&report).is_ok());
    }

    #[test]
    fn log_range_ignores_zeros() {
        assert_eq!(log_range([0.0, 2.0, 80.0].into_iter()), 1.0..100.0);
        assert_eq!(log_range([0.0].into_iter()), 0.1..10.0);
        // one value on a power of ten still gets a decade
        assert_eq!(log_range([10.0].into_iter()), 10.0..100.0);
    }
}
