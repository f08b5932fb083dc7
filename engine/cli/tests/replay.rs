//! `ssdlab replay` of a blkparse file in the shape real ones have: the column header as
//! comment lines, remap (A) events before each Q, the closing per-CPU and total summary.

use std::process::Command;

/// `blkparse -i` output of a partition on a device-mapper volume, in the layout published
/// ones have (the values are ours): 3 reads and 3 writes queued.
const BLKPARSE: &str = "\
#Maj,Mn CPU   SeqNo     Seconds     PID  Evt Typ Sector   +Len Description
#------ --- ------- --------------- -----|--|---|---------+--- -------------------------------------
259,0    0        1     0.000000000  1406  A   W 2048000 + 8 <- (253,0) 1024000
259,0    0        2     0.000000150  1406  A   W 2099200 + 8 <- (259,1) 2048000
259,0    0        3     0.000000300  1406  Q   W 2099200 + 8 [dmcrypt_write/2]
259,0    0        4     0.000004000  1406  G   W 2099200 + 8 [dmcrypt_write/2]
259,0    0        5     0.000005000  1406  P   N [dmcrypt_write/2]
259,0    0        6     0.000006000  1406  U   N [dmcrypt_write/2] 1
259,0    0        7     0.000007000  1406  D   W 2099200 + 8 [dmcrypt_write/2]
259,0    0        8     0.000090000     0  C   W 2099200 + 8 [0]
259,0    1        1     0.010000000  2210  A   R 51200 + 32 <- (259,1) 0
259,0    1        2     0.010000200  2210  Q   R 51200 + 32 [postgres]
259,0    1        3     0.010100000     0  C   R 51200 + 32 [0]
259,0    1        4     0.020000000  2210  A   R 51232 + 32 <- (259,1) 32
259,0    1        5     0.020000200  2210  Q   R 51232 + 32 [postgres]
259,0    1        6     0.020100000     0  C   R 51232 + 32 [0]
259,0    0        9     0.030000000  1406  A  WS 2099208 + 16 <- (259,1) 2048008
259,0    0       10     0.030000150  1406  Q  WS 2099208 + 16 [dmcrypt_write/2]
259,0    0       11     0.030200000     0  C  WS 2099208 + 16 [0]
259,0    1        7     0.040000000  2210  A   R 51264 + 8 <- (259,1) 64
259,0    1        8     0.040000200  2210  Q   R 51264 + 8 [postgres]
259,0    1        9     0.040100000     0  C   R 51264 + 8 [0]
259,0    0       12     0.050000000  1406  A   W 2099224 + 8 <- (259,1) 2048024
259,0    0       13     0.050000150  1406  Q   W 2099224 + 8 [dmcrypt_write/2]
259,0    0       14     0.050100000     0  C   W 2099224 + 8 [0]
CPU0 (259,0):
 Reads Queued:           0,        0KiB\t Writes Queued:           3,       16KiB
 Read Dispatches:        0,        0KiB\t Write Dispatches:        1,        4KiB
 Reads Completed:        0,        0KiB\t Writes Completed:        3,       16KiB
CPU1 (259,0):
 Reads Queued:           3,       36KiB\t Writes Queued:           0,        0KiB
 Reads Completed:        3,       36KiB\t Writes Completed:        0,        0KiB
Total (259,0):
 Reads Queued:           3,       36KiB\t Writes Queued:           3,       16KiB
 Reads Completed:        3,       36KiB\t Writes Completed:        3,       16KiB

Throughput (R/W): 720KiB/s / 320KiB/s
Events (259,0): 23 entries
Skips: 0 forward (0 -   0.0%)
";

/// A small S3700 (6 GB), so the replay's preconditioning takes little time.
const SMALL: [&str; 12] = [
    "--drive",
    "s3700-200",
    "--set",
    "geometry.blocks_per_plane=64",
    "--set",
    "user_bytes=6000001024",
    "--set",
    "gc.start_free_blocks=6",
    "--set",
    "gc.boost_below_free_blocks=3",
    "--set",
    "gc.boost_until_free_blocks=5",
];

fn replay(path: &std::path::Path, more: &[&str]) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_ssdlab"))
        .arg("replay")
        .arg(path)
        .args(SMALL)
        .args(["--set", "gc.background_free_blocks=8", "--json"])
        .args(more)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "ssdlab replay {more:?} failed: {stderr}");
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

#[test]
fn a_blkparse_file_with_its_column_header_and_remaps_is_detected_and_replayed() {
    let path = std::env::temp_dir().join(format!("ssdlab-replay-{}.blkparse.txt", std::process::id()));
    std::fs::write(&path, BLKPARSE).unwrap();
    for more in [&[][..], &["--format", "blkparse"]] {
        let v = replay(&path, more);
        let t = &v["trace"];
        assert_eq!(t["format"], "blkparse", "{more:?}: {t}");
        assert_eq!(
            (t["records"].as_u64(), t["reads"].as_u64(), t["writes"].as_u64()),
            (Some(6), Some(3), Some(3)),
            "{t}"
        );
        let skipped: Vec<String> = t["skipped"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| format!("{} {}", k["count"], k["what"].as_str().unwrap()))
            .collect();
        assert_eq!(
            skipped,
            [
                "2 comment lines",
                "7 A events",
                "1 G events",
                "1 P events",
                "1 U events",
                "6 C events",
                "13 summary lines",
                "1 D events"
            ],
            "{t}"
        );
    }
    std::fs::remove_file(&path).ok();
}

#[test]
fn a_zoned_drive_replays_a_trace_of_reads_given_precondition_none() {
    // A zoned drive starts with every zone empty: only `--precondition none`, which replay
    // named in its refusal but did not take.
    let path = std::env::temp_dir().join(format!("ssdlab-replay-{}.zns.trace", std::process::id()));
    std::fs::write(&path, "938513000 1 1073741824 16 1\n938828000 1 805306368 16 1\n").unwrap();
    let ssdlab = |more: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_ssdlab"))
            .arg("replay")
            .arg(&path)
            .args(["--drive", "zn540-small", "--json"])
            .args(more)
            .output()
            .unwrap()
    };
    let refused = ssdlab(&[]);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("precondition: a zoned drive"));
    let out = ssdlab(&["--precondition", "none"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["host_ios"].as_u64(), Some(2), "{v}");
    std::fs::remove_file(&path).ok();
}
