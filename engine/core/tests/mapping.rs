//! Mapping schemes: where the table lives decides what each lookup costs [000].

use crate::common;

use common::*;
use ssdlab_core::config::GcPacing;
use ssdlab_core::config::MapScheme;
use ssdlab_core::{Sample, Summary};

fn run_with(scheme: MapScheme, tweak: impl FnOnce(&mut ssdlab_core::config::MapConfig)) -> Vec<Sample> {
    let mut cfg = small_s3700(128, GcPacing::ConsistencyFirst, 120, 6);
    cfg.drive.map.scheme = scheme;
    tweak(&mut cfg.drive.map);
    run(cfg)
}

#[test]
fn a_small_dram_with_a_cached_map_loses_throughput_to_map_misses() {
    let table_bytes = small_s3700(128, GcPacing::ConsistencyFirst, 1, 1).drive.user_units() * 4;
    let flat = Summary::from_samples(&run_with(MapScheme::Flat, |_| {}), 60);
    let roomy = run_with(MapScheme::Cached, |m| m.cache_bytes = table_bytes);
    let small = run_with(MapScheme::Cached, |m| m.cache_bytes = table_bytes / 100);
    let (roomy_s, small_s) = (Summary::from_samples(&roomy, 60), Summary::from_samples(&small, 60));
    // The whole table fits: after it is loaded, as fast as flat.
    assert!(
        (roomy_s.steady_iops_mean - flat.steady_iops_mean).abs() / flat.steady_iops_mean < 0.05,
        "{} vs {}",
        roomy_s.steady_iops_mean,
        flat.steady_iops_mean
    );
    assert!(roomy[100].map_hit_rate > 0.99, "{}", roomy[100].map_hit_rate);
    // 1 % of it fits: most random writes miss, read a map page and write a dirty one back.
    assert!(small[100].map_hit_rate < 0.1, "{}", small[100].map_hit_rate);
    assert!(
        small_s.steady_iops_mean < flat.steady_iops_mean / 2.0,
        "{} vs {}",
        small_s.steady_iops_mean,
        flat.steady_iops_mean
    );
    assert!(small_s.steady_write_amplification > flat.steady_write_amplification + 0.5);
}

#[test]
fn a_tree_map_stalls_periodically_to_clean_itself() {
    let flat = run_with(MapScheme::Flat, |_| {});
    // Small leaves, so this small drive has as many leaves to dirty as the full-size one.
    let tree = run_with(MapScheme::Tree, |m| m.tree_leaf_entries = 16);
    // In the fresh phase (no NAND GC yet: the flat run's first 8 s at ~89K IOPS on this drive)
    // the flat map is a line; the tree's clean-ups hold the controller, so some seconds stall
    // and the worst latency jumps.
    let fresh = |s: &[Sample]| -> (u32, u32, f64) {
        let w = &s[2..8];
        (
            w.iter().map(|x| x.iops).min().unwrap(),
            w.iter().map(|x| x.iops).max().unwrap(),
            w.iter().map(|x| x.max_latency_us).fold(0.0, f64::max),
        )
    };
    let (fmin, fmax, flat_worst) = fresh(&flat);
    let (tmin, tmax, tree_worst) = fresh(&tree);
    assert!((fmax - fmin) as f64 / (fmax as f64) < 0.02, "flat {}..{}", fmin, fmax);
    assert!(tree_worst > 100.0 * flat_worst, "worst latency tree {} us vs flat {} us", tree_worst, flat_worst);
    // Time spent cleaning is time not serving the host.
    assert!((tmax as f64) < 0.7 * fmin as f64, "tree {}..{} vs flat {}..{}", tmin, tmax, fmin, fmax);
    // Clean-ups recur: most seconds of the fresh phase contain one.
    let stalled = tree[2..8].iter().filter(|s| s.max_latency_us > 5.0 * flat_worst).count();
    assert!(stalled >= 4, "{} of 6 seconds with a clean-up", stalled);
}
