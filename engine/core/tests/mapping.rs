//! Mapping schemes: where the table lives decides what each lookup costs [000].

use crate::common;

use common::*;
use ssdlab_core::config::{presets, GcPacing, MapConfig, MapScheme, RunConfig, WorkloadSpec};
use ssdlab_core::{RunRequest, Sample, Summary};

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

/// 5 s of 4 KiB random reads at QD1 on the RC100 over `span` of it, its map as `tweak` leaves it.
fn rc100_reads(span: f64, tweak: impl FnOnce(&mut ssdlab_core::config::MapConfig)) -> (RunConfig, Vec<Sample>) {
    let mut cfg = RunConfig::new(presets::by_id("rc100-480").unwrap(), WorkloadSpec::by_id("random-read").unwrap(), 5);
    cfg.queue_depth = 1;
    cfg.span = span;
    tweak(&mut cfg.drive.map);
    cfg.validate().unwrap();
    let samples = run(cfg.clone());
    (cfg, samples)
}

/// Mean over seconds 1..: the first second loads the map pages the span needs.
fn settled(s: &[Sample], f: fn(&Sample) -> f64) -> f64 {
    s[1..].iter().map(f).sum::<f64>() / (s.len() - 1) as f64
}

#[test]
fn the_host_memory_buffer_answers_lookups_inside_its_coverage_and_a_miss_reads_the_map_from_nand() {
    let flat = |m: &mut MapConfig| m.scheme = MapScheme::Flat;
    // Inside the HMB's coverage (16 GB, AnandTech's burst span; it covers ~24 GB, the SRAM ~1 GB).
    let (cfg, inside) = rc100_reads(0.033, |_| {});
    let (_, inside_flat) = rc100_reads(0.033, flat);
    let map = &cfg.drive.map;
    let data_per_map_byte = (ssdlab_core::units::UNIT_BYTES / 4) as f64;
    let span_bytes = cfg.span * cfg.drive.user_bytes as f64;
    let in_sram = map.cache_bytes as f64 * data_per_map_byte / span_bytes;
    assert!(settled(&inside, |s| s.map_hit_rate) > 0.999);
    let hmb_rate = settled(&inside, |s| s.map_hmb_hit_rate);
    assert!(
        (hmb_rate - (1.0 - in_sram)).abs() < 0.02,
        "HMB answers {} of lookups, expected {}",
        hmb_rate,
        1.0 - in_sram
    );
    // Each HMB hit adds its PCIe round trip to the data read's latency, nothing more.
    let latency = |s: &[Sample]| settled(s, |x| x.mean_latency_us);
    let added_us = latency(&inside) - latency(&inside_flat);
    let expected_us = hmb_rate * map.hmb_access_ns as f64 / 1e3;
    assert!((added_us - expected_us).abs() < 0.2, "HMB hits add {} us, expected {}", added_us, expected_us);

    // Over the whole drive with no HMB: nearly every lookup reads its map page from NAND first,
    // a second NAND read (tR and a whole page over the channel) before the data's.
    let (cfg, whole_off) = rc100_reads(1.0, |m| m.hmb_bytes = 0);
    let (_, whole_flat) = rc100_reads(1.0, flat);
    assert!(settled(&whole_off, |s| s.map_hit_rate) < 0.01);
    assert_eq!(settled(&whole_off, |s| s.map_hmb_hit_rate), 0.0);
    let t = &cfg.drive.timing;
    let map_read_us = (t.read_ns as f64 + cfg.drive.geometry.page_bytes as f64 * 1e3 / t.channel_mb_s as f64) / 1e3;
    let added_us = latency(&whole_off) - latency(&whole_flat);
    assert!(
        (added_us - map_read_us).abs() < 0.05 * map_read_us,
        "a miss adds {} us, a map read is {}",
        added_us,
        map_read_us
    );
    // Twice the latency of a read the map's memory answers: AnandTech's "read latency is doubled".
    let ratio = latency(&whole_off) / latency(&inside);
    assert!((1.8..2.2).contains(&ratio), "{}", ratio);

    // With the HMB over the whole drive: it answers about the share it covers, beyond the SRAM's.
    let (_, whole_on) = rc100_reads(1.0, |_| {});
    let covered = (map.hmb_bytes - map.cache_bytes) as f64 * data_per_map_byte / cfg.drive.user_bytes as f64;
    let hmb_rate = settled(&whole_on, |s| s.map_hmb_hit_rate);
    assert!((hmb_rate - covered).abs() < 0.01, "{} vs {}", hmb_rate, covered);
}

#[test]
fn the_map_s_host_memory_buffer_is_checked_and_listed_by_its_field() {
    let refused = |set: &str| {
        let json = format!(r#"{{"drive":"rc100-480","seconds":1,"set":{{{}}}}}"#, set);
        RunRequest::from_json(&json).and_then(|r| r.resolve()).expect_err(set)
    };
    let e = refused(r#""map.hmb_bytes":65536"#);
    assert_eq!(e.field, "map.hmb_bytes");
    assert!(e.message.contains("map.cache_bytes"), "{}", e.message);
    assert_eq!(refused(r#""map.hmb_access_ns":2000000"#).field, "map.hmb_access_ns");
    assert_eq!(refused(r#""map.hmb_bytes":100000000000"#).field, "map.hmb_bytes");
    // 0 turns it off; a drive without one does not list it.
    assert!(RunRequest::from_json(r#"{"drive":"rc100-480","set":{"map.hmb_bytes":0}}"#).unwrap().resolve().is_ok());
    let listed = |id: &str| {
        let d = presets::by_id(id).unwrap();
        d.limits().iter().filter(|l| l.path.starts_with("map.hmb")).count()
    };
    assert_eq!(listed("rc100-480"), 2);
    assert_eq!(listed("330-240"), 0);
}
