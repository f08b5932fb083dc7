//! Garbage-collection victim policies and pacing, each shown doing what it is for.

use crate::common;

use common::*;
use ssdlab_core::config::GcPacing;
use ssdlab_core::config::{JobSpec, Phase, WorkloadSpec};
use ssdlab_core::{Sample, Summary};

fn hot_cold(victim: &str) -> Summary {
    let mut cfg = small_s3700(256, GcPacing::ConsistencyFirst, 1500, 4);
    cfg.workload = WorkloadSpec::by_id("hot-cold").unwrap();
    cfg.drive.gc.victim = victim.into();
    Summary::from_samples(&run(cfg), 1000)
}

#[test]
fn cost_benefit_beats_greedy_on_a_hot_cold_workload() {
    // 90 % of writes go to 10 % of the span. Greedy keeps taking hot blocks that have not yet
    // had time to empty; cost-benefit waits for them and cleans cold blocks instead.
    let greedy = hot_cold("greedy");
    let cost_benefit = hot_cold("cost-benefit");
    assert!(
        cost_benefit.steady_write_amplification < greedy.steady_write_amplification * 0.8,
        "WA cost-benefit {:.3} vs greedy {:.3}",
        cost_benefit.steady_write_amplification,
        greedy.steady_write_amplification
    );
    assert!(
        cost_benefit.steady_iops_mean > greedy.steady_iops_mean * 1.05,
        "IOPS cost-benefit {:.0} vs greedy {:.0}",
        cost_benefit.steady_iops_mean,
        greedy.steady_iops_mean
    );
}

fn median_iops(s: &[Sample]) -> f64 {
    let mut v: Vec<u32> = s.iter().map(|x| x.iops).collect();
    v.sort_unstable();
    v[v.len() / 2] as f64
}

#[test]
fn lazy_gc_holds_a_tight_band_then_hits_a_wall_while_consistency_first_does_not() {
    // Fresh phase: spare blocks absorb writes with no GC at all, so both hold a tight band.
    let lazy = run(small_s3700(256, GcPacing::Lazy, 700, 2));
    let paced = run(small_s3700(256, GcPacing::ConsistencyFirst, 700, 2));
    let fresh = &lazy[..15];
    let (lo, hi) = (fresh.iter().map(|s| s.iops).min().unwrap(), fresh.iter().map(|s| s.iops).max().unwrap());
    assert!((hi - lo) as f64 / (hi as f64) < 0.02, "fresh band {}..{}", lo, hi);

    // Then the lazy drive stops to clean in bulk: seconds with almost no IOs and multi-second
    // latencies, between fast seconds (over half the fresh rate: the fresh phase is
    // program-bound, ~89K with the S3700's 1.4 ms program, while the relocations' controller
    // time spills into the seconds after a bulk clean and holds them to ~55-67K).
    let after = &lazy[300..];
    let fresh_median = median_iops(fresh);
    let stalled = after.iter().filter(|s| (s.iops as f64) < fresh_median * 0.01).count();
    let full_speed = after.iter().filter(|s| (s.iops as f64) > fresh_median * 0.5).count();
    let worst_ms = after.iter().map(|s| s.max_latency_us).fold(0.0, f64::max) / 1e3;
    assert!(stalled >= 20 && full_speed >= 20, "stalled {} full-speed {} seconds", stalled, full_speed);
    assert!(worst_ms > 1_000.0, "worst latency {} ms", worst_ms);

    // The paced drive spreads the same cleaning over every second.
    let after = &paced[300..];
    let median = median_iops(after);
    let min = after.iter().map(|s| s.iops).min().unwrap() as f64;
    assert!(min > median * 0.7, "paced min {} vs median {}", min, median);
    let worst_ms = after.iter().map(|s| s.max_latency_us).fold(0.0, f64::max) / 1e3;
    assert!(worst_ms < 100.0, "paced worst latency {} ms", worst_ms);
}

#[test]
fn idle_time_lets_background_collection_refill_the_free_pool() {
    let bursty = |background_free_blocks: u32| {
        let mut cfg = small_s3700(128, GcPacing::ConsistencyFirst, 300, 8);
        cfg.burst_s = 40;
        cfg.idle_s = 20;
        cfg.drive.gc.background_free_blocks = background_free_blocks;
        run(cfg)
    };
    let off = bursty(0);
    let on = bursty(12);
    // Bursts are [0, 40), [60, 100), ...; idle seconds serve nothing.
    assert_eq!(on[230].iops, 0);
    assert_eq!(off[230].iops, 0);
    // With background collection the free pool is refilled while the host rests...
    let dies = 33;
    assert!(on[239].free_blocks >= 12 * dies, "{} free blocks at the end of idle", on[239].free_blocks);
    assert!(off[239].free_blocks < on[239].free_blocks / 2);
    // ...so the next burst starts at fresh-drive speed instead of GC-bound speed.
    assert!(on[241].iops as f64 > 1.5 * off[241].iops as f64, "after idle: {} vs {}", on[241].iops, off[241].iops);
}

#[test]
fn trimming_half_the_filled_span_gives_the_spare_area_of_testing_half() {
    // [002]: spare area can be made by partitioning a smaller span, or after the fact by
    // creating a partition, formatting it (TRIM) and deleting it. Both leave the same spare.
    let steady_wa = |span: f64, trim: f64| {
        let mut cfg = small_s3700(128, GcPacing::ConsistencyFirst, 900, 21);
        cfg.span = span;
        cfg.trim_fraction = trim;
        Summary::from_samples(&run(cfg), 600).steady_write_amplification
    };
    let full = steady_wa(1.0, 0.0);
    let trimmed = steady_wa(1.0, 0.5);
    let half = steady_wa(0.5, 0.0);
    assert!((trimmed - half).abs() / half < 0.05, "trimmed {:.3} vs half span {:.3}", trimmed, half);
    assert!(trimmed < full - 0.4, "trimmed {:.3} vs full {:.3}", trimmed, full);
}

#[test]
fn idle_time_erases_every_block_trim_emptied_more_of_them_the_longer_the_rest() {
    // A filled drive, its whole span trimmed in the first second (one pass of 16 MiB TRIMs), then
    // a rest: the blocks that held the data hold nothing valid, and each die erases them while
    // it has time (an erase each, nothing to copy), not only up to gc.background_free_blocks,
    // which the spare blocks already exceed. Slow erases (30 ms), so a short rest erases some.
    let free_blocks_after = |trim_percent: u32, rest_s: u32| {
        let mut cfg = small_s3700(128, GcPacing::ConsistencyFirst, 2 + rest_s, 3);
        cfg.drive.timing.erase_ns = 30_000_000;
        let chunk = 16 << 20;
        let mut first = JobSpec::named(&cfg.workload, chunk, chunk, 1);
        (first.read_percent, first.trim_percent, first.random_percent) = (100 - trim_percent, trim_percent, 0);
        first.rate_iops = (cfg.span_units() * 4096).div_ceil(chunk as u64) as u32;
        // A rest must have a phase after it: a few reads.
        let read = JobSpec { read_percent: 100, trim_percent: 0, rate_iops: 10, ..first.clone() };
        let second = |jobs| Phase { name: String::new(), jobs, runtime_ns: 1_000_000_000, ramp_ns: 0 };
        let rest = Phase { runtime_ns: rest_s as u64 * 1_000_000_000, ..second(Vec::new()) };
        cfg.phases = vec![second(vec![first]), rest, second(vec![read])];
        run(cfg).last().unwrap().free_blocks
    };
    let spare = free_blocks_after(0, 8); // reads instead of TRIMs: idle GC has nothing to do
    let (after_1s, after_8s) = (free_blocks_after(100, 1), free_blocks_after(100, 8));
    let d = small_s3700(128, GcPacing::ConsistencyFirst, 1, 3).drive;
    let (dies, data_blocks) = (d.geometry.dies, d.user_units().div_ceil(d.geometry.units_per_block() as u64) as u32);
    // A second erases 33 blocks on each die; eight erase every emptied one (all the data's but
    // the blocks left open).
    assert!(after_1s >= spare + dies * 30 && after_1s <= spare + dies * 34, "{spare} -> {after_1s} in 1 s");
    assert!(after_8s + dies >= spare + data_blocks, "{spare} -> {after_8s} in 8 s, {data_blocks} held data");
    assert_eq!(after_8s, free_blocks_after(100, 12), "nothing left to erase after 8 s");
}
