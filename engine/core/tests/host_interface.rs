//! Host interfaces: SATA's NCQ caps the drive at 32 commands, so random-read IOPS stop rising at
//! QD32 and the extra commands wait in the host; NVMe's deep queues keep scaling [003].

use ssdlab_core::{Bench, RunRequest, Summary};

/// Mean IOPS and latency of 4 KB random reads at one queue depth (a smaller array of the same
/// channels, dies and timings: reads do not depend on capacity).
fn random_read(drive: &str, queue_depth: u32) -> Summary {
    random_read_with(drive, queue_depth, "")
}

/// The same, with more drive parameters (`"path":value` pairs, comma-led).
fn random_read_with(drive: &str, queue_depth: u32, set: &str) -> Summary {
    let json = format!(
        r#"{{"drive":"{}","workload":"random-read","seconds":3,"queue_depth":{},
            "set":{{"geometry.blocks_per_plane":128,"user_bytes":8000000000{}}}}}"#,
        drive, queue_depth, set
    );
    let cfg = RunRequest::from_json(&json).unwrap().resolve().unwrap();
    let samples = Bench::new(cfg).unwrap().run_to_end();
    Summary::from_samples(&samples, 1)
}

fn mean_latency_us(drive: &str, queue_depth: u32) -> f64 {
    let s = random_read(drive, queue_depth);
    // Closed loop: latency = queue depth / throughput.
    queue_depth as f64 / s.steady_iops_mean * 1e6
}

#[test]
fn sata_saturates_at_qd32_while_nvme_keeps_scaling() {
    let sata_32 = random_read("s3700-200", 32).steady_iops_mean;
    let sata_128 = random_read("s3700-200", 128).steady_iops_mean;
    let nvme_32 = random_read("p3700-400", 32).steady_iops_mean;
    let nvme_128 = random_read("p3700-400", 128).steady_iops_mean;
    assert!(sata_128 < sata_32 * 1.03, "SATA QD32 {} vs QD128 {}", sata_32, sata_128);
    assert!(nvme_128 > nvme_32 * 1.3, "NVMe QD32 {} vs QD128 {}", nvme_32, nvme_128);
    // The article's figures: S3700 ~75K at QD32; P3700 about 3.5x the S3700 at QD32.
    assert!((65_000.0..85_000.0).contains(&sata_32), "{}", sata_32);
    assert!(nvme_32 > 2.5 * sata_32, "NVMe {} vs SATA {}", nvme_32, sata_32);
}

#[test]
fn nvme_scales_by_spreading_commands_over_queue_pairs() {
    // NVMe queues only 32 deep: one queue caps the drive like SATA's NCQ, four hold QD128.
    let one = |qd| random_read_with("p3700-400", qd, r#","host.queues":1,"host.max_queue_depth":32"#).steady_iops_mean;
    let four = |qd| random_read_with("p3700-400", qd, r#","host.queues":4,"host.max_queue_depth":32"#).steady_iops_mean;
    let (one_32, one_128, four_128) = (one(32), one(128), four(128));
    assert!(one_128 < one_32 * 1.03, "one queue: QD32 {} vs QD128 {}", one_32, one_128);
    assert!(four_128 > one_32 * 1.3, "four queues at QD128 {} vs one queue {}", four_128, one_32);
    // The preset's queues and depth never cut the host short: as if unlimited.
    let unlimited =
        random_read_with("p3700-400", 128, r#","host.queues":1,"host.max_queue_depth":65536"#).steady_iops_mean;
    assert_eq!(random_read("p3700-400", 128).steady_iops_mean, unlimited);
}

#[test]
fn commands_beyond_ncq_wait_in_the_host() {
    // [003]: the S3700's average 4 KB random-read latency at QD128 is over 1.6 ms.
    let qd128 = mean_latency_us("s3700-200", 128);
    assert!(qd128 > 1_600.0, "{} us", qd128);
    // QD1: ~150 us (27.2 MB/s); within 25 %.
    let qd1 = mean_latency_us("s3700-200", 1);
    assert!((112.0..188.0).contains(&qd1), "{} us", qd1);
}

#[test]
fn samples_report_host_cpu_cores() {
    let cfg = RunRequest::from_json(
        r#"{"drive":"s3700-200","workload":"random-read","seconds":2,"queue_depth":32,
            "set":{"geometry.blocks_per_plane":128,"user_bytes":8000000000}}"#,
    )
    .unwrap()
    .resolve()
    .unwrap();
    let s = Bench::new(cfg).unwrap().run_to_end();
    // 27,000 cycles per IO at 2.7 GHz: 1 core per 100K IOPS.
    let expected = s[1].iops as f64 * 27_000.0 / 2.7e9;
    assert!((s[1].host_cpu_cores - expected).abs() < 1e-9 && s[1].host_cpu_cores > 0.5);
}

#[test]
fn a_3gbps_sata_link_halves_sequential_reads() {
    // The 710, X25-E and 320 of [000] are SATA 3Gb/s: about 280 MB/s of payload after coding.
    let read = |link_mb_s: u32| {
        let json = format!(
            r#"{{"drive":"s3700-200","workload":"sequential-read","seconds":3,
                "set":{{"geometry.blocks_per_plane":128,"user_bytes":8000000000,"host.link_mb_s":{}}}}}"#,
            link_mb_s
        );
        let cfg = RunRequest::from_json(&json).unwrap().resolve().unwrap();
        Bench::new(cfg).unwrap().run_to_end()[1].mb_s
    };
    let (fast, slow) = (read(560), read(280));
    // The S3700's spec: 500 MB/s sequential read [001].
    assert!((480.0..560.0).contains(&fast), "{} MB/s", fast);
    assert!((250.0..280.0).contains(&slow), "{} MB/s", slow);
}

#[test]
fn a_full_duplex_link_returns_read_data_beside_the_commands_and_sata_has_none() {
    // The P420m's PCIe link: read data on its own direction; sharing one direction with the
    // commands' frames caps it well below the controller's rate.
    let both = random_read("p420m-1400", 256).steady_iops_mean;
    let shared = random_read_with("p420m-1400", 256, r#","host.full_duplex":false"#).steady_iops_mean;
    assert!(both > 1.3 * shared, "full duplex {} against one direction {}", both, shared);
    let refused = RunRequest::from_json(r#"{"drive":"s3700-200","set":{"host.full_duplex":true}}"#)
        .unwrap()
        .resolve()
        .unwrap_err();
    assert_eq!(refused.field, "host.full_duplex");
}
