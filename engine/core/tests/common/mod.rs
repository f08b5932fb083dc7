//! Shared helpers for the model's integration tests.
#![allow(dead_code)]

use ssdlab_core::config::WorkloadSpec;
use ssdlab_core::config::{GcPacing, Isolation, PlacementConfig, PlacementKind, RunConfig, ZonedConfig};
use ssdlab_core::{presets, Bench, DriveConfig, Sample};

pub const MIB: u64 = 1 << 20;

/// The S3700's architecture with fewer blocks per plane: same channels, dies, pages, timings and
/// the same spare-area fraction, small enough to check invariants over the whole array.
pub fn small_s3700(blocks_per_plane: u32, pacing: GcPacing, seconds: u32, seed: u64) -> RunConfig {
    let mut drive = presets::by_id("s3700-200").unwrap();
    let full_raw = drive.geometry.raw_bytes() as f64;
    let user_fraction = drive.user_bytes as f64 / full_raw;
    // Keep the GC thresholds the same fraction of each die as on the full-size drive.
    let scale = |blocks: u32| (blocks as u64 * blocks_per_plane as u64 / drive.geometry.blocks_per_plane as u64) as u32;
    drive.gc.start_free_blocks = scale(drive.gc.start_free_blocks).max(drive.gc.min_free_blocks + 2);
    drive.gc.boost_until_free_blocks =
        scale(drive.gc.boost_until_free_blocks).clamp(drive.gc.min_free_blocks + 1, drive.gc.start_free_blocks);
    drive.gc.boost_below_free_blocks =
        scale(drive.gc.boost_below_free_blocks).clamp(drive.gc.min_free_blocks, drive.gc.boost_until_free_blocks);
    drive.gc.background_free_blocks = scale(drive.gc.background_free_blocks).max(drive.gc.start_free_blocks);
    drive.geometry.blocks_per_plane = blocks_per_plane;
    drive.user_bytes = ((drive.geometry.raw_bytes() as f64 * user_fraction) as u64 / 4096) * 4096;
    drive.gc.pacing = pacing;
    let workload = WorkloadSpec::by_id("consistency").unwrap();
    RunConfig { seed, ..RunConfig::new(drive, workload, seconds) }
}

pub fn run(cfg: RunConfig) -> Vec<Sample> {
    Bench::new(cfg).expect("valid config").run_to_end()
}

/// Greedy GC's large-system write amplification (one definition, in the engine).
#[allow(unused_imports)]
pub use ssdlab_core::drive::ftl::victim::greedy_wa_theory;

/// 2 dies on 2 channels, 2 planes of 16 KiB pages, 16 pages a block (128 units, 512 KiB), 512
/// blocks a die: 512 MiB of flash, no GC reserve, GC from 6 free blocks a die. The small drive
/// the placement and zone tests share.
fn small_flash() -> DriveConfig {
    let mut d = presets::by_id("s3700-200").unwrap();
    let g = &mut d.geometry;
    (g.channels, g.dies, g.planes, g.page_bytes, g.pages_per_block, g.blocks_per_plane) = (2, 2, 2, 16384, 16, 512);
    d.gc.reserved_percent = 0.0;
    (d.gc.start_free_blocks, d.gc.boost_below_free_blocks, d.gc.boost_until_free_blocks) = (6, 3, 5);
    d
}

/// `d` zoned: `zones` zones of `zone_bytes`, all writable, each over `zone_dies` dies, at most
/// `max_open` open and `max_active` active, appends of `append_max_bytes`.
fn zoned(
    mut d: DriveConfig,
    zones: u64,
    zone_bytes: u64,
    zone_dies: u32,
    open_active: (u32, u32),
    append_max_bytes: u64,
) -> DriveConfig {
    // A victim policy that would take blocks holding data: a zoned drive never takes a victim.
    d.gc.victim = "fifo".into();
    d.user_bytes = zones * zone_bytes;
    d.zoned = Some(ZonedConfig {
        zone_bytes,
        zone_capacity_bytes: zone_bytes,
        zone_dies,
        max_open_zones: open_active.0,
        max_active_zones: open_active.1,
        append_max_bytes,
    });
    d.validate().unwrap();
    d
}

/// The small flash with 120 zones of 4 MiB, each over `zone_dies` dies (4 or 8 blocks on each):
/// 480 of the 512 MiB. At most `max_open` zones open and `max_active` active.
pub fn zoned_over(zone_dies: u32, max_open: u32, max_active: u32) -> DriveConfig {
    zoned(small_flash(), 120, 4 * MIB, zone_dies, (max_open, max_active), 256 << 10)
}

/// The small flash, 80 % of it for the host. Fast programs, so the host's rates, not the dies,
/// set the pace. With `handles`, FDP placement handles (initial isolation).
pub fn placement_drive(handles: Option<u32>) -> DriveConfig {
    let mut d = small_flash();
    d.user_bytes = d.geometry.raw_bytes() * 4 / 5 / 4096 * 4096;
    d.gc.background_free_blocks = 8;
    d.timing.program_ns = 500_000;
    d.placement =
        handles.map(|handles| PlacementConfig { kind: PlacementKind::Fdp, handles, isolation: Isolation::Initial });
    d.validate().unwrap();
    d
}

/// Zones on `store_drive`.
pub const STORE_ZONES: u64 = 400;

/// The small flash with 400 zones of 1 MiB, each one block on each die, at most 4 open. Fast
/// programs, so runs are short. The zone store's drive.
pub fn store_drive() -> DriveConfig {
    let mut d = small_flash();
    d.timing.program_ns = 500_000;
    zoned(d, STORE_ZONES, MIB, 2, (4, 4), 128 << 10)
}

/// The cleaner's writes per app write, +1, over the samples given.
pub fn host_wa(samples: &[Sample]) -> f64 {
    let app: f64 = samples.iter().map(|s| s.app_mb_s).sum();
    let cleaner: f64 = samples.iter().map(|s| s.cleaner_mb_s).sum();
    (app + cleaner) / app
}

/// Runs `cfg`; the samples from the second third on (steady state), and the bench. Checks that
/// the drive never moved data: GC moved nothing, and every NAND program of data was a host write
/// (the app's or the cleaner's): NAND data is the host's writes less those still waiting in the
/// page each open zone is assembling at the end (less than a page each: no padding).
pub fn store_steady(cfg: RunConfig) -> (Vec<Sample>, Bench) {
    let mut bench = Bench::new(cfg).unwrap();
    let samples = bench.run_to_end();
    let store = bench.zone_store().expect("the run writes through a zone store").counters();
    assert_eq!(store.refused, 0, "every command taken where the store expected it");
    assert!(store.resets > 0, "the cleaner ran");
    let c = bench.drive().counters();
    assert_eq!(c.gc_moves, 0);
    let page_bytes = bench.config().drive.geometry.units_per_program() as u64 * 4096;
    let waiting = c.host_write_bytes - (c.nand_write_bytes - c.map_write_bytes);
    let open = bench.drive().zones().unwrap().open_zones() as u64;
    assert!(waiting < open * page_bytes, "{waiting} bytes of host writes not programmed, {open} zones open");
    bench.drive().ftl().check_invariants().unwrap();
    (samples[samples.len() / 3..].to_vec(), bench)
}
