//! The d-choices victim policy against Van Houdt's mean-field model (SIGMETRICS 2013): under
//! uniform random writes its steady-state write amplification is predicted for every d; d = 1
//! is random GC, WA = raw / (raw - user).

use ssdlab_core::config::{presets, GcPacing, RunConfig, WorkloadSpec};
use ssdlab_core::drive::ftl::victim::d_choices_wa_theory;
use ssdlab_core::{Bench, Summary};

/// A drive with few dies and many blocks per die, so each die's pool is large (the model is for
/// many blocks) and the free-block reserve is a small share of it.
fn drive_at(user_over_raw: f64, d: u32) -> RunConfig {
    let mut drive = presets::by_id("s3700-200").unwrap();
    let g = &mut drive.geometry;
    (g.channels, g.dies, g.planes, g.page_bytes, g.pages_per_block, g.blocks_per_plane) = (2, 2, 1, 8192, 64, 2048);
    drive.user_bytes = (drive.geometry.raw_bytes() as f64 * user_over_raw) as u64 / 4096 * 4096;
    // The mean-field model's spare area is all GC's: no firmware reserve.
    drive.gc.reserved_percent = 0.0;
    drive.gc.victim = "d-choices".into();
    drive.gc.victim_choices = d;
    drive.gc.pacing = GcPacing::Lazy;
    (drive.gc.min_free_blocks, drive.gc.start_free_blocks) = (2, 3);
    (drive.gc.boost_below_free_blocks, drive.gc.boost_until_free_blocks) = (2, 3);
    drive.gc.background_free_blocks = 0;
    drive.wear.static_levelling = false;
    let workload = WorkloadSpec::by_id("random-write").unwrap();
    RunConfig { seed: 11, queue_depth: 8, ..RunConfig::new(drive, workload, 1) }
}

/// Steady-state WA: the run writes the span `drive_writes` times over; WA is measured over the
/// last third.
fn measured_wa(mut cfg: RunConfig, drive_writes: f64) -> (f64, f64) {
    let user_units = cfg.drive.user_units() as f64;
    cfg.seconds = 100_000; // ends when the span has been written `drive_writes` times
    let mut bench = Bench::new(cfg).unwrap();
    let mut samples = Vec::new();
    let mut written = 0.0;
    while written < user_units * drive_writes && !bench.finished() {
        let before = samples.len();
        bench.advance(100_000, &mut samples);
        written += samples[before..].iter().map(|s| s.host_writes).sum::<f64>();
    }
    let steady_from = (samples.len() * 2 / 3) as u32;
    let s = Summary::from_samples(&samples, steady_from);
    // The model's blocks are all in circulation; this drive keeps a few free and two open per
    // die. Its user / raw counts only the blocks that hold data.
    let g = &bench.config().drive.geometry;
    let free: f64 = samples[steady_from as usize..].iter().map(|x| x.free_blocks as f64).sum::<f64>()
        / (samples.len() - steady_from as usize) as f64;
    let circulating = g.raw_units() as f64 - (free + g.dies as f64) * g.units_per_block() as f64;
    (s.steady_write_amplification, user_units / circulating)
}

#[test]
fn d_choices_write_amplification_follows_the_mean_field_model() {
    for user_over_raw in [0.7, 0.8] {
        let mut was = Vec::new();
        for d in [1, 2, 10] {
            let cfg = drive_at(user_over_raw, d);
            let b = cfg.drive.geometry.units_per_block();
            let (wa, rho) = measured_wa(cfg, 12.0);
            let model = d_choices_wa_theory(rho, b, d);
            println!(
                "user/raw {:.2} (in circulation {:.4}), d = {:2}: WA {:.3}, model {:.3}",
                user_over_raw, rho, d, wa, model
            );
            assert!(
                (wa - model).abs() < 0.05 * model,
                "user/raw {} d {}: WA {:.3} vs model {:.3}",
                user_over_raw,
                d,
                wa,
                model
            );
            was.push(wa);
        }
        assert!(was[0] > was[1] && was[1] > was[2], "more choices, less copying: {:?}", was);
    }
    // d = 1 is random GC: raw / (raw - user).
    assert!((d_choices_wa_theory(0.75, 128, 1) - 4.0).abs() < 0.04);
}
