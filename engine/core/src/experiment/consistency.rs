//! The IO-consistency test [000, 002] and what is built on it: the per-second curve, the
//! spare-area sweep and the endurance projection [001].

use serde_json::json;

use super::measure::round;
use super::{label, ArticleDrive, Build, Definition, Measure, Point, Setup, Value};
use crate::bench::default_steady_from_s;
use crate::config::{Phase, RunConfig};
use crate::units::{ConfigError, NS_PER_S};

pub const IO_CONSISTENCY: Definition = Definition {
    id: "io-consistency",
    title: "IO consistency",
    article: "[000] S3700 review and [002] S3500 consistency page: 4 KB random write, QD32, every second",
    about: "Secure erase, sequential fill, then 4 KB random writes at QD32 over the whole span, IOPS \
            recorded every second. Three views of the same run: all of it on a log axis, and from \
            t = 1400 s on a log and a linear axis. Look for the fall when the spare area is used up and \
            how tightly the seconds gather after it.",
    seconds: 2000,
    ramp_seconds: 0,
    queue_depths: &[32],
    columns: &[
        "second",
        "iops",
        "mb_s",
        "latency_mean_us",
        "latency_max_us",
        "write_amplification",
        "free_blocks",
        "gc_moves",
    ],
    drive: ArticleDrive::Several(
        "its articles run it on many drives: [000] the DC S3700 200GB beside the 710, X25-E, P400e, 840 Pro \
         and others, [002] the DC S3500 480GB, DC S3700 200GB and 600 Pro 400GB",
    ),
    build: Build::IoConsistency,
};

pub const SPARE_AREA: Definition = Definition {
    id: "spare-area",
    title: "Spare area sweep",
    article: "[002] S3500 page: the drive partitioned smaller, each labelled with the capacity it would be sold as",
    about: "The IO-consistency test on a share of the span only (the rest stays unwritten and so acts as \
            spare area), once per span. More spare area: fewer valid pages in GC's victims, lower write \
            amplification, higher and tighter steady-state IOPS.",
    seconds: 2000,
    ramp_seconds: 0,
    queue_depths: &[32],
    columns: &[
        "span",
        "advertised_gb",
        "spare_percent",
        "steady_iops_mean",
        "steady_iops_min",
        "steady_iops_max",
        "steady_spread",
        "write_amplification",
    ],
    drive: ArticleDrive::One { preset: "s3500-480", source: "[002] is the DC S3500 480GB's consistency page" },
    build: Build::SpareArea,
};

pub const ENDURANCE: Definition = Definition {
    id: "endurance",
    title: "Endurance projection",
    article: "[001] first look: JESD218 rating (drive writes per day x 5 years) against the NAND's P/E limit",
    about: "Measures the steady-state write amplification of 4 KB random writes at each span, then \
            projects the host writes the NAND's P/E cycles allow (raw bytes x P/E cycles / WA) beside \
            the vendor's rating.",
    seconds: 2000,
    ramp_seconds: 0,
    queue_depths: &[32],
    columns: &[
        "span",
        "advertised_gb",
        "spare_percent",
        "write_amplification",
        "rated_pb",
        "nand_limited_pb",
        "nand_over_rated",
        "drive_writes_per_day",
    ],
    drive: ArticleDrive::Several("[001] works out the rating of every DC S3700 capacity, 100 to 800 GB"),
    build: Build::Endurance,
};

/// The consistency test on the base drive at `span`, for the request's seconds.
fn consistency_run(s: &Setup, span: f64) -> RunConfig {
    let qd = s.queue_depths.first().copied().unwrap_or(32);
    let job = s.job("4 KB random write", 0, true, 4096, qd);
    let phase =
        Phase { name: "io-consistency".into(), jobs: vec![job], runtime_ns: s.seconds as u64 * NS_PER_S, ramp_ns: 0 };
    RunConfig { span, ..s.run(vec![phase], 0) }
}

pub(super) fn io_consistency(s: &Setup) -> Result<Vec<Point>, ConfigError> {
    Ok(vec![Point { labels: Vec::new(), cfg: consistency_run(s, s.base.span), measure: Measure::Seconds }])
}

/// The labels of a run on `span`: the share, the capacity it would be sold as [002], and the
/// spare area it leaves (share of raw NAND not holding user data).
fn span_labels(cfg: &RunConfig) -> Vec<(&'static str, Value)> {
    let d = &cfg.drive;
    let user = d.user_bytes as f64 * cfg.span;
    vec![
        label("span", cfg.span),
        label("advertised_gb", (d.advertised_bytes as f64 * cfg.span / 1e9).round()),
        label("spare_percent", round((1.0 - user / d.geometry.raw_bytes() as f64) * 100.0, 1)),
    ]
}

fn per_span(s: &Setup, extra: Option<super::Extra>) -> Vec<Point> {
    s.spans
        .iter()
        .map(|&span| {
            let cfg = consistency_run(s, span);
            Point {
                labels: span_labels(&cfg),
                measure: Measure::Steady { steady_from_s: default_steady_from_s(cfg.seconds), extra },
                cfg,
            }
        })
        .collect()
}

pub(super) fn spare_area(s: &Setup) -> Result<Vec<Point>, ConfigError> {
    Ok(per_span(s, None))
}

pub(super) fn endurance(s: &Setup) -> Result<Vec<Point>, ConfigError> {
    Ok(per_span(s, Some(endurance_cells)))
}

/// JESD218 arithmetic [001]: the rating, and the host writes the P/E limit allows at `wa`.
fn endurance_cells(cfg: &RunConfig, wa: f64) -> Vec<(&'static str, Value)> {
    let d = &cfg.drive;
    let e = &d.endurance;
    let sold_bytes = d.advertised_bytes as f64 * cfg.span;
    let rated = e.rated_tbw_bytes(sold_bytes.round() as u64) as f64;
    let nand = e.nand_limited_tbw_bytes(d.geometry.raw_bytes(), wa) as f64;
    let days = 365.0 * e.warranty_years as f64;
    vec![
        ("rated_pb", json!(round(rated / 1e15, 3))),
        ("nand_limited_pb", json!(round(nand / 1e15, 3))),
        ("nand_over_rated", json!(round(nand / rated.max(1.0), 3))),
        ("drive_writes_per_day", json!(round(nand / sold_bytes / days, 2))),
    ]
}
