//! The host's workload machinery: threads x queue depth, phases one after another, rate limits,
//! byte limits and open-loop trace replay, each shown doing what it says.

use std::sync::Arc;

use ssdlab_core::command::Op;
use ssdlab_core::config::{
    presets, BlockSizes, Distribution, JobSpec, Phase, RunConfig, Trace, TraceRecord, WorkloadSpec,
};
use ssdlab_core::{Bench, RunRequest, Sample};

fn run(cfg: RunConfig) -> Vec<Sample> {
    Bench::new(cfg).expect("valid config").run_to_end()
}

fn small_drive() -> ssdlab_core::DriveConfig {
    let mut d = presets::by_id("s3700-200").unwrap();
    d.geometry.blocks_per_plane = 64;
    d.user_bytes = 6_000_001_024 / 4096 * 4096;
    (d.gc.start_free_blocks, d.gc.boost_below_free_blocks, d.gc.boost_until_free_blocks, d.gc.background_free_blocks) =
        (6, 3, 5, 8);
    d
}

fn request(json: &str) -> RunConfig {
    RunRequest::from_json(json).and_then(|r| r.resolve()).unwrap()
}

#[test]
fn threads_times_queue_depth_is_the_outstanding_load() {
    // NVMe random reads: 4 threads at QD8 keep as much in flight as one at QD32.
    let one = request(r#"{"drive":"p3700-400","workload":"random-read","seconds":3,"queue_depth":32}"#);
    let four = request(r#"{"drive":"p3700-400","workload":"random-read","seconds":3,"queue_depth":8,"threads":4}"#);
    let qd8 = request(r#"{"drive":"p3700-400","workload":"random-read","seconds":3,"queue_depth":8}"#);
    let iops = |cfg| run(cfg)[2].iops as f64;
    let (one, four, qd8) = (iops(one), iops(four), iops(qd8));
    assert!((four / one - 1.0).abs() < 0.05, "4 x QD8 {} vs 1 x QD32 {}", four, one);
    assert!(four > qd8 * 2.5, "4 x QD8 {} vs QD8 {}", four, qd8);
}

#[test]
fn phases_run_in_order_and_a_byte_limit_ends_the_workload() {
    let w = WorkloadSpec::by_id("random-write").unwrap();
    let mut write = JobSpec::named(&w, 4096, 4096, 32);
    write.name = "write".into();
    let mut read = write.clone();
    read.name = "read".into();
    read.read_percent = 100;
    // Sequential 128 KiB reads of 1 GiB, then the job is done.
    let mut scan = write.clone();
    scan.read_percent = 100;
    scan.random_percent = 0;
    scan.read_sizes = BlockSizes::fixed(131072);
    scan.io_limit_bytes = 1 << 30;
    let phase = |name: &str, job: &JobSpec, s: u64| Phase {
        name: name.into(),
        jobs: vec![job.clone()],
        runtime_ns: s * 1_000_000_000,
        ramp_ns: 0,
    };
    let mut cfg = RunConfig::new(small_drive(), w, 60);
    cfg.phases = vec![phase("write", &write, 4), phase("read", &read, 4), phase("scan", &scan, 0)];
    let s = run(cfg);
    // Writes for 4 s, then reads: host writes stop.
    assert!(s[1].host_writes > 10_000.0 && s[3].host_writes > 10_000.0);
    assert!(s[5].host_writes == 0.0 && s[5].iops > 10_000, "{:?}", s[5]);
    // The scan moves 1 GiB at ~500 MB/s and the run ends with it, well before 60 s.
    assert!(s.len() < 20, "{} seconds", s.len());
    let scanned: f64 = s[8..].iter().map(|x| x.mb_s).sum();
    assert!((1000.0..1100.0).contains(&scanned), "{} MB", scanned);
}

#[test]
fn rate_limits_and_skewed_mixes_shape_the_load() {
    let limited = request(
        r#"{"drive":"s3700-200","workload":"random-write","seconds":4,"threads":2,"rate_iops":500,
        "set":{"geometry.blocks_per_plane":64,"user_bytes":6000001024,"gc.start_free_blocks":6,
        "gc.boost_below_free_blocks":3,"gc.boost_until_free_blocks":5,"gc.background_free_blocks":8}}"#,
    );
    let s = run(limited);
    assert!(
        s[1..].iter().all(|x| (995..=1005).contains(&x.iops)),
        "{:?}",
        s.iter().map(|x| x.iops).collect::<Vec<_>>()
    );
    // A bssplit mix of 4 KiB and 64 KiB writes moves (4 + 64) / 2 KiB per command on average.
    let mixed = request(
        r#"{"drive":"s3700-200","workload":"random-write","seconds":3,"block_sizes":"4k/50:64k/50",
        "distribution":"zipf:1.2","set":{"geometry.blocks_per_plane":64,"user_bytes":6000001024,"gc.start_free_blocks":6,
        "gc.boost_below_free_blocks":3,"gc.boost_until_free_blocks":5,"gc.background_free_blocks":8}}"#,
    );
    let s = run(mixed);
    let per_io = s[1].mb_s * 1e6 / s[1].iops as f64;
    assert!((per_io / 34816.0 - 1.0).abs() < 0.05, "{} bytes per command", per_io);
    let bad =
        RunRequest::from_json(r#"{"drive":"s3700-200","distribution":"zipf:one"}"#).unwrap().resolve().unwrap_err();
    assert_eq!(bad.field, "distribution");
    assert!(matches!(Distribution::parse("d", "pareto:0.2"), Ok(Distribution::Pareto(_))));
}

#[test]
fn an_open_loop_trace_issues_at_its_own_times() {
    // 1,000 reads a second for 5 s, then a burst of 10,000 at once.
    let mut records: Vec<TraceRecord> = (0..5_000u64)
        .map(|i| TraceRecord { time_ns: i * 1_000_000, op: Op::Read, offset_bytes: i * 8192 * 7919, bytes: 4096 })
        .collect();
    records.extend((0..10_000u64).map(|i| TraceRecord {
        time_ns: 6_000_000_000,
        op: Op::Write,
        offset_bytes: i * 4096,
        bytes: 4096,
    }));
    let trace = Arc::new(Trace { name: "test".into(), records, open_loop: true, time_scale: 1.0 });
    let w = WorkloadSpec::by_id("random-read").unwrap();
    let mut job = JobSpec::named(&w, 4096, 4096, 64);
    job.trace = Some(trace.clone());
    let mut cfg = RunConfig::new(small_drive(), w, 30);
    cfg.phases = vec![Phase { name: "replay".into(), jobs: vec![job.clone()], runtime_ns: 0, ramp_ns: 0 }];
    let s = run(cfg.clone());
    assert!(s[..5].iter().all(|x| x.iops == 1_000), "{:?}", s.iter().map(|x| x.iops).collect::<Vec<_>>());
    assert_eq!(s[5].iops, 0);
    assert_eq!(s[6].iops, 10_000);
    assert_eq!(s.len(), 7, "the replay ends with the trace");
    // Twice as slow a clock spreads the same commands over twice the time.
    let slow = Arc::new(Trace { time_scale: 2.0, ..(*trace).clone() });
    job.trace = Some(slow);
    cfg.phases[0].jobs = vec![job];
    let s = run(cfg);
    assert!(s[..10].iter().all(|x| x.iops == 500), "{:?}", s.iter().map(|x| x.iops).collect::<Vec<_>>());
}
