//! The SLC cache's experiments (issue 20): TechPowerUp's whole-drive fill, writing again after
//! a rest (how much of the cache idle time gives back), and CDRLabs' dirty drive (what TRIM and
//! idle time give back after random writes).

use std::ops::RangeInclusive;
use std::sync::Arc;

use super::{label, ArticleDrive, Build, Definition, Measure, Point, Setup, UNTIL_WRITTEN};
use crate::command::Op;
use crate::config::{JobSpec, Phase, Precondition, RunConfig, Trace, TraceRecord};
use crate::units::{ConfigError, MAX_SECONDS, NS_PER_S, UNIT_BYTES};

pub const WHOLE_DRIVE_FILL: Definition = Definition {
    id: "whole-drive-fill",
    title: "Whole-drive fill",
    article: "[TPU fill] TechPowerUp's write-intensive test (docs/sources/today-drives.md): secure erase, then \
              1 MiB sequential writes at QD1 over the whole drive, MB/s against GB written",
    about: "Writes the whole span once from a secure erase, one command at a time, a row per second. On a \
            drive with an SLC cache: fast until the cache is full (`slc_free_gb` reaches 0), then the speed \
            of writing natively, or of folding SLC data into TLC/QLC (`fold_mb_s`) while writing. It ends when \
            the span is written (`seconds`, if given, is the most it may take). On a drive with a thermal model, its temperature and \
            throttle step (set `thermal.cooling` to compare cooling: TechPowerUp's thermal test).",
    seconds: UNTIL_WRITTEN,
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
    about: "From a secure erase, 1 MiB sequential writes at QD1 (`write_gb`), a rest (each of `rest_seconds`, \
            one run each), then the same writes again (`then_gb`) from where the first stopped. A row for \
            the write before the rest and one for the write after: the longer the rest, the more SLC \
            data is folded and the faster the write after it.",
    seconds: 20_000,
    ramp_seconds: 0,
    queue_depths: &[1],
    columns: &["rest_s", "write", "gb", "mb_s", "iops", "latency_mean_us", "latency_p99_us", "latency_max_us"],
    drive: ArticleDrive::Several("TechPowerUp's reviews describe it for drives with an SLC cache: name one"),
    build: Build::IdleRecovery,
};

pub const DIRTY_RECOVERY: Definition = Definition {
    id: "dirty-recovery",
    title: "Dirty drive: TRIM and idle recovery",
    article: "[CDRLabs TRIM] CDRLabs' TRIM test of the 870 QVO (docs/sources/today-drives.md): the whole drive \
              filled, 30 minutes of random writes, then the write speed dirty, after TRIM and about 30 \
              minutes idle, and after a secure erase",
    about: "From a sequential fill, 4 KiB random writes at QD32 for `dirty_seconds` (model: CDRLabs gives neither \
            size nor depth); then, a run per row, nothing (dirty), a rest of each of `rest_seconds` (rested), or a \
            TRIM of the whole span (1 s) and the rest (trimmed); then the measuring write, 128 KiB sequential \
            at the queue depth for `seconds` after its ramp (model: CDRLabs does not describe its test). A \
            secure-erased row is the same write on an empty drive. Idle time folds SLC data, collects to \
            `gc.background_free_blocks` and erases every block TRIM emptied: the cache needs free blocks.",
    seconds: 10,
    ramp_seconds: 1,
    queue_depths: &[32],
    columns: &["state", "rest_s", "mb_s", "iops", "latency_mean_us", "latency_p99_us", "latency_max_us"],
    drive: ArticleDrive::One { preset: "870qvo-1000", source: "[CDRLabs TRIM] reviews a Samsung 870 QVO 1TB" },
    build: Build::DirtyRecovery,
};

/// The rests (s) idle-recovery measures after, and dirty-recovery's with CDRLabs' "about 30
/// minutes" (docs/sources/today-drives.md, the 870 QVO's TRIM test), and the seconds of random
/// writes that make the drive dirty (its "random write test for 30 minutes"), when a request
/// leaves them out.
pub const REST_SECONDS: [u32; 4] = [0, 1, 10, 60];
pub const DIRTY_REST_SECONDS: [u32; 5] = [0, 1, 10, 60, 1800];
pub const DIRTY_SECONDS: u32 = 1800;

/// The states `dirty-recovery` measures, in the order of its rows.
pub const RECOVERY_STATES: [&str; 4] = ["secure-erased", "dirty", "rested", "trimmed"];

/// What a recovery request may ask for: how many rests, each rest (s), the GB written before
/// and after a rest, the seconds of random writes. `ExperimentRequest::plan` checks them; the
/// wasm shell's experiments() lists them, so the page checks the same.
pub const REST_COUNT: RangeInclusive<u64> = 1..=16;
pub const REST_RANGE: RangeInclusive<u64> = 0..=MAX_SECONDS as u64;
pub const WRITE_GB_RANGE: RangeInclusive<f64> = 0.0..=1e6;
pub const DIRTY_RANGE: RangeInclusive<u64> = 1..=MAX_SECONDS as u64;

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
        phases.extend((rest_s > 0).then(|| rest(rest_s)));
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

/// A TRIM of the whole span in commands of 1 GiB, one at a time (a trace, so their number is
/// exact), in a phase of one second.
fn trim_span(s: &Setup, span_bytes: u64) -> Phase {
    const CHUNK: u64 = 1 << 30;
    let records = (0..span_bytes.div_ceil(CHUNK))
        .map(|i| TraceRecord {
            time_ns: 0,
            op: Op::Trim,
            offset_bytes: i * CHUNK,
            bytes: (span_bytes - i * CHUNK).min(CHUNK) as u32,
        })
        .collect();
    let trace = Trace { name: "TRIM of the span".into(), records, open_loop: false, time_scale: 1.0 };
    let job = JobSpec { trace: Some(Arc::new(trace)), ..s.job("TRIM of the span", 0, false, UNIT_BYTES as u32, 1) };
    Phase { name: "TRIM".into(), jobs: vec![job], runtime_ns: NS_PER_S, ramp_ns: 0 }
}

/// A phase in which the host issues nothing for `seconds` (the drive is idle).
fn rest(seconds: u32) -> Phase {
    Phase { name: "rest".into(), jobs: Vec::new(), runtime_ns: seconds as u64 * NS_PER_S, ramp_ns: 0 }
}

pub(super) fn dirty_recovery(s: &Setup) -> Result<Vec<Point>, ConfigError> {
    let span = s.base.workload_units() * UNIT_BYTES;
    let qd = s.queue_depths.first().copied().unwrap_or(32);
    let measuring =
        s.timed("128 KiB sequential writes".into(), vec![s.job("measuring write", 0, false, 128 << 10, qd)]);
    let dirty = Phase {
        name: "4 KiB random writes".into(),
        jobs: vec![s.job("random writes", 0, true, UNIT_BYTES as u32, 32)],
        runtime_ns: s.dirty_seconds as u64 * NS_PER_S,
        ramp_ns: 0,
    };
    let point = |state: &'static str, rest_s: u32, before: Vec<Phase>, precondition: Precondition| {
        let measured = before.len();
        let mut phases = before;
        phases.push(measuring.clone());
        Point {
            labels: vec![label("state", state), label("rest_s", rest_s)],
            // A second more than the phases' runtimes: the measuring write starts once the random
            // writes in flight have completed, and ends as late.
            cfg: RunConfig { precondition, ..s.run(phases, 1) },
            measure: Measure::Phases(vec![(measured, Vec::new())]),
        }
    };
    let mut points = Vec::new();
    for state in RECOVERY_STATES.into_iter().filter(|st| s.states.iter().any(|x| x == st)) {
        match state {
            "secure-erased" => points.push(point(state, 0, Vec::new(), Precondition::None)),
            "dirty" => points.push(point(state, 0, vec![dirty.clone()], Precondition::Fill)),
            _ => {
                for &rest_s in &s.rest_seconds {
                    if state == "rested" && rest_s == 0 {
                        continue; // the dirty drive's row
                    }
                    let mut before = vec![dirty.clone()];
                    before.extend((state == "trimmed").then(|| trim_span(s, span)));
                    before.extend((rest_s > 0).then(|| rest(rest_s)));
                    points.push(point(state, rest_s, before, Precondition::Fill));
                }
            }
        }
    }
    Ok(points)
}
