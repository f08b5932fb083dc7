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
/// blocks a die; 120 zones of 4 MiB, each over `zone_dies` dies (4 or 8 blocks on each): 480
/// of the 512 MiB. At most `max_open` zones open and `max_active` active.
pub fn zoned_over(zone_dies: u32, max_open: u32, max_active: u32) -> DriveConfig {
    let mut d = presets::by_id("s3700-200").unwrap();
    let g = &mut d.geometry;
    (g.channels, g.dies, g.planes, g.page_bytes, g.pages_per_block, g.blocks_per_plane) = (2, 2, 2, 16384, 16, 512);
    d.gc.reserved_percent = 0.0;
    (d.gc.start_free_blocks, d.gc.boost_below_free_blocks, d.gc.boost_until_free_blocks) = (6, 3, 5);
    // A victim policy that would take blocks holding data: a zoned drive never takes a victim.
    d.gc.victim = "fifo".into();
    d.user_bytes = 120 * 4 * MIB;
    d.zoned = Some(ZonedConfig {
        zone_bytes: 4 * MIB,
        zone_capacity_bytes: 4 * MIB,
        zone_dies,
        max_open_zones: max_open,
        max_active_zones: max_active,
        append_max_bytes: 256 << 10,
    });
    d.validate().unwrap();
    d
}

/// 2 dies on 2 channels, 2 planes of 16 KiB pages, 16 pages a block (128 units), 512 blocks a
/// die: 512 MiB of flash, 80 % of it for the host. Fast programs, so the host's rates, not the
/// dies, set the pace. With `handles`, FDP placement handles (initial isolation).
pub fn placement_drive(handles: Option<u32>) -> DriveConfig {
    let mut d = presets::by_id("s3700-200").unwrap();
    let g = &mut d.geometry;
    (g.channels, g.dies, g.planes, g.page_bytes, g.pages_per_block, g.blocks_per_plane) = (2, 2, 2, 16384, 16, 512);
    d.user_bytes = d.geometry.raw_bytes() * 4 / 5 / 4096 * 4096;
    d.gc.reserved_percent = 0.0;
    (d.gc.start_free_blocks, d.gc.boost_below_free_blocks, d.gc.boost_until_free_blocks) = (6, 3, 5);
    d.gc.background_free_blocks = 8;
    d.timing.program_ns = 500_000;
    d.placement =
        handles.map(|handles| PlacementConfig { kind: PlacementKind::Fdp, handles, isolation: Isolation::Initial });
    d.validate().unwrap();
    d
}
