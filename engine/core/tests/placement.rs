//! Data placement (issue 21): writes tagged with a placement handle go to that handle's own open
//! blocks, so data of different lifetimes never shares a block. Checked on a small drive defined
//! here against what perfect separation must give (docs/design/placement.md, section 6.1).

use ssdlab_core::config::{
    Isolation, JobSpec, Phase, PlacementConfig, PlacementKind, Precondition, RunConfig, WorkloadSpec,
};
use ssdlab_core::{presets, Bench, DriveConfig, Sample};

/// 2 dies on 2 channels, 2 planes of 16 KiB pages, 16 pages a block (128 units), 512 blocks a
/// die: 512 MiB of flash, 80 % of it for the host. Fast programs, so the host's rates, not the
/// dies, set the pace.
fn small_drive(handles: Option<u32>) -> DriveConfig {
    let mut d = presets::by_id("s3700-200").unwrap();
    let g = &mut d.geometry;
    (g.channels, g.dies, g.planes, g.page_bytes, g.pages_per_block, g.blocks_per_plane) = (2, 2, 2, 16384, 16, 512);
    d.user_bytes = d.geometry.raw_bytes() * 4 / 5 / 4096 * 4096;
    d.gc.reserved_percent = 0.0;
    (d.gc.start_free_blocks, d.gc.boost_below_free_blocks, d.gc.boost_until_free_blocks) = (6, 3, 5);
    d.gc.background_free_blocks = 8;
    d.timing.program_ns = 500_000;
    d.placement =
        handles.map(|handles| PlacementConfig { kind: PlacementKind::Fdp, handles, isolation: Isolation::Initial });
    d.validate().unwrap();
    d
}

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
            job.placement = tagged.then_some(i as u8);
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
    let mut tagged = Bench::new(regions(small_drive(Some(4)), true, seconds)).unwrap();
    let wa_tagged = device_wa(&tagged.run_to_end());
    tagged.drive().ftl().check_invariants().unwrap();
    let wa_mixed = device_wa(&Bench::new(regions(small_drive(Some(4)), false, seconds)).unwrap().run_to_end());
    eprintln!("device WA: tagged {wa_tagged:.4}, untagged {wa_mixed:.4}");
    assert!((wa_tagged - 1.0).abs() <= 0.01, "tagged: device WA {wa_tagged:.4}, perfect separation gives 1.00");
    assert!(wa_mixed > 1.2 * wa_tagged, "untagged: device WA {wa_mixed:.4} against tagged {wa_tagged:.4}");
    // Untagged writes on a drive with placement are the same run as on one without.
    let plain = Bench::new(regions(small_drive(None), false, 120)).unwrap().run_to_end();
    let on_placement = Bench::new(regions(small_drive(Some(4)), false, 120)).unwrap().run_to_end();
    assert_eq!(plain, on_placement);
}

#[test]
fn a_handle_the_drive_does_not_take_is_refused_naming_the_job() {
    let refusal = |drive: DriveConfig| Bench::new(regions(drive, true, 10)).err().expect("refused");
    let none = refusal(
        presets::by_id("s3700-200")
            .map(|mut d| {
                d.user_bytes = small_drive(None).user_bytes;
                d
            })
            .unwrap(),
    );
    assert_eq!(none.field, "phases[0].jobs[0] (region 0).placement");
    assert!(none.message.contains("drive s3700-200 takes no placement handles"), "{}", none.message);
    let two = refusal(small_drive(Some(2)));
    assert_eq!(two.field, "phases[0].jobs[2] (region 2).placement");
    assert_eq!(two.message, "handle 2 is not one of this drive's 2 placement handles (0 to 1)");
}

#[test]
fn placement_is_checked_against_the_rest_of_the_drive() {
    let with = |handles: u32, edit: fn(&mut DriveConfig)| {
        let mut d = small_drive(None);
        d.placement = Some(PlacementConfig { kind: PlacementKind::Streams, handles, isolation: Isolation::Initial });
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
}
