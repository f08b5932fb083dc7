//! The SLC cache's experiments (issue 20): TechPowerUp's whole-drive fill, and writing again
//! after a rest (how much of the cache idle time gives back).

use super::{label, ArticleDrive, Build, Definition, Measure, Point, Setup};
use crate::config::{Phase, Precondition, RunConfig};
use crate::units::{ConfigError, NS_PER_S, UNIT_BYTES};

pub const WHOLE_DRIVE_FILL: Definition = Definition {
    id: "whole-drive-fill",
    title: "Whole-drive fill",
    article: "[TPU fill] TechPowerUp's write-intensive test (docs/sources/today-drives.md): secure erase, then \
              1 MiB sequential writes at QD1 over the whole drive, MB/s against GB written",
    about: "Writes the whole span once from a secure erase, one command at a time, a row per second. On a \
            drive with an SLC cache: fast until the cache is full (slc_free_gb reaches 0), then the speed \
            of writing natively, or of folding SLC data into TLC/QLC (fold_mb_s) while writing. `seconds` \
            is the most the fill may take. On a drive with a thermal model, its temperature and \
            throttle step (set thermal.cooling to compare cooling: TechPowerUp's thermal test).",
    seconds: 20_000,
    ramp_seconds: 0,
    queue_depths: &[1],
    columns: &[
        "second",
        "gb_written",
        "mb_s",
        "latency_mean_us",
        "slc_free_gb",
        "slc_data_gb",
        "fold_mb_s",
        "free_blocks",
        "temperature_c",
        "throttle_step",
    ],
    drive: ArticleDrive::Several("TechPowerUp fills every SSD it reviews this way: name a drive with an SLC cache"),
    build: Build::WholeDriveFill,
};

pub const IDLE_RECOVERY: Definition = Definition {
    id: "idle-recovery",
    title: "Idle recovery",
    article: "[TPU fill] TechPowerUp's 980 Pro page 6 (docs/sources/today-drives.md): after the SLC cache is \
              full, 'any pause in write activity, even for a second' restores some of it; write, rest, write again",
    about: "From a secure erase, 1 MiB sequential writes at QD1 (write_gb), a rest (each of rest_seconds, \
            one run each), then the same writes again (then_gb) from where the first stopped. A row for \
            the write before the rest and one for the write after: the longer the rest, the more SLC \
            data is folded and the faster the write after it.",
    seconds: 20_000,
    ramp_seconds: 0,
    queue_depths: &[1],
    columns: &["rest_s", "write", "gb", "mb_s", "iops", "latency_mean_us", "latency_p99_us", "latency_max_us"],
    drive: ArticleDrive::Several("TechPowerUp's reviews describe it for drives with an SLC cache: name one"),
    build: Build::IdleRecovery,
};

/// 1 MiB sequential writes at the request's queue depth from `offset_bytes`, `bytes` of them.
fn sequential_writes(s: &Setup, name: String, offset_bytes: u64, bytes: u64) -> Phase {
    let qd = s.queue_depths.first().copied().unwrap_or(1);
    let mut job = s.job(&name, 0, false, 1 << 20, qd);
    job.offset_bytes = offset_bytes;
    job.size_bytes = bytes;
    job.io_limit_bytes = bytes;
    Phase { name, jobs: vec![job], runtime_ns: 0, ramp_ns: 0 }
}

/// A run of `phases` from a secure erase; the request's seconds are the most its writes may
/// take (they end it sooner).
fn from_secure_erase(s: &Setup, phases: Vec<Phase>) -> RunConfig {
    RunConfig { precondition: Precondition::None, ..s.run(phases, s.seconds as u64) }
}

pub(super) fn whole_drive_fill(s: &Setup) -> Result<Vec<Point>, ConfigError> {
    let bytes = s.base.workload_units() * UNIT_BYTES;
    let fill = sequential_writes(s, "whole-drive fill, 1 MiB sequential".into(), 0, bytes);
    Ok(vec![Point { labels: Vec::new(), cfg: from_secure_erase(s, vec![fill]), measure: Measure::Seconds }])
}

pub(super) fn idle_recovery(s: &Setup) -> Result<Vec<Point>, ConfigError> {
    let span = s.base.workload_units() * UNIT_BYTES;
    let mib = |gb: f64| ((gb * 1e9) as u64 >> 20) << 20;
    let (before, after) = (mib(s.write_gb), mib(s.then_gb));
    if before + after > span {
        return Err(ConfigError::new(
            "write_gb",
            format!(
                "with then_gb must fit the span ({:.2} GB) (got {} + {})",
                span as f64 / 1e9,
                s.write_gb,
                s.then_gb
            ),
        ));
    }
    if before < 1 << 20 || after < 1 << 20 {
        return Err(ConfigError::new("write_gb", "and then_gb must be at least 1 MiB each"));
    }
    let mut points = Vec::new();
    for &rest_s in &s.rest_seconds {
        let mut phases = vec![sequential_writes(s, "write before the rest".into(), 0, before)];
        let rest = Phase { name: "rest".into(), jobs: Vec::new(), runtime_ns: rest_s as u64 * NS_PER_S, ramp_ns: 0 };
        phases.extend((rest_s > 0).then_some(rest));
        let after_index = phases.len();
        phases.push(sequential_writes(s, "write after the rest".into(), before, after));
        let gb = |bytes: u64| bytes as f64 / 1e9;
        points.push(Point {
            labels: vec![label("rest_s", rest_s)],
            cfg: from_secure_erase(s, phases),
            measure: Measure::Phases(vec![
                (0, vec![label("write", "before"), label("gb", gb(before))]),
                (after_index, vec![label("write", "after"), label("gb", gb(after))]),
            ]),
        });
    }
    Ok(points)
}
