//! Power cuts against two truths: what the host was told (acknowledged writes) and what the
//! NAND holds afterwards (durable writes, including what the capacitor flush saved).

use crate::common;

use std::collections::HashMap;

use common::*;
use ssdlab_core::bench::power_cut_json;
use ssdlab_core::config::{GcPacing, RunConfig};
use ssdlab_core::drive::power::PowerCutReport;
use ssdlab_core::rng::Rng;
use ssdlab_core::Bench;

/// `cuts` power cuts at random moments of a `seconds`-long run on a small S3700.
fn with_cuts(
    seconds: u32,
    cuts: usize,
    seed: u64,
    tweak: impl FnOnce(&mut RunConfig),
) -> (Vec<PowerCutReport>, Vec<ssdlab_core::Sample>) {
    let mut cfg = small_s3700(64, GcPacing::ConsistencyFirst, seconds, seed);
    let mut rng = Rng::new(seed ^ 0xC0FFEE);
    let end_ns = seconds as u64 * 1_000_000_000;
    let mut at: Vec<u64> = (0..cuts).map(|_| 1 + rng.below(end_ns - 2)).collect();
    at.sort_unstable();
    cfg.power_cuts_ns = at;
    tweak(&mut cfg);
    let mut sim = Bench::new(cfg).unwrap();
    let samples = sim.run_to_end();
    sim.ftl().check_invariants().unwrap();
    (sim.power_cuts().to_vec(), samples)
}

/// Last version (sequence number) of each LBA in a list of writes.
fn last_versions(writes: &[(u64, u64)]) -> HashMap<u64, u64> {
    let mut m = HashMap::new();
    for &(lpa, seq) in writes {
        let v = m.entry(lpa).or_insert(seq);
        *v = (*v).max(seq);
    }
    m
}

#[test]
fn a_thousand_cuts_with_healthy_capacitors_lose_no_acknowledged_write() {
    let (reports, _) = with_cuts(300, 1000, 11, |_| {});
    assert_eq!(reports.len(), 1000);
    let mut at_risk = 0;
    for r in &reports {
        assert_eq!(r.acknowledged_writes_lost, 0, "cut at {} ns", r.at_ns);
        // Every LBA reads back its last acknowledged version.
        assert_eq!(last_versions(&r.acknowledged), last_versions(&r.durable), "cut at {} ns", r.at_ns);
        assert!(r.energy_needed_uj <= r.energy_stored_uj);
        assert!(r.rebuild_ms > 0.0);
        at_risk += r.flushed_units;
    }
    // The cuts hit a busy buffer: the flush had real work to do.
    assert!(at_risk > 1000 * 100, "only {} units flushed over 1000 cuts", at_risk);
}

#[test]
fn failed_capacitors_are_found_by_the_self_test_and_the_drive_writes_through() {
    // The bank fails at 20 s; the self-test every 30 s finds it at 30 s.
    let (reports, samples) = with_cuts(120, 300, 12, |cfg| {
        cfg.drive.power.capacitor_fails_at_s = 20;
        cfg.drive.power.self_test_interval_s = 30;
    });
    assert_eq!(samples[10].smart_flag, 0);
    assert_eq!(samples[10].write_buffering, 1);
    assert_eq!(samples[25].capacitors_healthy, 0, "failed at 20 s");
    assert_eq!(samples[25].smart_flag, 0, "not yet noticed");
    assert_eq!(samples[40].smart_flag, 1);
    assert_eq!(samples[40].write_buffering, 0);
    for r in &reports {
        let s = r.at_ns as f64 / 1e9;
        if s > 31.0 {
            // Writing through: nothing is acknowledged before it is on NAND.
            assert_eq!(r.acknowledged_writes_lost, 0, "cut at {} s", s);
            assert_eq!(last_versions(&r.acknowledged), last_versions(&r.durable));
        } else if s > 20.5 && s < 29.5 {
            // Failed but unnoticed: the buffer is still trusted and everything in it is lost.
            assert!(r.acknowledged_writes_lost > 0, "cut at {} s", s);
        }
    }
    // Writing through, each acknowledgement waits for a NAND program: latency goes up.
    assert!(samples[60].mean_latency_us > samples[5].mean_latency_us * 1.5);
}

#[test]
fn a_volatile_cache_without_capacitors_loses_exactly_what_was_not_on_nand() {
    let (reports, samples) = with_cuts(200, 300, 13, |cfg| {
        cfg.drive.power.capacitors = false;
        cfg.drive.power.volatile_cache = true;
    });
    let mut total = 0;
    for r in &reports {
        // Count independently: acknowledged writes whose sequence number is not durable.
        let durable: std::collections::HashSet<u64> = r.durable.iter().map(|&(_, seq)| seq).collect();
        let lost = r.acknowledged.iter().filter(|(_, seq)| !durable.contains(seq)).count() as u64;
        assert_eq!(r.acknowledged_writes_lost, lost);
        assert_eq!(r.flushed_units, 0);
        // No more than the write buffer holds (1 MiB = 256 units).
        assert!(lost <= 256, "{}", lost);
        total += lost;
    }
    assert!(total > 300 * 100, "{} lost over 300 cuts", total);
    let in_samples: u64 = samples.iter().map(|s| s.acknowledged_writes_lost as u64).sum();
    assert_eq!(in_samples, total);
}

#[test]
fn a_bank_too_small_for_the_buffer_saves_what_its_energy_pays_for() {
    let (reports, _) = with_cuts(100, 100, 14, |cfg| cfg.drive.power.capacitance_uf = 30);
    let r = reports.iter().find(|r| r.acknowledged_writes_lost > 0).expect("some cut lost data");
    assert!(
        r.flushed_units > 0 && r.energy_needed_uj > r.energy_stored_uj,
        "{:?}",
        (r.flushed_units, r.energy_needed_uj, r.energy_stored_uj)
    );
}

#[test]
fn writing_through_commits_queued_writes_together() {
    // No capacitors and no volatile cache: every write waits for its program. Commands that
    // arrive while their page's program has not started join it (group commit), so once the
    // dies are busy a program carries several writes; at QD1 each carries exactly one.
    let fresh = |queue_depth: u32| {
        let mut cfg = small_s3700(64, GcPacing::ConsistencyFirst, 4, 15);
        cfg.drive.power.capacitors = false;
        // All the spare area free, and 4 s (the 1.4 ms program fills it faster), so the run
        // stays in the fresh phase.
        cfg.drive.gc.reserved_percent = 0.0;
        // 8 dies for NCQ's 32 commands: four writes per die at a time.
        cfg.drive.user_bytes = cfg.drive.user_bytes / 33 * 8 / 4096 * 4096;
        cfg.drive.geometry.dies = 8;
        cfg.queue_depth = queue_depth;
        let mut sim = Bench::new(cfg).unwrap();
        let samples = sim.run_to_end();
        sim.ftl().check_invariants().unwrap();
        let s = &samples[1..];
        assert!(s.iter().all(|x| x.gc_moves == 0 && x.write_buffering == 0), "fresh drive, writing through");
        let wa = s.iter().map(|x| x.nand_writes).sum::<f64>() / s.iter().map(|x| x.host_writes).sum::<f64>();
        let latency = s.iter().map(|x| x.mean_latency_us).sum::<f64>() / s.len() as f64;
        (wa, latency)
    };
    let (wa_1, latency_1) = fresh(1);
    let (wa_32, latency_32) = fresh(32);
    // A 4-unit page per 4 KB write (plus the map journal's pages).
    assert!((wa_1 - 4.0).abs() < 0.02, "{}", wa_1);
    assert!(wa_32 < 2.5, "{} NAND units per host unit at QD32", wa_32);
    // Every acknowledgement still waits for a program.
    let program_us = small_s3700(64, GcPacing::ConsistencyFirst, 1, 1).drive.timing.program_ns as f64 / 1e3;
    assert!(latency_1 > program_us && latency_32 > program_us, "{} us, {} us", latency_1, latency_32);
}

#[test]
fn writes_merged_in_the_buffer_are_as_safe_as_any() {
    // The redo log's 1.5 KB writes mostly merge into a unit already in the buffer. With healthy
    // capacitors, and writing through without any, no acknowledged write is lost.
    for capacitors in [true, false] {
        let (reports, samples) = with_cuts(60, 200, 16, |cfg| {
            cfg.workload = ssdlab_core::config::WorkloadSpec::by_id("redo-log").unwrap();
            cfg.block_bytes = 1536;
            cfg.align_bytes = 1536;
            cfg.queue_depth = 4;
            cfg.drive.power.capacitors = capacitors;
        });
        assert!(samples.iter().map(|s| s.rmw_reads).sum::<u32>() > 0);
        let mut acknowledged = 0;
        for r in &reports {
            assert_eq!(r.acknowledged_writes_lost, 0, "capacitors {} cut at {} ns", capacitors, r.at_ns);
            assert_eq!(last_versions(&r.acknowledged), last_versions(&r.durable));
            acknowledged += r.acknowledged.len();
        }
        // Buffered, the cuts find acknowledged writes not yet programmed (the flush saves them);
        // writing through, nothing is acknowledged before it is programmed.
        if capacitors {
            assert!(acknowledged > 200, "the cuts found {} writes at risk", acknowledged);
        }
    }
}

/// The acknowledged writes a cut lost, as their units (sorted).
fn lost_units(r: &PowerCutReport) -> Vec<u64> {
    let durable: std::collections::HashSet<u64> = r.durable.iter().map(|&(_, seq)| seq).collect();
    let mut lost: Vec<u64> =
        r.acknowledged.iter().filter(|(_, seq)| !durable.contains(seq)).map(|&(lpa, _)| lpa).collect();
    lost.sort_unstable();
    lost
}

#[test]
fn a_cut_asked_for_during_the_run_finds_what_a_log_kept_from_the_start_finds() {
    // The page asks for cuts while the run goes (the drive starts its log of writes at risk
    // then); the same cuts scheduled in the config have the log from the start. Every report
    // and every sample agree, for buffered, writing-through, merged and partly flushed writes.
    type Tweak = fn(&mut RunConfig);
    let setups: [(&str, Tweak); 5] = [
        ("healthy capacitors", |_| {}),
        ("volatile cache", |cfg| {
            cfg.drive.power.capacitors = false;
            cfg.drive.power.volatile_cache = true;
        }),
        ("writing through", |cfg| cfg.drive.power.capacitors = false),
        ("small bank", |cfg| cfg.drive.power.capacitance_uf = 30),
        ("merged writes", |cfg| {
            cfg.workload = ssdlab_core::config::WorkloadSpec::by_id("redo-log").unwrap();
            cfg.block_bytes = 1536;
            cfg.align_bytes = 1536;
            cfg.queue_depth = 4;
            cfg.drive.power.capacitors = false;
            cfg.drive.power.volatile_cache = true;
        }),
    ];
    for (seed, (name, tweak)) in setups.into_iter().enumerate() {
        let mut cfg = small_s3700(64, GcPacing::ConsistencyFirst, 12, 20 + seed as u64);
        tweak(&mut cfg);
        let mut asked = Bench::new(cfg.clone()).unwrap();
        let mut rng = Rng::new(seed as u64);
        let mut samples = Vec::new();
        let mut at = Vec::new();
        for second in (1..12).step_by(2) {
            asked.advance_to_second(second, u64::MAX, &mut samples);
            asked.advance(1 + rng.below(3_000), &mut samples);
            at.extend(asked.cut_power_now());
        }
        samples.extend(asked.run_to_end());
        assert_eq!(at.len(), 6, "{name}: every cut lands before the run ends");
        cfg.power_cuts_ns = at;
        let mut scheduled = Bench::new(cfg).unwrap();
        assert_eq!(scheduled.run_to_end(), samples, "{name}");
        let (a, b) = (asked.power_cuts(), scheduled.power_cuts());
        assert_eq!(a.len(), b.len(), "{name}");
        for (a, b) in a.iter().zip(b) {
            assert_eq!(power_cut_json(a), power_cut_json(b), "{name}");
            assert_eq!(lost_units(a), lost_units(b), "{name}: the same units lost");
        }
        if name == "volatile cache" {
            assert!(a.iter().all(|r| r.acknowledged_writes_lost > 0), "{name}: every cut loses writes");
        }
    }
}
