//! Data placement (issue 21): writes tagged with a placement handle go to that handle's own open
//! blocks, so data of different lifetimes never shares a block. Checked on a small drive defined
//! here against what perfect separation must give (docs/design/placement.md, section 6.1), and
//! what greedy GC must give when each handle's region is rewritten at random (6.2) and for hot
//! and cold data tagged by temperature (6.4).

use crate::common::placement_drive;
use ssdlab_core::config::{
    Distribution, Isolation, JobSpec, Phase, Placement, PlacementConfig, PlacementKind, Precondition, RunConfig,
    WorkloadSpec,
};
use ssdlab_core::drive::ftl::victim::greedy_wa_theory;
use ssdlab_core::{presets, Bench, DriveConfig, Sample};

/// Three regions (20, 30 and 50 % of the span), each written in order over and over, 64 KiB at a
/// time, taking 50, 30 and 20 % of the writes; tagged, each with its own handle.
fn regions(drive: DriveConfig, tagged: bool, seconds: u32) -> RunConfig {
    let workload = WorkloadSpec::by_id("sequential-write").unwrap();
    let span = drive.user_bytes / (1 << 20) * (1 << 20);
    let mut cfg = RunConfig::new(drive, workload, seconds);
    cfg.precondition = Precondition::None;
    let mut offset = 0;
    let jobs = [(20, 80), (30, 48), (50, 32)]
        .iter()
        .enumerate()
        .map(|(i, &(percent, iops))| {
            let size = span * percent / 100;
            let mut job = JobSpec::named(&WorkloadSpec::by_id("sequential-write").unwrap(), 64 << 10, 64 << 10, 1);
            (job.name, job.offset_bytes, job.size_bytes, job.rate_iops) = (format!("region {}", i), offset, size, iops);
            job.placement = if tagged { Placement::Handle(i as u8) } else { Placement::Untagged };
            offset += size;
            job
        })
        .collect();
    cfg.phases = vec![Phase { name: "regions".into(), jobs, runtime_ns: 0, ramp_ns: 0 }];
    cfg
}

/// NAND writes per host write over the run's last two thirds.
fn device_wa(samples: &[Sample]) -> f64 {
    let late = &samples[samples.len() / 3..];
    late.iter().map(|s| s.nand_writes).sum::<f64>() / late.iter().map(|s| s.host_writes).sum::<f64>()
}

#[test]
fn data_placed_by_lifetime_is_never_copied_and_mixed_it_is() {
    // ~10.5 MB/s over 410 MB: 1,200 s is ~30 drive writes, the slowest region rewritten ~12 times.
    let seconds = 1200;
    let mut tagged = Bench::new(regions(placement_drive(Some(4)), true, seconds)).unwrap();
    let wa_tagged = device_wa(&tagged.run_to_end());
    tagged.drive().ftl().check_invariants().unwrap();
    let wa_mixed = device_wa(&Bench::new(regions(placement_drive(Some(4)), false, seconds)).unwrap().run_to_end());
    eprintln!("device WA: tagged {wa_tagged:.4}, untagged {wa_mixed:.4}");
    assert!((wa_tagged - 1.0).abs() <= 0.01, "tagged: device WA {wa_tagged:.4}, perfect separation gives 1.00");
    assert!(wa_mixed > 1.2 * wa_tagged, "untagged: device WA {wa_mixed:.4} against tagged {wa_tagged:.4}");
    // Untagged writes on a drive with placement are the same run as on one without.
    let plain = Bench::new(regions(placement_drive(None), false, 120)).unwrap().run_to_end();
    let on_placement = Bench::new(regions(placement_drive(Some(4)), false, 120)).unwrap().run_to_end();
    assert_eq!(plain, on_placement);
}

#[test]
fn a_handle_the_drive_does_not_take_is_refused_naming_the_job() {
    let refusal = |drive: DriveConfig| Bench::new(regions(drive, true, 10)).err().expect("refused");
    let none = refusal(
        presets::by_id("s3700-200")
            .map(|mut d| {
                d.user_bytes = placement_drive(None).user_bytes;
                d
            })
            .unwrap(),
    );
    assert_eq!(none.field, "phases[0].jobs[0] (region 0).placement");
    assert!(none.message.contains("drive s3700-200 takes no placement handles"), "{}", none.message);
    let two = refusal(placement_drive(Some(2)));
    assert_eq!(two.field, "phases[0].jobs[2] (region 2).placement");
    assert_eq!(two.message, "handle 2 is not one of this drive's 2 placement handles (0 to 1)");
}

#[test]
fn placement_is_checked_against_the_rest_of_the_drive() {
    let with = |handles: u32, edit: fn(&mut DriveConfig)| {
        let mut d = placement_drive(None);
        d.placement = Some(PlacementConfig::new(PlacementKind::Streams, handles));
        edit(&mut d);
        d.validate().err()
    };
    let zero = with(0, |_| {}).unwrap();
    assert_eq!((zero.field.as_str(), zero.message.as_str()), ("placement.handles", "must be between 1 and 16 (got 0)"));
    assert_eq!(with(17, |_| {}).unwrap().field, "placement.handles");
    assert!(with(16, |_| {}).is_none());
    let buffer = with(8, |d| d.controller.write_buffer_bytes = 4 * 64 * 1024).unwrap();
    assert_eq!(buffer.field, "placement.handles");
    assert!(buffer.message.starts_with("must be at most 7 with a write buffer of 262144 bytes"), "{}", buffer.message);
    let cache = with(4, |d| d.slc_cache = presets::by_id("980pro-1000").unwrap().slc_cache).unwrap();
    assert_eq!(cache.field, "placement");
    // Reclaim groups split the dies (2 here) and the handles evenly, and are FDP's.
    let groups = |handles: u32, groups: u32, kind: PlacementKind| {
        let mut d = placement_drive(None);
        d.placement = Some(PlacementConfig { reclaim_groups: groups, ..PlacementConfig::new(kind, handles) });
        d.validate().err().map(|e| (e.field, e.message))
    };
    assert_eq!(groups(4, 2, PlacementKind::Fdp), None);
    assert_eq!(
        groups(6, 3, PlacementKind::Fdp),
        Some(("placement.reclaim_groups".into(), "must divide the drive's 2 dies (got 3)".into()))
    );
    assert_eq!(
        groups(3, 2, PlacementKind::Fdp),
        Some((
            "placement.handles".into(),
            "must be a multiple of placement.reclaim_groups (2): each group takes as many handles (got 3)".into()
        ))
    );
    assert_eq!(groups(4, 2, PlacementKind::Streams).unwrap().0, "placement.reclaim_groups");
    assert_eq!(groups(4, 0, PlacementKind::Fdp).unwrap().0, "placement.reclaim_groups");
}

/// The small drive with `handles` placement handles isolated as `isolation`.
fn isolated(handles: u32, isolation: Isolation) -> DriveConfig {
    let mut d = placement_drive(Some(handles));
    d.placement = Some(PlacementConfig { isolation, ..PlacementConfig::new(PlacementKind::Fdp, handles) });
    d.validate().unwrap();
    d
}

/// The greedy large-system figure for `data_bytes` the host keeps on the drive's raw flash
/// (docs/MODEL.md, greedy GC).
fn greedy_figure(drive: &DriveConfig, data_bytes: u64) -> f64 {
    greedy_wa_theory(data_bytes as f64 / drive.geometry.raw_bytes() as f64)
}

/// 4 KiB writes at `iops` over `offset..offset + size`: first once in order (a tagged fill, so
/// no data starts under handle 0's untagged fill), then at random.
fn fill_then_random(name: &str, offset: u64, size: u64, iops: u32, placement: Placement) -> (JobSpec, JobSpec) {
    let w = WorkloadSpec::by_id("random-write").unwrap();
    let mut random = JobSpec::named(&w, 4096, 4096, 4);
    (random.name, random.offset_bytes, random.size_bytes, random.rate_iops) = (name.into(), offset, size, iops);
    random.placement = placement;
    let mut fill = random.clone();
    (fill.random_percent, fill.write_sizes, fill.rate_iops, fill.io_limit_bytes) =
        (0, ssdlab_core::config::BlockSizes::fixed(128 << 10), 0, size);
    (fill.read_sizes, fill.align_bytes) = (fill.write_sizes.clone(), 128 << 10);
    (fill, random)
}

fn phases(cfg: &mut RunConfig, jobs: Vec<(JobSpec, JobSpec)>) {
    let (fills, randoms) = jobs.into_iter().unzip();
    cfg.precondition = Precondition::None;
    cfg.phases = vec![
        Phase { name: "fill".into(), jobs: fills, runtime_ns: 0, ramp_ns: 0 },
        Phase { name: "random".into(), jobs: randoms, runtime_ns: 0, ramp_ns: 0 },
    ];
}

/// A tenth of the span in whole MiB, so regions start on whole units.
fn region_tenth(drive: &DriveConfig) -> u64 {
    drive.user_bytes / (10 << 20) * (1 << 20)
}

/// Three regions (10, 30 and 60 % of the span) rewritten uniformly at random, 4 KiB at a time,
/// taking 60, 30 and 10 % of 5,000 writes a second; tagged, region i with handle i + 1.
fn uniform_regions(drive: DriveConfig, tagged: bool, seconds: u32) -> RunConfig {
    let tenth = region_tenth(&drive);
    let mut cfg = RunConfig::new(drive, WorkloadSpec::by_id("random-write").unwrap(), seconds);
    let mut offset = 0;
    let jobs = [(1, 3000), (3, 1500), (6, 500)]
        .iter()
        .enumerate()
        .map(|(i, &(tenths, iops))| {
            let size = tenth * tenths;
            let tag = if tagged { Placement::Handle(i as u8 + 1) } else { Placement::Untagged };
            let jobs = fill_then_random(&format!("region {}", i), offset, size, iops, tag);
            offset += size;
            jobs
        })
        .collect();
    phases(&mut cfg, jobs);
    cfg
}

/// 90 % of 5,000 random 4 KiB writes a second to the first 10 % of the span (the named hot-cold
/// workload's zones); tagged by zone, hot data with handle 1 and cold with handle 2.
fn hot_cold(drive: DriveConfig, tagged: bool, seconds: u32) -> RunConfig {
    let w = WorkloadSpec::by_id("hot-cold").unwrap();
    let mut cfg = RunConfig::new(drive, w, seconds);
    let tag = if tagged { Placement::ByZone(vec![1, 2]) } else { Placement::Untagged };
    let (mut fill, mut random) = fill_then_random("hot-cold", 0, 0, 5000, tag);
    random.distribution = Distribution::hot_cold(w.hot_percent, w.hot_span_percent);
    fill.distribution = random.distribution.clone();
    fill.io_limit_bytes = cfg.drive.user_bytes / (128 << 10) * (128 << 10);
    phases(&mut cfg, vec![(fill, random)]);
    cfg
}

/// Device WA over the last two thirds of the run.
fn run_wa(cfg: RunConfig) -> (f64, Bench) {
    let mut bench = Bench::new(cfg).unwrap();
    let wa = device_wa(&bench.run_to_end());
    bench.drive().ftl().check_invariants().unwrap();
    (wa, bench)
}

// ~20 MB/s over 410 MB: 900 s is ~45 drive writes, the coldest data (hot-cold's) rewritten ~5
// times.
const SECONDS: u32 = 900;

#[test]
fn tags_over_regions_rewritten_at_random_give_greedy_uniform_wa() {
    let drive = isolated(4, Isolation::Persistent);
    let figure = greedy_figure(&drive, 10 * region_tenth(&drive));
    let (tagged, _) = run_wa(uniform_regions(drive.clone(), true, SECONDS));
    let (shared_gc, _) = run_wa(uniform_regions(isolated(4, Isolation::Initial), true, SECONDS));
    let (untagged, _) = run_wa(uniform_regions(drive, false, SECONDS));
    eprintln!(
        "device WA, 3 regions at random: persistent {tagged:.3}, initial {shared_gc:.3}, untagged {untagged:.3}; greedy figure {figure:.3}"
    );
    assert!((tagged / figure - 1.0).abs() <= 0.10, "tagged: device WA {tagged:.3}, greedy's figure {figure:.3}");
    assert!(untagged > tagged, "untagged {untagged:.3} against tagged {tagged:.3}");
}

#[test]
fn hot_and_cold_tagged_by_temperature_amplify_less_than_mixed() {
    let drive = placement_drive(Some(4));
    let figure = greedy_figure(&drive, drive.user_bytes);
    let (persistent, _) = run_wa(hot_cold(isolated(4, Isolation::Persistent), true, SECONDS));
    let (initial, _) = run_wa(hot_cold(isolated(4, Isolation::Initial), true, SECONDS));
    let (untagged, _) = run_wa(hot_cold(isolated(4, Isolation::Persistent), false, SECONDS));
    eprintln!(
        "device WA, hot/cold 90/10: persistent {persistent:.3}, initial {initial:.3}, untagged {untagged:.3}; greedy figure {figure:.3}"
    );
    assert!(
        persistent < untagged && initial < untagged,
        "tagged {persistent:.3} / {initial:.3}, untagged {untagged:.3}"
    );
    assert!((persistent / figure - 1.0).abs() <= 0.10, "persistent: {persistent:.3}, greedy's figure {figure:.3}");
}

#[test]
fn persistent_isolation_never_mixes_handles_in_a_block() {
    // Long enough for GC to move most of the data at least once.
    let seconds = 200;
    let mixed_units = |isolation| {
        let mut bench = Bench::new(uniform_regions(isolated(4, isolation), true, seconds)).unwrap();
        let samples = bench.run_to_end();
        assert!(samples.iter().map(|s| s.gc_moves as u64).sum::<u64>() > 0, "GC moved nothing");
        let ftl = bench.drive().ftl();
        let tenth = region_tenth(&bench.config().drive) / 4096;
        let region = |lpa: u64| [1, 4, 10].iter().position(|&end| lpa < end * tenth).unwrap() as u8 + 1;
        (0..10 * tenth).filter(|&lpa| ftl.tag_of(lpa as u32).is_some_and(|tag| tag != region(lpa))).count()
    };
    assert_eq!(mixed_units(Isolation::Persistent), 0, "units in a block of another handle");
    // The check sees mixing where it happens: the GC stream every handle shares.
    assert!(mixed_units(Isolation::Initial) > 0);
}

#[test]
fn reclaim_groups_keep_each_handles_data_and_its_gc_on_the_group_s_dies() {
    // 4 handles in 2 groups on 2 dies: handles 0-1 on die 0, 2-3 on die 1. The regions carry
    // handles 1, 2 and 3, so the busiest region (handle 1) has die 0 to itself.
    let dies_of_regions = |groups: u32| {
        let mut drive = placement_drive(Some(4));
        drive.placement.as_mut().unwrap().reclaim_groups = groups;
        drive.validate().unwrap();
        let mut bench = Bench::new(uniform_regions(drive, true, 60)).unwrap();
        let samples = bench.run_to_end();
        assert!(samples.iter().map(|s| s.gc_moves as u64).sum::<u64>() > 0, "GC moved nothing");
        let ftl = bench.drive().ftl();
        ftl.check_invariants().unwrap();
        let tenth = region_tenth(&bench.config().drive) / 4096;
        // Per region, the units on each die.
        let mut on = [[0u64; 2]; 3];
        for lpa in 0..10 * tenth {
            let region = [1, 4, 10].iter().position(|&end| lpa < end * tenth).unwrap();
            let ppa = ftl.ppa_of(lpa as u32);
            if ppa != ssdlab_core::units::NONE {
                on[region][ftl.die_of_ppa(ppa) as usize] += 1;
            }
        }
        on
    };
    let grouped = dies_of_regions(2);
    assert!(grouped[0][0] > 0 && grouped[0][1] == 0, "handle 1 (group 0): units on dies 0, 1: {:?}", grouped[0]);
    for region in [1, 2] {
        assert!(
            grouped[region][0] == 0 && grouped[region][1] > 0,
            "handle {} (group 1): {:?}",
            region + 1,
            grouped[region]
        );
    }
    // In one group every handle's pages are dealt over both dies.
    let one = dies_of_regions(1);
    assert!(one.iter().all(|r| r[0] > 0 && r[1] > 0), "{one:?}");
}

/// The handle of each unit a job wrote in order, 4 KiB at a time, with `placement` (None: not
/// yet programmed).
fn tags_written_in_order(placement: Placement) -> Vec<Option<u8>> {
    let w = WorkloadSpec::by_id("sequential-write").unwrap();
    let mut cfg = RunConfig::new(isolated(4, Isolation::Persistent), w, 2);
    cfg.precondition = Precondition::None;
    let mut job = JobSpec::named(&w, 4096, 4096, 1);
    (job.rate_iops, job.placement) = (5000, placement);
    cfg.phases = vec![Phase { name: "in order".into(), jobs: vec![job], runtime_ns: 0, ramp_ns: 0 }];
    let mut bench = Bench::new(cfg).unwrap();
    bench.run_to_end();
    (0..10_000).map(|lpa| bench.drive().ftl().tag_of(lpa)).collect()
}

#[test]
fn a_job_spreads_its_writes_over_a_list_of_handles() {
    let round_robin = tags_written_in_order(Placement::RoundRobin(vec![1, 2, 3]));
    assert!(round_robin.iter().flatten().count() > 9_000, "most units programmed");
    for (lpa, tag) in round_robin.iter().enumerate() {
        assert!(tag.is_none_or(|t| t == [1, 2, 3][lpa % 3]), "unit {lpa} under handle {tag:?}");
    }
    let random = tags_written_in_order(Placement::Random(vec![1, 3]));
    let count = |h| random.iter().filter(|&&t| t == Some(h)).count();
    let (one, three) = (count(1), count(3));
    assert_eq!(one + three, random.iter().flatten().count(), "only the listed handles");
    assert!((4_500..5_500).contains(&one) && (4_500..5_500).contains(&three), "{one} and {three} of 10,000");
}

#[test]
fn a_list_of_handles_is_checked_naming_the_job() {
    let refusal = |placement: Placement, edit: fn(&mut JobSpec)| {
        let w = WorkloadSpec::by_id("hot-cold").unwrap();
        let mut cfg = RunConfig::new(placement_drive(Some(4)), w, 10);
        let mut job = JobSpec::named(&w, 4096, 4096, 1);
        job.placement = placement;
        edit(&mut job);
        cfg.phases = vec![Phase { name: "p".into(), jobs: vec![job], runtime_ns: 0, ramp_ns: 0 }];
        let e = Bench::new(cfg).err().expect("refused");
        assert_eq!(e.field, "phases[0].jobs[0] (hot-cold).placement");
        e.message
    };
    assert_eq!(
        refusal(Placement::RoundRobin(vec![1, 4]), |_| {}),
        "handle 4 is not one of this drive's 4 placement handles (0 to 3)"
    );
    assert_eq!(refusal(Placement::Random(vec![]), |_| {}), "needs at least one handle to choose from (got none)");
    assert_eq!(
        refusal(Placement::ByZone(vec![1, 2, 3]), |_| {}),
        "needs a handle per zone of the job's distribution: 2 (got 3)"
    );
    let uniform = refusal(Placement::ByZone(vec![1]), |j| j.distribution = Distribution::Uniform);
    assert!(uniform.contains("this job's is not zoned"), "{uniform}");
}

#[test]
fn persistent_isolation_leaves_room_for_a_gc_block_per_handle() {
    use ssdlab_core::config::limits::Bound;
    let most_user = |d: &DriveConfig| match d.limits().into_iter().find(|l| l.path == "user_bytes").unwrap().max {
        Bound::Whole(max) => max,
        Bound::Real(_) => unreachable!("user_bytes is whole"),
    };
    let (initial, persistent) = (isolated(8, Isolation::Initial), isolated(8, Isolation::Persistent));
    let block = persistent.geometry.units_per_block() as u64 * 4096 * persistent.geometry.dies as u64;
    // Initial: 8 host blocks and one GC block open per die; persistent: 8 of each.
    assert_eq!(most_user(&initial) - most_user(&persistent), 7 * block);
    let mut full = initial.clone();
    full.user_bytes = most_user(&initial);
    assert!(full.validate().is_ok());
    full.placement.as_mut().unwrap().isolation = Isolation::Persistent;
    assert_eq!(full.validate().unwrap_err().field, "user_bytes");
}
