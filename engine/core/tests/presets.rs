//! The drive presets against what their articles (and datasheets) show: each calibrated behaviour
//! of docs/CALIBRATION.md, reproduced from the presets' parameters and the model's mechanisms.
//!
//! Where a behaviour depends on the drive's size (when its spare area runs out, the shape of a
//! 2000 s run), the test runs the full-size preset. Where it does not (reads, fresh writes,
//! sequential overwrites, the steady state's level and spread), it runs the same architecture
//! with fewer blocks per plane: same channels, dies, timings, controller and spare-area fraction
//! (`scaled`), which is much faster; docs/CALIBRATION.md shows both agree.

use ssdlab_core::config::{presets, RunConfig, WorkloadSpec};
use ssdlab_core::experiment::calibrate;
use ssdlab_core::{Bench, Sample};

/// `id` with `blocks_per_plane` blocks per plane (the calibration's scaling: same channels,
/// dies, timings, controller and spare-area fraction).
fn scaled(id: &str, blocks_per_plane: u32) -> ssdlab_core::DriveConfig {
    calibrate::scaled(&presets::by_id(id).unwrap(), blocks_per_plane).unwrap()
}

/// Per-second IOPS of `workload` on `drive` for `seconds`, at `queue_depth` (0: the workload's).
fn run(drive: ssdlab_core::DriveConfig, workload: &str, seconds: u32, queue_depth: u32) -> Vec<f64> {
    let mut cfg = RunConfig::new(drive, WorkloadSpec::by_id(workload).unwrap(), seconds);
    if queue_depth > 0 {
        cfg.queue_depth = queue_depth;
    }
    let samples: Vec<Sample> = Bench::new(cfg).unwrap().run_to_end();
    samples.iter().map(|s| s.iops as f64).collect()
}

/// The IO-consistency test of [000]/[002] on the full-size preset.
fn consistency(id: &str, seconds: u32) -> Vec<f64> {
    run(presets::by_id(id).unwrap(), "consistency", seconds, 0)
}

fn mean(x: &[f64]) -> f64 {
    x.iter().sum::<f64>() / x.len() as f64
}

fn min(x: &[f64]) -> f64 {
    x.iter().cloned().fold(f64::INFINITY, f64::min)
}

fn max(x: &[f64]) -> f64 {
    x.iter().cloned().fold(0.0, f64::max)
}

/// The `q`-quantile (0..1) of `x`.
fn quantile(x: &[f64], q: f64) -> f64 {
    let mut v = x.to_vec();
    v.sort_by(|a, b| a.total_cmp(b));
    v[((v.len() - 1) as f64 * q).round() as usize]
}

fn within(value: f64, target: f64, tolerance: f64) -> bool {
    (value - target).abs() <= tolerance * target
}

/// Starts of runs of at least `min_len` seconds below `fraction` of the median.
fn dips(iops: &[f64], fraction: f64, min_len: usize) -> Vec<usize> {
    calibrate::dip_starts(iops, fraction, min_len)
}

#[test]
fn every_preset_gives_a_source_for_its_architecture() {
    let fields = [
        "user_bytes",
        "spec_random_write_iops",
        "host.protocol",
        "host.link_mb_s",
        "geometry.channels",
        "geometry.dies",
        "geometry.page_bytes",
        "nand.cell",
        "timing.program_ns",
        "gc.pacing",
        "power.capacitors",
        "map.scheme",
    ];
    for d in presets::presets() {
        let sources = presets::sources(&d.id).unwrap();
        for f in fields {
            assert!(sources.contains_key(f), "{} gives no source for {}", d.id, f);
        }
    }
    assert!(presets::presets().len() >= 21, "every drive of drives.md has a preset");
}

#[test]
fn sas_holds_its_tagged_commands_and_rejects_what_sas_cannot_do() {
    // The SSD400S advertises 128 tags: QD256 gives no more than QD128 (the rest wait in the
    // host), and its 41K random reads [001] are its controller's rate.
    let d = scaled("ssd400s-400", 64);
    let qd128 = mean(&run(d.clone(), "random-read", 3, 128)[1..]);
    let qd256 = mean(&run(d.clone(), "random-read", 3, 256)[1..]);
    assert!(qd256 <= qd128 * 1.01, "QD128 {} vs QD256 {}", qd128, qd256);
    assert!(within(qd128, 41_000.0, 0.15), "{}", qd128);
    let mut bad = d.clone();
    bad.host.queues = 2;
    assert_eq!(bad.validate().unwrap_err().field, "host.queues");
    let mut bad = d;
    bad.host.max_queue_depth = 300;
    assert_eq!(bad.validate().unwrap_err().field, "host.max_queue_depth");
}

#[test]
fn p3700_1600_queue_depth_figures_match_the_review() {
    // [003]: 4 KB random reads ~8,900 IOPS at QD1, ~77,000 at QD8, 450K peak; sequential writes
    // ~1.9 GB/s from QD4. Reads and sequential overwrites do not depend on capacity: the same 128
    // dies with fewer blocks each.
    let d = scaled("p3700-1600", 64);
    let rr = |qd| mean(&run(d.clone(), "random-read", 2, qd)[1..]);
    let (qd1, qd8, qd128) = (rr(1), rr(8), rr(128));
    assert!(within(qd1, 8_900.0, 0.15), "QD1 {}", qd1);
    assert!(within(qd8, 77_000.0, 0.15), "QD8 {}", qd8);
    assert!(within(qd128, 450_000.0, 0.15), "QD128 {}", qd128);
    // Sequential writes settle after ~4 s (the round-robin stripe meeting busy channels): from 5 s.
    for qd in [4, 32] {
        let mb_s = mean(&run(d.clone(), "sequential-write", 10, qd)[5..]) * 131_072.0 / 1e6;
        assert!(within(mb_s, 1_900.0, 0.15), "sequential write QD{}: {} MB/s", qd, mb_s);
    }
}

#[test]
fn p400e_runs_a_tight_band_then_hits_a_wall() {
    // [000]: 'a very tight distribution of IOPS' while it burns through clean spare blocks, then
    // a wall: 'some transactions complete at respectable rates while others effectively deliver
    // dozens of IOPS'. Full size: when the wall comes depends on how much spare area there is.
    let iops = consistency("p400e-400", 1100);
    let band = &iops[10..600];
    let median = quantile(band, 0.5);
    assert!(min(band) > 0.98 * median && max(band) < 1.02 * median, "band {}..{}", min(band), max(band));
    let after = &iops[800..];
    let stalled = after.iter().filter(|&&v| v < 1_000.0).count();
    let near_normal = after.iter().filter(|&&v| v > 0.8 * median).count();
    assert!(stalled * 10 >= after.len(), "{} of {} seconds under 1,000 IOPS", stalled, after.len());
    assert!(near_normal * 10 >= after.len(), "{} of {} seconds near the band", near_normal, after.len());
}

#[test]
fn samsung_840_pro_varies_tenfold_but_never_stops() {
    // [000]: 'at least an order of magnitude difference between the worst case and best case
    // performance', yet 'nowhere near as bad as the P400e's'. The tenfold holds in the steady
    // state the article zooms on (t >= 1400 s), not only between the fresh drive's first
    // seconds and its worst: collection far under break-even, then drive-wide catch-ups.
    let iops = consistency("840pro-256", 2000);
    assert!(min(&iops) > 1_000.0, "worst second {}", min(&iops));
    let steady = &iops[1400..];
    assert!(max(steady) >= 10.0 * min(steady), "steady state {}..{}", min(steady), max(steady));
}

#[test]
fn x25e_is_low_but_consistent() {
    // [000]: 'low by modern standards' but 'more consistent than most'; datasheet 3,300 IOPS.
    let iops = consistency("x25e-64", 2000);
    let m = mean(&iops[100..]);
    assert!(within(m, 3_300.0, 0.15), "mean {}", m);
    assert!(min(&iops[100..]) > 0.85 * m && max(&iops[100..]) < 1.15 * m, "{}..{}", min(&iops), max(&iops));
}

#[test]
fn intel_710_and_320_scatter_around_their_datasheet_rates() {
    // [000]: the 710 clusters around its average with dips even early (its B-tree clean-ups);
    // datasheet 2,700 IOPS. The 320 on the same controller: 600 IOPS [000].
    let cfg = RunConfig::new(presets::by_id("710-200").unwrap(), WorkloadSpec::by_id("consistency").unwrap(), 2000);
    let samples: Vec<Sample> = Bench::new(cfg).unwrap().run_to_end();
    let iops: Vec<f64> = samples.iter().map(|s| s.iops as f64).collect();
    assert!(within(mean(&iops), 2_700.0, 0.15), "710 mean {}", mean(&iops));
    // Scattered, not a line (the S3700 holds within ~20 %): from the start, many seconds fall
    // well below the average and many rise well above it, as clean-ups come and go.
    let m = mean(&iops);
    let early = &iops[..300];
    let below = early.iter().filter(|&&v| v < 0.85 * m).count();
    let above = early.iter().filter(|&&v| v > 1.25 * m).count();
    assert!(below >= 60 && above >= 60, "710 early: {} below, {} above {}", below, above, m);
    assert!(quantile(&iops, 0.9) > 1.5 * quantile(&iops, 0.1), "710 spread {:?}", &iops[..20]);
    // ... around a declining average: 'over time the controller seems to bite off more than it
    // can chew and thus performance degrades'. The last third at most 90 % of the first.
    let third = iops.len() / 3;
    let (first, last) = (mean(&iops[..third]), mean(&iops[2 * third..]));
    assert!(last <= 0.9 * first, "710 thirds: first {} last {}", first, last);
    // The mechanism: no NAND GC yet (the host rewrites ~11 % of the span), but random writes
    // split the tree's extents until it outgrows its DRAM: every lookup hits early, most miss
    // late.
    assert_eq!(samples.iter().map(|s| s.gc_moves as u64).sum::<u64>(), 0);
    assert!(samples[100].map_hit_rate > 0.99, "early hit rate {}", samples[100].map_hit_rate);
    assert!(samples[1999].map_hit_rate < 0.5, "late hit rate {}", samples[1999].map_hit_rate);
    let iops = consistency("320-300", 600);
    assert!(within(mean(&iops[10..]), 600.0, 0.15), "320 mean {}", mean(&iops[10..]));
}

#[test]
fn s3500_dips_often_and_regularly() {
    // [002]: like the S3700 with much less spare area: 'periodic dips ... at regular (and
    // frequent) intervals' and a slight upward trend. Full size, over the first 1200 s.
    let iops = consistency("s3500-480", 1200);
    let starts: Vec<usize> = dips(&iops[400..], 0.85, 5).into_iter().map(|s| s + 400).collect();
    assert!(starts.len() >= 8, "dips at {:?}", starts);
    let periods: Vec<f64> = starts.windows(2).map(|w| (w[1] - w[0]) as f64).collect();
    // More frequent than the S3700's ~150 s, and regular: most periods within 30 % of the
    // typical one.
    let typical = quantile(&periods, 0.5);
    let regular = periods.iter().filter(|&&p| within(p, typical, 0.3)).count();
    assert!(typical < 100.0 && regular * 10 >= periods.len() * 8, "periods {:?}", periods);
    // The slight upward trend after the drop.
    assert!(mean(&iops[900..1200]) > mean(&iops[250..550]), "no upward trend");
}

#[test]
fn intel_330_does_well_then_loses_its_cool_late() {
    // [000]: the SandForce 330 'does very well here ... if you look at the tail end of the 330's
    // curve you begin to see the drive lose its cool'. Full size.
    let iops = consistency("330-240", 2000);
    let middle = &iops[800..1600];
    let median = quantile(middle, 0.5);
    assert!(min(middle) > 0.85 * median && max(middle) < 1.15 * median, "{}..{}", min(middle), max(middle));
    let tail = &iops[1650..];
    assert!(min(tail) < 0.75 * median, "tail {} vs {}", min(tail), median);
}

#[test]
fn toshiba_sas_slc_is_fairly_good() {
    // [000]: 'Toshiba's SAS controller actually does a fairly good job here - once again thanks
    // in part to its use of SLC NAND': a band, wider than the S3700's line, never collapsing.
    // Steady state on the same architecture with fewer blocks per die.
    let iops = run(scaled("mk4001-400", 256), "consistency", 900, 0);
    let steady = &iops[500..];
    assert!(min(steady) > 0.7 * max(steady), "{}..{}", min(steady), max(steady));
}

#[test]
fn spec_sheet_figures_that_the_model_meets() {
    // (drive, workload, queue depth, target IOPS or MB/s, unit). Sources in docs/CALIBRATION.md:
    // [000]/[001] tables, drives.md, or the vendor's datasheet. Capacity does not matter to
    // these (reads, fresh writes, sequential overwrites), so the drives are scaled down.
    let cases: [(&str, &str, u32, f64, bool); 12] = [
        ("s3700-200", "random-read", 32, 75_000.0, false),
        ("s3700-800", "random-read", 32, 75_000.0, false),
        ("s3700-800", "sequential-write", 32, 460.0, true),
        ("710-200", "random-read", 32, 38_500.0, false),
        ("710-200", "sequential-read", 32, 270.0, true),
        ("x25e-64", "random-read", 32, 35_000.0, false),
        ("320-300", "random-read", 32, 39_500.0, false),
        ("840pro-256", "random-read", 32, 100_000.0, false),
        ("840pro-256", "sequential-write", 32, 520.0, true),
        ("ssd400s-400", "sequential-read", 32, 516.0, true),
        ("910-800", "random-read", 128, 180_000.0, false),
        ("910-800", "sequential-read", 128, 2_000.0, true),
    ];
    for (id, workload, qd, target, mb_s) in cases {
        let iops = mean(&run(scaled(id, 256), workload, 3, qd)[1..]);
        let value = if mb_s { iops * 131_072.0 / 1e6 } else { iops };
        assert!(within(value, target, 0.15), "{} {} QD{}: {} against {}", id, workload, qd, value, target);
    }
    // The 320's sequential writes swing as its B-tree clean-ups come and go: a 12 s mean.
    let seq = mean(&run(scaled("320-300", 256), "sequential-write", 12, 32)[1..]) * 131_072.0 / 1e6;
    assert!(within(seq, 220.0, 0.15), "320 sequential writes {} MB/s", seq);
    // Fresh random writes need the full drive's spare area to stay fresh for a few seconds.
    let fresh = mean(&run(presets::by_id("840pro-256").unwrap(), "random-write", 3, 32)[1..]);
    assert!(within(fresh, 90_000.0, 0.15), "840 Pro fresh random writes {}", fresh);
}
