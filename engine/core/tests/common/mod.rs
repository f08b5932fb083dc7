//! Shared helpers for the model's integration tests.
#![allow(dead_code)]

use ssdlab_core::config::WorkloadSpec;
use ssdlab_core::config::{GcPacing, RunConfig};
use ssdlab_core::{presets, Bench, Sample};

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
