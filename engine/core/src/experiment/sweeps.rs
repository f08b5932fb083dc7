//! Queue-depth sweeps in the manner of the P3700 review [003]: each corner is one drive that is
//! preconditioned as the article says, then measured at each queue depth in turn (one phase
//! per depth, like fio jobs separated by stonewall).

use super::{label, ArticleDrive, Build, Definition, Measure, Point, Setup};
use crate::config::{JobSpec, Phase, RaidConfig, RunConfig};
use crate::units::{ConfigError, UNIT_BYTES};

const QD_COLUMNS: &[&str] =
    &["corner", "queue_depth", "iops", "mb_s", "latency_mean_us", "latency_p99_us", "latency_max_us", "read_percent"];

/// The article's queue depths.
const SWEEP: &[u32] = &[1, 2, 4, 8, 16, 32, 64, 128];

pub const FOUR_CORNERS: Definition = Definition {
    id: "four-corners",
    title: "The four corners: queue-depth sweeps",
    article: "[003] P3700 review: sequential and random read and write, QD 1 to 128",
    about: "128 KB sequential read and write and 4 KB random read and write, each measured at every queue \
            depth after the article's preconditioning (sequential fill; for the random corners one full-span \
            4 KB random write at QD128 first). Look for where bandwidth stops growing with queue depth and \
            where average latency starts to climb; the maximum latency is GC and queueing, an order of \
            magnitude over the average.",
    seconds: 60,
    ramp_seconds: 10,
    queue_depths: SWEEP,
    columns: QD_COLUMNS,
    drive: ArticleDrive::One { preset: "p3700-1600", source: "[003] reviews a 1.6TB DC P3700" },
    build: Build::FourCorners,
};

pub const MIXED: Definition = Definition {
    id: "mixed-70-30",
    title: "70/30 mixed random",
    article: "[003] P3700 review: 4 KB random, 70 % reads and 30 % writes, QD 1 to 128",
    about: "4 KB random commands, 70 % reads, at every queue depth after a full-span random write. Reads \
            queue behind programs and erases on the same die, so mixed IOPS sit far below the read corner.",
    seconds: 60,
    ramp_seconds: 10,
    queue_depths: SWEEP,
    columns: QD_COLUMNS,
    drive: ArticleDrive::One { preset: "p3700-1600", source: "[003] reviews a 1.6TB DC P3700" },
    build: Build::Mixed,
};

pub const SEQUENTIAL: Definition = Definition {
    id: "sequential-128k",
    title: "128 KB sequential read and write",
    article: "[000] S3700 review: 128 KB sequential, QD32, one minute over the whole span, average MB/s",
    about: "128 KB sequential reads, then writes, at QD32 (or the queue depths asked for) over the whole \
            span. The link or the NAND's program bandwidth sets the ceiling.",
    seconds: 60,
    ramp_seconds: 5,
    queue_depths: &[32],
    columns: QD_COLUMNS,
    drive: ArticleDrive::One { preset: "s3700-200", source: "[000] reviews a 200GB DC S3700" },
    build: Build::Sequential,
};

/// A corner: `job(qd)` measured at every queue depth, after `precondition`.
fn corner(s: &Setup, name: &'static str, precondition: Vec<Phase>, job: impl Fn(u32) -> JobSpec) -> Point {
    let skip = precondition.len();
    let mut phases = precondition;
    let mut listed = Vec::new();
    for &qd in &s.queue_depths {
        listed.push((phases.len(), vec![label("queue_depth", qd)]));
        phases.push(s.timed(format!("{} QD{}", name, qd), vec![job(qd)]));
    }
    // An untimed precondition runs until its bytes are written: give the run room for it at
    // as little as 1,000 writes a second (the run ends when its last phase does).
    let extra_s = if skip > 0 { s.base.workload_units() / 1000 + 1 } else { 0 };
    Point { labels: vec![label("corner", name)], cfg: s.run(phases, extra_s), measure: Measure::Phases(listed) }
}

/// The article's random-corner preconditioning: one full-span 4 KB random write at QD128.
fn random_fill(s: &Setup) -> Vec<Phase> {
    if !s.article_precondition {
        return Vec::new();
    }
    let mut job = s.job("precondition: full-span 4 KB random write, QD128", 0, true, 4096, 128);
    job.io_limit_bytes = s.base.workload_units() * UNIT_BYTES;
    vec![Phase { name: job.name.clone(), jobs: vec![job], runtime_ns: 0, ramp_ns: 0 }]
}

pub(super) fn four_corners(s: &Setup) -> Result<Vec<Point>, ConfigError> {
    Ok(vec![
        corner(s, "sequential-read", Vec::new(), |qd| s.job("128 KB sequential read", 100, false, 128 << 10, qd)),
        corner(s, "sequential-write", Vec::new(), |qd| s.job("128 KB sequential write", 0, false, 128 << 10, qd)),
        corner(s, "random-read", random_fill(s), |qd| s.job("4 KB random read", 100, true, 4096, qd)),
        corner(s, "random-write", random_fill(s), |qd| s.job("4 KB random write", 0, true, 4096, qd)),
    ])
}

pub(super) fn mixed(s: &Setup) -> Result<Vec<Point>, ConfigError> {
    Ok(vec![corner(s, "mixed-70-30", random_fill(s), |qd| s.job("4 KB random 70/30", 70, true, 4096, qd))])
}

pub(super) fn sequential(s: &Setup) -> Result<Vec<Point>, ConfigError> {
    Ok(vec![
        corner(s, "sequential-read", Vec::new(), |qd| s.job("128 KB sequential read", 100, false, 128 << 10, qd)),
        corner(s, "sequential-write", Vec::new(), |qd| s.job("128 KB sequential write", 0, false, 128 << 10, qd)),
    ])
}

pub const RAID_SCALING: Definition = Definition {
    id: "raid-scaling",
    title: "RAID 0 scaling",
    article: "[004] Tom's Hardware: 24 x DC S3700 800 GB in RAID 0, 4 KB random at 32 threads x QD32",
    about: "The same drive striped N ways behind the article's host adapters and backplane (64 KB chunks, \
            engine/core/presets/arrays/tomshardware-2013.toml), 4 KB random reads and then writes from 32 \
            threads at QD32 each. IOPS nearly double from 4 to 8 to 16 drives; from 16 to 24 the shared \
            link caps them (the article: only +25 %).",
    seconds: 20,
    ramp_seconds: 5,
    queue_depths: &[32],
    columns: &[
        "drives",
        "corner",
        "queue_depth",
        "iops",
        "mb_s",
        "latency_mean_us",
        "latency_p99_us",
        "latency_max_us",
        "iops_per_drive",
        "read_percent",
    ],
    drive: ArticleDrive::One { preset: "s3700-800", source: "[004] stripes 24 x DC S3700 800 GB" },
    build: Build::RaidScaling,
};

/// The article's thread count: 32 threads, each at the queue depth [004].
const RAID_THREADS: usize = 32;

pub(super) fn raid_scaling(s: &Setup) -> Result<Vec<Point>, ConfigError> {
    let mut points = Vec::new();
    for &drives in &s.drive_counts {
        for (corner, read) in [("random-read", 100), ("random-write", 0)] {
            let qd = s.queue_depths[0];
            let jobs = vec![s.job(corner, read, true, 4096, qd); RAID_THREADS];
            let phase = s.timed(format!("{} x{} drives", corner, drives), jobs);
            let cfg = RunConfig { raid: Some(RaidConfig::testbed(drives)), ..s.run(vec![phase], 0) };
            points.push(Point {
                labels: vec![label("drives", drives), label("corner", corner), label("queue_depth", qd)],
                cfg,
                measure: Measure::Phases(vec![(0, Vec::new())]),
            });
        }
    }
    Ok(points)
}
