//! What happens to the data on its way in: compression on a SandForce-style controller, writes
//! that cover only part of a 4 KiB map unit (read-modify-write), and TRIM commands [000, 002].

use crate::common;

use common::*;
use ssdlab_core::config::WorkloadSpec;
use ssdlab_core::config::{GcPacing, RunConfig};
use ssdlab_core::{Bench, Sample, Summary};

/// Runs `cfg`, checks the FTL's invariants at the end, returns the samples.
fn run_checked(cfg: RunConfig) -> Vec<Sample> {
    let mut sim = Bench::new(cfg).expect("valid config");
    let samples = sim.run_to_end();
    sim.ftl().check_invariants().unwrap();
    samples
}

fn compressing(compressibility: f64, slot_bytes: u32) -> RunConfig {
    let mut cfg = small_s3700(128, GcPacing::ConsistencyFirst, 400, 21);
    cfg.drive.controller.compression = true;
    cfg.drive.controller.compression_slot_bytes = slot_bytes;
    cfg.compressibility = compressibility;
    cfg
}

#[test]
fn compressible_data_lowers_write_amplification_on_a_compressing_controller() {
    let plain = Summary::from_samples(&run(small_s3700(128, GcPacing::ConsistencyFirst, 400, 21)), 300);
    let random_data = Summary::from_samples(&run_checked(compressing(0.0, 1024)), 300);
    let half = Summary::from_samples(&run_checked(compressing(0.5, 1024)), 300);
    let mostly = Summary::from_samples(&run_checked(compressing(0.75, 512)), 300);
    // Incompressible data (the articles' test) gets no help: every unit takes all its slots.
    let rel = |a: f64, b: f64| (a - b).abs() / b;
    assert!(
        rel(random_data.steady_write_amplification, plain.steady_write_amplification) < 0.03,
        "{} vs {}",
        random_data.steady_write_amplification,
        plain.steady_write_amplification
    );
    assert!(
        rel(random_data.steady_iops_mean, plain.steady_iops_mean) < 0.05,
        "{} vs {}",
        random_data.steady_iops_mean,
        plain.steady_iops_mean
    );
    // Data that halves programs under half the pages per host write: the NAND written per
    // host byte halves, and the live data fills half the slots, so GC moves far less.
    assert!(
        half.steady_write_amplification < 0.45 * plain.steady_write_amplification,
        "{} vs {}",
        half.steady_write_amplification,
        plain.steady_write_amplification
    );
    assert!(
        mostly.steady_write_amplification < 0.6 * half.steady_write_amplification,
        "{} vs {}",
        mostly.steady_write_amplification,
        half.steady_write_amplification
    );
    // Fewer programs per write: the same dies sustain more host writes.
    assert!(
        half.steady_iops_mean > 1.3 * plain.steady_iops_mean,
        "{} vs {}",
        half.steady_iops_mean,
        plain.steady_iops_mean
    );
}

#[test]
fn compressibility_matters_only_to_a_compressing_controller() {
    let mut cfg = small_s3700(64, GcPacing::ConsistencyFirst, 60, 22);
    let plain = run(cfg.clone());
    cfg.compressibility = 0.6;
    assert_eq!(run(cfg), plain);
}

#[test]
fn sub_4k_unaligned_writes_pay_a_read_modify_write() {
    let qd1 = |workload: &str, block_bytes: u32| {
        let mut cfg = small_s3700(64, GcPacing::ConsistencyFirst, 30, 23);
        cfg.workload = WorkloadSpec::by_id(workload).unwrap();
        cfg.block_bytes = block_bytes;
        cfg.align_bytes = block_bytes;
        cfg.queue_depth = 1;
        run_checked(cfg)
    };
    // The redo log of [000]: 1.5 KB sequential writes at QD1. Each 4 KiB unit is first touched
    // by a write covering part of it; the drive holds the rest only on NAND and reads it first.
    let redo = qd1("redo-log", 1536);
    let aligned = qd1("sequential-write", 4096);
    let mean = |s: &[Sample], f: fn(&Sample) -> f64| s[5..].iter().map(f).sum::<f64>() / (s.len() - 5) as f64;
    let (redo_rmw, redo_ios) = (mean(&redo, |s| s.rmw_reads as f64), mean(&redo, |s| s.iops as f64));
    // 1536 B writes start a new unit 3 times in every 8 writes; every one of those reads.
    assert!((redo_rmw / redo_ios - 3.0 / 8.0).abs() < 0.02, "{} RMW reads per write", redo_rmw / redo_ios);
    assert_eq!(aligned.iter().map(|s| s.rmw_reads).sum::<u32>(), 0);
    let lat = |s: &Sample| s.mean_latency_us;
    assert!(
        mean(&redo, lat) > 2.0 * mean(&aligned, lat),
        "redo {} us vs aligned 4 KiB {} us",
        mean(&redo, lat),
        mean(&aligned, lat)
    );
    let mb = |s: &Sample| s.mb_s;
    assert!(
        mean(&redo, mb) < 0.25 * mean(&aligned, mb),
        "redo {} MB/s vs aligned {} MB/s",
        mean(&redo, mb),
        mean(&aligned, mb)
    );

    // 4 KiB random writes aligned to 512 B instead of 4 KiB: most touch two units, each partly.
    let mut cfg = small_s3700(64, GcPacing::ConsistencyFirst, 30, 24);
    cfg.align_bytes = 512;
    let unaligned = run_checked(cfg);
    let per_write = mean(&unaligned, |s| s.rmw_reads as f64) / mean(&unaligned, |s| s.iops as f64);
    assert!((per_write - 2.0 * 7.0 / 8.0).abs() < 0.05, "{} RMW reads per write", per_write);
    // Each such write programs two units for one unit of host data.
    let wa = |s: &[Sample]| s.iter().map(|x| x.nand_writes).sum::<f64>() / s.iter().map(|x| x.host_writes).sum::<f64>();
    let aligned_random = run(small_s3700(64, GcPacing::ConsistencyFirst, 30, 24));
    assert!(wa(&unaligned) > 1.6 * wa(&aligned_random), "{} vs {}", wa(&unaligned), wa(&aligned_random));
}

#[test]
fn trimmed_data_is_not_copied_by_gc() {
    let mut cfg = small_s3700(128, GcPacing::ConsistencyFirst, 400, 25);
    let plain = Summary::from_samples(&run(cfg.clone()), 300);
    cfg.workload = WorkloadSpec::by_id("write-trim").unwrap();
    let mut sim = Bench::new(cfg).unwrap();
    let trimmed = Summary::from_samples(&sim.run_to_end(), 300);
    sim.ftl().check_invariants().unwrap();
    // A tenth of the commands unmap a unit; random writes map units again, so at equilibrium a
    // share of the span is unmapped: spare area the GC does not have to copy.
    let span = sim.config().workload_units() as u32;
    let unmapped = (0..span).filter(|&l| sim.ftl().ppa_of(l) == ssdlab_core::units::NONE).count() as f64 / span as f64;
    assert!(unmapped > 0.05, "{} of the span unmapped", unmapped);
    assert!(
        trimmed.steady_write_amplification < plain.steady_write_amplification - 0.2,
        "{} vs {}",
        trimmed.steady_write_amplification,
        plain.steady_write_amplification
    );
}

#[test]
fn a_map_of_whole_8k_pages_makes_writes_not_aligned_to_the_page_pay() {
    // One map entry per 8 KB page: a write must rewrite whole entries, reading what it does not
    // cover. On the S3700's 4 KB map none of these writes reads anything.
    let run_with = |entry_bytes: u64, block_bytes: u32, align_bytes: u32| {
        let mut cfg = small_s3700(128, GcPacing::ConsistencyFirst, 6, 26);
        cfg.drive.map.unit_bytes = entry_bytes;
        cfg.block_bytes = block_bytes;
        cfg.align_bytes = align_bytes;
        let s = &run_checked(cfg)[1..5]; // the fresh drive: no GC yet
        assert!(s.iter().all(|x| x.gc_moves == 0));
        let sum = |f: fn(&Sample) -> f64| s.iter().map(f).sum::<f64>();
        (
            sum(|x| x.rmw_reads as f64) / sum(|x| x.iops as f64),
            sum(|x| x.nand_writes) / sum(|x| x.host_writes),
            sum(|x| x.mb_s),
        )
    };
    let (rmw, wa, _) = run_with(4096, 4096, 4096);
    assert_eq!((rmw, wa.round()), (0.0, 1.0));
    // 4 KB writes on an 8 KB map: every one reads the other half and writes both.
    let (rmw, wa, mb_4k) = run_with(8192, 4096, 4096);
    assert!(rmw > 0.95 && (wa - 2.0).abs() < 0.05, "{} reads per write, WA {}", rmw, wa);
    // 8 KB writes aligned to the page cost nothing extra...
    let (rmw, wa, aligned) = run_with(8192, 8192, 8192);
    assert!(rmw == 0.0 && (wa - 1.0).abs() < 0.02, "{} {}", rmw, wa);
    // ...but aligned only to 4 KB, half of them straddle two pages: two reads, four units.
    let (rmw, wa, straddling) = run_with(8192, 8192, 4096);
    assert!((rmw - 1.0).abs() < 0.05 && (wa - 1.5).abs() < 0.05, "{} reads per write, WA {}", rmw, wa);
    assert!(straddling < 0.8 * aligned && mb_4k < 0.5 * aligned, "MB/s {} {} {}", straddling, aligned, mb_4k);
}
