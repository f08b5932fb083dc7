//! Data placement (issue 21, docs/design/placement.md section 9): one app on one flash, placed
//! three ways. As a block drive its writes share blocks whatever their lifetime; with FDP
//! placement handles the app's tags keep its data of each lifetime in blocks of their own; as a
//! zoned drive the drive never moves data and the host's own store cleans its zones. Each way at
//! two over-provisionings, as the ZNS paper's Figure 1 sets the same flash side by side.

use super::{label, ArticleDrive, Build, Definition, Measure, Point, Setup, UNTIL_WRITTEN};
use crate::config::{
    AppConfig, AppKind, Distribution, DriveConfig, JobSpec, Phase, Placement, PlacementConfig, PlacementKind,
    Precondition, RunConfig, ZoneMode, ZoneStoreConfig, ZonedConfig,
};
use crate::units::{ConfigError, UNIT_BYTES};

pub const PLACEMENT: Definition = Definition {
    id: "placement",
    title: "Data placement: block, FDP and zoned",
    article: "[FDP] Allison et al., EuroSys 2025: device write amplification ~1 with placement, higher without; \
              [ZNS] Bjørling et al., USENIX ATC 2021, Figure 1: the same flash as a zoned drive and as block \
              drives at 7 % and 28 % over-provisioning, its capacity overwritten four times",
    about: "The same app on the same flash, a row per host, layout and over-provisioning: block (the app's \
            writes untagged), fdp (tagged, each lifetime in blocks of its own: the drive's [placement], or 8 \
            handles if it has none) and zoned (the flash as a zoned drive with no spare of its own; a host \
            store appends the app's writes to zones and its greedy cleaner copies live data out of the zone \
            it resets: host write amplification). Over-provisioning is flash beyond the app's data, as a \
            share of the data (the ZNS paper's 7 % and 28 %). Each point writes the app's data drive_writes \
            times over and measures the second half. Hosts: uniform (4 KiB random writes), hot-cold (90 % of \
            them to 10 % of the data, tagged hot and cold), streams (three regions rewritten in order at \
            different rates, tagged each), cache (CacheLib's flash cache: small objects rewritten in place at \
            random, large ones in a FIFO log, tagged by region) and lsm (a RocksDB-style LSM tree, tagged by \
            level, on a file system without online discard on the block layouts); an app's own writes (an LSM's flushes and compactions) count as the app's. Unless the request sets geometry.dies or \
            geometry.blocks_per_plane, the flash is the drive's cut to 4 dies of 512 blocks (its pages, \
            timings, controller and GC policy, GC thresholds scaled), so every point reaches its steady \
            state in seconds of computing.",
    seconds: UNTIL_WRITTEN,
    ramp_seconds: 0,
    queue_depths: &[32],
    columns: &[
        "host",
        "layout",
        "over_provisioning_percent",
        "drive_writes",
        "seconds",
        "iops",
        "app_mb_s",
        "latency_p99_us",
        "write_amplification",
        "host_write_amplification",
        "total_write_amplification",
        "gc_moves",
    ],
    drive: ArticleDrive::One {
        preset: "fdp-s3700-200",
        source: "[FDP] and [ZNS] give no drive's figures a model needs: the S3700's flash with 8 placement handles \
                 (model)",
    },
    build: Build::Placement,
};

/// The apps, by name.
pub const HOSTS: [&str; 5] = ["uniform", "hot-cold", "streams", "cache", "lsm"];
/// How the app's data is placed.
pub const LAYOUTS: [&str; 3] = ["block", "fdp", "zoned"];

/// The lab flash (see `about`): dies and FTL blocks per die.
const LAB_DIES: u32 = 4;
const LAB_BLOCKS_PER_DIE: u32 = 512;
/// Handles a drive without [placement] gets for the fdp layout (fdp-s3700-200's count: model).
const DEFAULT_HANDLES: u32 = 8;
/// The LSM host's RocksDB sizes divided by this: 256 KiB files (model).
const LSM_SCALE: u32 = 256;
/// Zones the store keeps empty before it cleans.
const STORE_FREE_ZONES: u32 = 2;

pub(super) fn placement(s: &Setup) -> Result<Vec<Point>, ConfigError> {
    let flash = if s.lab_flash { lab_flash(&s.base.drive)? } else { s.base.drive.clone() };
    let mut points = Vec::new();
    for host in &s.hosts {
        for &op in &s.op_percents {
            for layout in &s.layouts {
                // Untagged data has nothing for handles to keep apart: the fdp row would be the block row.
                if layout == "fdp" && !tags(host) {
                    continue;
                }
                points.push(point(s, &flash, host, layout, op)?);
            }
        }
    }
    Ok(points)
}

/// Whether the host's writes carry lifetimes to place by.
fn tags(host: &str) -> bool {
    host != "uniform"
}

/// `d`'s flash cut to the lab's size: its first `LAB_DIES` dies (and as many channels at most)
/// of `LAB_BLOCKS_PER_DIE` blocks, GC thresholds scaled to the blocks.
fn lab_flash(d: &DriveConfig) -> Result<DriveConfig, ConfigError> {
    let mut d = d.clone();
    d.geometry.dies = d.geometry.dies.min(LAB_DIES);
    d.geometry.channels = d.geometry.channels.min(d.geometry.dies);
    let blocks = d.geometry.blocks_per_plane.min(LAB_BLOCKS_PER_DIE);
    // The user share is set per point below; scaling keeps it valid meanwhile.
    d.user_bytes = d.user_bytes.min(d.geometry.raw_bytes() / 2 / UNIT_BYTES * UNIT_BYTES);
    super::calibrate::scaled(&d, blocks)
}

/// Bytes of app data `op` percent of over-provisioning leaves on `raw` bytes of flash.
fn app_bytes(raw: u64, op: f64) -> u64 {
    (raw as f64 / (1.0 + op / 100.0)) as u64 / UNIT_BYTES * UNIT_BYTES
}

/// The streams host's regions (shares of the app's data) and queue depths (so shares of the
/// writes, the drive being the bottleneck): data of three lifetimes.
const STREAMS: [(f64, u32); 3] = [(0.2, 4), (0.3, 2), (0.5, 1)];
const STREAM_WRITE_BYTES: u32 = 128 << 10;

fn point(s: &Setup, flash: &DriveConfig, host: &str, layout: &str, op: f64) -> Result<Point, ConfigError> {
    let app = app_bytes(flash.geometry.raw_bytes(), op);
    let mut drive = flash.clone();
    drive.gc.reserved_percent = 0.0;
    drive.slc_cache = None;
    let tagged = layout != "block";
    match layout {
        "zoned" => drive.zoned = Some(as_zoned(&mut drive)),
        _ => {
            drive.user_bytes = app;
            drive.advertised_bytes = app;
            drive.placement = (layout == "fdp")
                .then(|| drive.placement.clone().unwrap_or(PlacementConfig::new(PlacementKind::Fdp, DEFAULT_HANDLES)));
        }
    }
    let zoned = drive.zoned.clone();
    let mut cfg = if host == "streams" {
        // Each stream rewrites its own region in order; on the zoned drive its zones, each
        // reset before it is written again (fio's zonemode=zbd): nothing to clean.
        let unit = zoned.as_ref().map_or(STREAM_WRITE_BYTES as u64, |z| z.zone_bytes);
        let mut offset = 0;
        let jobs = STREAMS
            .iter()
            .enumerate()
            .map(|(i, &(share, qd))| {
                let mut job = s.job(&format!("stream {}", i + 1), 0, false, STREAM_WRITE_BYTES, qd);
                job.offset_bytes = offset;
                job.size_bytes = (app as f64 * share) as u64 / unit * unit;
                offset += job.size_bytes;
                if tagged {
                    job.placement = Placement::Handle(i as u8);
                }
                job.zones = zoned.as_ref().map(|z| ZoneMode {
                    zone_bytes: z.zone_bytes,
                    capacity_bytes: z.zone_capacity_bytes,
                    device: true,
                    max_open: z.max_open_zones,
                    job_max_open: 1,
                    reset_threshold: 0.0,
                    reset_frequency: 0.0,
                    read_beyond_wp: false,
                });
                if zoned.is_some() {
                    // The zone layer tags each zone's writes itself.
                    job.placement = Placement::Untagged;
                }
                job
            })
            .collect();
        run(s, drive, jobs)
    } else {
        let qd = s.queue_depths.first().copied().unwrap_or(32);
        let mut job = s.job(host, 0, true, UNIT_BYTES as u32, qd);
        if host == "hot-cold" {
            job.distribution = Distribution::hot_cold(90, 10);
            if tagged {
                job.placement = Placement::ByZone(vec![0, 1]);
            }
        }
        let mut cfg = run(s, drive, vec![job]);
        if let Some(z) = &zoned {
            // The app's data as a share of the zones (in hundredths): the store's span.
            let capacity = z.zones(&cfg.drive) * z.zone_capacity_bytes;
            let utilisation = (app as f64 / capacity as f64 * 100.0).floor() / 100.0;
            cfg.zone_store = Some(ZoneStoreConfig { utilisation, free_zones: STORE_FREE_ZONES });
        }
        if let Some(kind) = AppKind::by_name(host) {
            // The app runs in the job's place (its queue depth), over the span.
            let span = cfg.host_units() * UNIT_BYTES;
            let mut app = AppConfig { tagged, ..AppConfig::new(kind, span) };
            if kind == AppKind::Lsm {
                // Files smaller than a block on each die, so blocks can mix them, and as many
                // keys as the tree's room allows in 90 % of the span: a full drive (model). On
                // the block layouts a file system at its default mount (no online discard: the
                // drive learns a file is gone when its blocks are written again); on the zoned
                // one the store is the file system (ZenFS) and knows at once.
                app.scale = LSM_SCALE;
                app.discard = zoned.is_some();
                let fits = |keys| AppConfig { keys, ..app }.lsm_bytes() <= span / 10 * 9;
                let (mut lo, mut hi) = (1, span / app.value_bytes as u64);
                while lo < hi {
                    let mid = (lo + hi).div_ceil(2);
                    (lo, hi) = if fits(mid) { (mid, hi) } else { (lo, mid - 1) };
                }
                app.keys = lo;
            }
            cfg.app = Some(app);
        }
        cfg
    };
    if zoned.is_some() {
        cfg.precondition = Precondition::None;
    }
    cfg.validate()?;
    // The app's data; its first pass on the zoned drive is its fill (on the block drives the
    // precondition, outside the samples).
    let data = match host {
        "streams" => cfg.phases[0].jobs.iter().map(|j| j.size_bytes).sum(),
        _ => cfg.host_units() * UNIT_BYTES,
    };
    let passes = if zoned.is_some() { s.drive_writes + 1.0 } else { s.drive_writes };
    let to_bytes = (data as f64 * passes) as u64;
    let from_bytes = to_bytes - (data as f64 * s.drive_writes / 2.0) as u64;
    Ok(Point {
        labels: vec![label("host", host), label("layout", layout), label("over_provisioning_percent", op)],
        cfg,
        measure: Measure::Written { data_bytes: data, from_bytes, to_bytes },
    })
}

/// The point's run: the app's jobs, for at most the request's seconds.
fn run(s: &Setup, drive: DriveConfig, jobs: Vec<JobSpec>) -> RunConfig {
    let phase = Phase { name: "placement".into(), jobs, runtime_ns: 0, ramp_ns: 0 };
    RunConfig { drive, ..s.run(vec![phase], s.seconds as u64) }
}

/// `[zoned]` for `d`'s flash with (almost) no spare: a zone is one block on every die, as many
/// zones as fit beside the free blocks the drive and its open zones need; `d`'s user bytes become
/// the zones' and its placement handles go (a zoned drive's zones use their streams).
fn as_zoned(d: &mut DriveConfig) -> ZonedConfig {
    d.placement = None;
    let block_bytes = d.geometry.units_per_block() as u64 * UNIT_BYTES;
    let zone_bytes = block_bytes * d.geometry.dies as u64;
    // Each active zone takes a block of every die out of the spare: as few as the store needs
    // (a zone per class, hot and cold, one for its cleaner, one finishing).
    let most_open = 4;
    let zoned = ZonedConfig {
        zone_bytes,
        zone_capacity_bytes: zone_bytes,
        zone_dies: d.geometry.dies,
        max_open_zones: most_open,
        max_active_zones: most_open,
        append_max_bytes: zone_bytes.min(128 << 10),
    };
    d.user_bytes = zoned.max_user_bytes(d);
    d.advertised_bytes = d.user_bytes;
    zoned
}
