//! Wear: levelling, P/E limits and retirement, endurance arithmetic and NAND cell types.

use crate::common;

use common::*;
use ssdlab_core::config::WorkloadSpec;
use ssdlab_core::config::{set_parameter, CellType, GcPacing};
use ssdlab_core::units::NONE;
use ssdlab_core::{presets, Bench, Sample};

/// A 600 s hot-cold run on a small S3700: the last sample and static-levelling relocations.
fn hot_cold_wear(dynamic: bool, static_levelling: bool) -> (Sample, u64, Vec<Sample>) {
    let mut cfg = small_s3700(64, GcPacing::ConsistencyFirst, 600, 7);
    // Every block in service, so levelling has the whole die to spread erases over.
    cfg.drive.gc.reserved_percent = 0.0;
    cfg.workload = WorkloadSpec::by_id("hot-cold").unwrap();
    cfg.drive.wear.dynamic = dynamic;
    cfg.drive.wear.static_levelling = static_levelling;
    cfg.drive.wear.static_every_erases = 4;
    cfg.drive.wear.static_spread_threshold = 4;
    let mut sim = Bench::new(cfg).unwrap();
    let samples = sim.run_to_end();
    sim.ftl().check_invariants().unwrap();
    (*samples.last().unwrap(), sim.ftl().wear_victims(), samples)
}

fn spread(s: &Sample) -> u32 {
    s.erase_count_max - s.erase_count_min
}

#[test]
fn dynamic_wear_levelling_puts_every_free_block_to_use() {
    // Without it the block freed last is reused first, so blocks at the bottom of a die's free
    // pool are never used at all.
    let (off, _, _) = hot_cold_wear(false, false);
    let (on, _, _) = hot_cold_wear(true, false);
    assert_eq!(off.erase_count_min, 0, "{:?}", off);
    assert!(on.erase_count_min > 0, "{:?}", on);
    assert!(spread(&on) < spread(&off), "spread with {} vs without {}", spread(&on), spread(&off));
}

#[test]
fn static_wear_levelling_narrows_the_erase_count_spread_on_hot_cold_data() {
    // 90 % of writes go to 10 % of the span: blocks holding cold data are rarely collected, so
    // they stay at few erases while hot blocks cycle.
    let (off, victims_off, _) = hot_cold_wear(true, false);
    let (last, victims_on, on) = hot_cold_wear(true, true);
    assert!(spread(&off) >= 20, "spread without static levelling {}", spread(&off));
    assert!(
        spread(&last) * 2 < spread(&off),
        "spread with static levelling {} vs without {}",
        spread(&last),
        spread(&off)
    );
    // Through GC: cold blocks were relocated (and cost GC moves), none without it.
    assert!(victims_on > 1000 && victims_off == 0, "relocated {} vs {}", victims_on, victims_off);
    // The columns are kept, not recomputed: min <= max and neither goes down.
    for w in on.windows(2) {
        assert!(w[0].erase_count_min <= w[1].erase_count_min && w[0].erase_count_max <= w[1].erase_count_max);
        assert!(w[1].erase_count_min <= w[1].erase_count_max);
    }
}

#[test]
fn blocks_retire_at_the_pe_limit_and_the_drive_goes_read_only_without_losing_data() {
    let mut cfg = small_s3700(64, GcPacing::ConsistencyFirst, 500, 11);
    cfg.drive = set_parameter(&cfg.drive, "endurance.pe_cycles", serde_json::json!(10)).unwrap();
    let span = cfg.span_units();
    let pe = cfg.drive.endurance.pe_cycles;
    let mut sim = Bench::new(cfg).unwrap();
    let mut out = Vec::new();
    let mut last_erases = sim.ftl().erase_counts().to_vec();
    while !sim.finished() {
        sim.advance(500_000, &mut out);
        let ftl = sim.ftl();
        ftl.check_invariants().unwrap_or_else(|e| panic!("at {} s: {}", out.len(), e));
        for lpa in 0..span as u32 {
            assert_ne!(ftl.ppa_of(lpa), NONE, "lpa {} lost", lpa);
        }
        let erases = ftl.erase_counts();
        assert!(erases.iter().zip(&last_erases).all(|(now, before)| now >= before), "erase counts went down");
        assert!(erases.iter().all(|&c| c <= pe), "a block was erased past its P/E limit");
        last_erases = erases.to_vec();
    }
    let first_ro = out.iter().position(|s| s.read_only).expect("the drive wears out within the run");
    // Blocks retire for a while before the drive gives up, and the shrinking spare area costs
    // IOPS on the way.
    let writable_retired: Vec<&Sample> = out[..first_ro].iter().filter(|s| s.retired_blocks > 0).collect();
    assert!(writable_retired.len() >= 5, "{} seconds writable with blocks retired", writable_retired.len());
    assert!(writable_retired.iter().all(|s| s.iops > 0));
    let healthy = out[first_ro - 40].iops;
    assert!(
        out[first_ro - 3].iops < healthy,
        "IOPS {} near the end vs {} before retirement",
        out[first_ro - 3].iops,
        healthy
    );
    // Read-only: nothing more reaches NAND, nothing is erased, and once the writes accepted
    // before (waiting for buffer space) have completed, every write is refused.
    for s in &out[first_ro + 1..] {
        assert!(s.read_only && s.nand_writes == 0.0 && s.erases == 0, "{:?}", s);
    }
    assert!(out[first_ro + 5..].iter().all(|s| s.iops == 0));
    assert_eq!(out.len(), 500);
    assert!(out[first_ro].retired_blocks as u64 == sim.ftl().retired_blocks());
}

#[test]
fn jesd218_arithmetic_gives_the_s3700_ratings() {
    // [001]: 10 drive writes per day x 365 x 5 years x capacity.
    let s3700 = presets::by_id("s3700-200").unwrap();
    for (gb, rated_pb_x1000) in [(100u64, 1_825u64), (200, 3_650), (400, 7_300), (800, 14_600)] {
        let d = set_parameter(&s3700, "advertised_bytes", serde_json::json!(gb * 1_000_000_000)).unwrap();
        assert_eq!(d.rated_tbw_bytes(), rated_pb_x1000 * 1_000_000_000_000, "{} GB", gb);
    }
    // HET-MLC's cycles cover the rating at greedy GC's write amplification; consumer MLC's do not.
    let raw = s3700.geometry.raw_bytes();
    let wa = greedy_wa_theory(s3700.user_bytes as f64 / raw as f64);
    assert!(s3700.endurance.nand_limited_tbw_bytes(raw, wa) > s3700.rated_tbw_bytes());
    let mlc = set_parameter(&s3700, "nand.cell", serde_json::json!("mlc")).unwrap();
    assert!(mlc.endurance.nand_limited_tbw_bytes(raw, wa) < mlc.rated_tbw_bytes() / 4);
}

#[test]
fn a_cell_type_brings_its_timings_and_pe_limit_unless_they_are_set_too() {
    let s3700 = presets::by_id("s3700-200").unwrap();
    let same = set_parameter(&s3700, "nand.cell", serde_json::json!("het-mlc")).unwrap();
    assert_eq!(same, s3700, "the S3700 is HET-MLC: naming it changes nothing");
    let slc = set_parameter(&s3700, "nand.cell", serde_json::json!("slc")).unwrap();
    let (read_ns, program_ns, erase_ns) = CellType::Slc.typical_timing_ns();
    assert_eq!((slc.timing.read_ns, slc.timing.program_ns, slc.timing.erase_ns), (read_ns, program_ns, erase_ns));
    assert_eq!(slc.endurance.pe_cycles, 100_000);
    assert_eq!(slc.timing.channel_mb_s, s3700.timing.channel_mb_s);
    let kept = ssdlab_core::config::apply_parameters(
        &s3700,
        [("nand.cell", serde_json::json!("tlc")), ("timing.program_ns", serde_json::json!(2_000_000))],
    )
    .unwrap();
    assert_eq!((kept.timing.program_ns, kept.endurance.pe_cycles), (2_000_000, 1_000));
    let qlc = set_parameter(&s3700, "nand.cell", serde_json::json!("qlc")).unwrap();
    assert_eq!(
        (qlc.timing.program_ns, qlc.endurance.pe_cycles),
        (CellType::Qlc.typical_timing_ns().1, CellType::Qlc.typical_pe_cycles())
    );
    let e = set_parameter(&s3700, "nand.cell", serde_json::json!("plc")).unwrap_err();
    assert_eq!(e.field, "nand.cell");
    let e = set_parameter(&s3700, "wear.static_spread_threshold", serde_json::json!(0)).unwrap_err();
    assert_eq!(e.field, "wear.static_spread_threshold");
    assert!(e.message.contains("between 1 and"), "{}", e.message);
}

#[test]
fn slc_programs_faster_so_the_fresh_drive_writes_faster() {
    let fresh_iops = |cell: &str| {
        let mut cfg = small_s3700(64, GcPacing::ConsistencyFirst, 4, 3);
        // All the spare area free, so 4 s of SLC's faster writes stay in the fresh phase.
        cfg.drive.gc.reserved_percent = 0.0;
        cfg.drive = set_parameter(&cfg.drive, "nand.cell", serde_json::json!(cell)).unwrap();
        let s = run(cfg);
        assert!(s.iter().all(|x| x.erases == 0), "still fresh: no GC yet");
        s[1..].iter().map(|x| x.iops as f64).sum::<f64>() / (s.len() - 1) as f64
    };
    let het_mlc = fresh_iops("het-mlc");
    let slc = fresh_iops("slc");
    let tlc = fresh_iops("tlc");
    // The S3700's fresh phase is program-bound (33 dies x 4 units / 1.4 ms = 94K; its cell is
    // already HET-MLC, so its fitted program time is kept); SLC's 0.3 ms program moves the
    // bottleneck to the controller's write path (460 MB/s: 112K).
    assert!(slc > het_mlc * 1.2, "SLC {:.0} vs HET-MLC {:.0} IOPS", slc, het_mlc);
    assert!(tlc < het_mlc * 0.9, "TLC {:.0} vs HET-MLC {:.0} IOPS", tlc, het_mlc);
}
