//! Block traces: every format reads and replays; open loop keeps the trace's clock (scaled),
//! closed loop the queue depth; a malformed line is named and stops the replay before it runs;
//! random bytes and mutated samples never panic a reader or `detect`.

use std::path::PathBuf;

use ssdlab_core::command::Op;
use ssdlab_core::host::trace::{detect, load, Format, Loaded, TraceError, FORMATS};
use ssdlab_core::rng::Rng;
use ssdlab_core::{Bench, RunRequest, Sample, Summary};

fn sample_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/traces").join(name)
}

fn sample(name: &str) -> String {
    std::fs::read_to_string(sample_path(name)).unwrap()
}

fn read(text: &str, format: Option<Format>) -> Result<Loaded, TraceError> {
    load(text.as_bytes(), format, "t")
}

/// A small S3700 (6 GB) replaying `trace` (a JSON trace object) at `queue_depth`.
fn replay_request(trace: serde_json::Value, queue_depth: u32) -> RunRequest {
    let json = serde_json::json!({
        "drive": "s3700-200", "seconds": 100000, "queue_depth": queue_depth,
        "set": {"geometry.blocks_per_plane": 64, "user_bytes": 6000001024u64, "gc.start_free_blocks": 6,
                "gc.boost_below_free_blocks": 3, "gc.boost_until_free_blocks": 5, "gc.background_free_blocks": 8},
        "trace": trace,
    });
    RunRequest::from_json(&json.to_string()).unwrap()
}

fn run(request: &RunRequest) -> Vec<Sample> {
    Bench::new(request.resolve().unwrap()).unwrap().run_to_end()
}

fn iops(s: &[Sample]) -> Vec<u32> {
    s.iter().map(|x| x.iops).collect()
}

/// The samples, their format, commands (reads, writes, TRIMs) and what each reader skips.
const SAMPLES: [(&str, Format, [usize; 3], &str); 6] = [
    ("msr-hm.csv", Format::Msr, [102, 218, 0], ""),
    (
        "blkparse.txt",
        Format::Blkparse,
        [22, 30, 6],
        "skipped 58 G events, 17 P events, 58 I events, 21 U events, 58 C events, 2 M events, \
         4 flush events, 18 summary lines, 56 D events",
    ),
    ("disksim.trace", Format::Disksim, [157, 143, 0], ""),
    ("mqsim-tpcc.trace", Format::DisksimNs, [212, 108, 0], ""),
    ("fio-v2.log", Format::FioV2, [103, 89, 12], "skipped 1 header lines, 3 file add/open/close lines, 6 sync lines"),
    ("fio-v3.log", Format::FioV3, [156, 184, 0], "skipped 1 header lines, 3 file add/open/close lines, 6 sync lines"),
];

#[test]
fn every_format_is_detected_read_and_replayed_to_its_last_command() {
    for (name, format, [reads, writes, trims], skipped) in SAMPLES {
        let text = sample(name);
        assert_eq!(detect(&text), Some(format), "{name}");
        let loaded = read(&text, None).unwrap_or_else(|e| panic!("{name}: {e}"));
        let r = &loaded.trace.records;
        let count = |op| r.iter().filter(|x| x.op == op).count();
        assert_eq!([count(Op::Read), count(Op::Write), count(Op::Trim)], [reads, writes, trims], "{name}");
        assert_eq!(loaded.skipped.to_string().replace("skipped ", ""), skipped.replace("skipped ", ""), "{name}");
        assert_eq!(r[0].time_ns, 0, "{name}: times count from the first command");
        assert!(r.iter().all(|x| x.bytes > 0 && x.bytes % 512 == 0), "{name}");

        // The replay runs every command and ends with the trace (plus the drive's last answers).
        let request = replay_request(serde_json::json!({ "text": text, "name": name }), 32);
        let (cfg, summary) = request.resolve_replay().unwrap();
        let summary = summary.unwrap();
        assert_eq!(summary.records as usize, r.len());
        let s = Bench::new(cfg).unwrap().run_to_end();
        assert_eq!(s.iter().map(|x| x.iops as usize).sum::<usize>(), r.len(), "{name}: {:?}", iops(&s));
        assert_eq!(
            s.len(),
            summary.duration_s as usize + 1,
            "{name}: {} s for a {} s trace",
            s.len(),
            summary.duration_s
        );
    }
}

#[test]
fn the_real_fio_log_keeps_fio_s_microsecond_clock() {
    // Written by fio 3.33 (tests/traces/fio-v3.fio): 340 IOs at 250 IOPS a direction.
    let loaded = read(&sample("fio-v3.log"), None).unwrap();
    let r = &loaded.trace.records;
    assert_eq!(r.len(), 340);
    // First IO at 236 us, last at 2,284,217 us.
    assert_eq!(r.last().unwrap().time_ns, (2_284_217 - 236) * 1000);
    assert_eq!((r[0].op, r[0].offset_bytes, r[0].bytes), (Op::Read, 4046848, 16384));
}

#[test]
fn each_reader_maps_its_columns() {
    let one = |text: &str, f| read(text, Some(f)).unwrap().trace.records;
    // MSR: filetime ticks (100 ns), bytes; a header line is fine.
    let r = one(
        "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n\
         128166372003061629,hm,0,Write,7014912,4096,26\n128166372003071629,hm,0,Read,512,1024,113\n",
        Format::Msr,
    );
    assert_eq!((r[1].time_ns, r[1].op, r[1].offset_bytes, r[1].bytes), (1_000_000, Op::Read, 512, 1024));
    // blkparse: seconds, sectors; D in RWBS is a discard; only Q events.
    let r = one(
        "  8,0  1  1  0.000000000  697  Q  WS 100 + 8 [jbd2]\n  8,0  1  2  0.000000500  697  G  WS 100 + 8 [jbd2]\n\
         \x20 8,0  1  3  0.002500000  697  Q  DS 2048 + 2048 [fstrim]\n  8,0  1  4  0.003  1  Q  RA 16 + 256 [cat]\n",
        Format::Blkparse,
    );
    let ops: Vec<_> = r.iter().map(|x| (x.time_ns, x.op, x.offset_bytes, x.bytes)).collect();
    assert_eq!(
        ops,
        [(0, Op::Write, 51200, 4096), (2_500_000, Op::Trim, 1 << 20, 1 << 20), (3_000_000, Op::Read, 8192, 131072)]
    );
    // A trace filtered down to D events replays those.
    let r = one("  8,0  1  1  1.0  697  D  W 8 + 8 [x]\n  8,0  1  2  1.5  0  C  W 8 + 8 [0]\n", Format::Blkparse);
    assert_eq!(r.len(), 1);
    // DiskSim: milliseconds, sectors, hex flags with bit 0 for a read (0x11 reads, 0x10 writes).
    let r = one("0.5 0 10 8 11\n2.25 1 20 16 10\n", Format::Disksim);
    assert_eq!((r[1].time_ns, r[1].op, r[1].offset_bytes, r[1].bytes), (1_750_000, Op::Write, 10240, 8192));
    assert_eq!(r[0].op, Op::Read);
    // MQSim / SSDSim: the same columns in whole ns (extra columns ignored).
    let r = one("938944000 13 93230992 32 0 1\n939855000 13 213913104 16 1 1\n", Format::DisksimNs);
    assert_eq!((r[1].time_ns, r[1].op, r[1].offset_bytes), (911_000, Op::Read, 213913104 * 512));
    // fio v2: waits in microseconds advance the clock.
    let r = one("fio version 2 iolog\nf add\nf open\nf write 0 4096\nf wait 1500 0\nf trim 8192 4096\n", Format::FioV2);
    assert_eq!((r[1].time_ns, r[1].op), (1_500_000, Op::Trim));
}

#[test]
fn detection_reads_the_first_lines_and_says_what_it_knows_when_it_cannot_tell() {
    assert_eq!(detect("\n\n0.000000 0 1234 8 1\n"), Some(Format::Disksim));
    // Whole numbers: 1 apart is DiskSim's ms (1 ns apart would be a billion commands a second).
    assert_eq!(detect("0 0 1234 8 1\n1 0 1234 8 1\n"), Some(Format::Disksim));
    assert_eq!(detect("0 0 1234 8 1\n7000 0 1234 8 1\n"), Some(Format::DisksimNs));
    assert_eq!(detect("0 0 1234 8 1\n0.5 0 1234 8 1\n"), Some(Format::Disksim));
    assert_eq!(detect("Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n"), Some(Format::Msr));
    assert_eq!(detect("fio version 3 iolog\n"), Some(Format::FioV3));
    assert_eq!(detect(""), None);
    let e = read("time,op,offset\n1,R,0\n", None).unwrap_err();
    assert_eq!(e.line, 0);
    assert!(e.message.starts_with("cannot tell the trace's format"), "{e}");
    for (_, name, _) in FORMATS {
        assert!(e.message.contains(name), "{e}");
    }
    // An explicit format that does not fit stops at the first line, saying what it expected.
    let e = read(&sample("msr-hm.csv"), Some(Format::FioV3)).unwrap_err();
    assert_eq!(e.line, 1);
    assert!(e.message.starts_with("expected the header 'fio version 3 iolog'"), "{e}");
}

#[test]
fn a_malformed_line_is_named_and_the_replay_stops_before_it_runs() {
    // Line 7 of each sample broken as a hand edit might break it.
    type Break = fn(&str) -> String;
    let cases: [(&str, Break, &str); 6] = [
        ("msr-hm.csv", |l| l.replace("Read", "Reed"), "expected Type Read or Write"),
        ("blkparse.txt", |l| l.replacen("8,0", "8;0", 1), "expected a blkparse event line"),
        ("disksim.trace", |l| l.replace(" 8 0", " 8 z"), "expected FLAGS in hexadecimal"),
        ("mqsim-tpcc.trace", |l| l.replacen(' ', ".5 ", 1), "expected a TIME in whole nanoseconds"),
        ("fio-v2.log", |l| l.replace("/dev/nvme0n1", "/dev/nvme0n1 /dev/nvme0n1"), "expected FILENAME ACTION"),
        ("fio-v3.log", |l| l.replacen(' ', "us ", 1), "expected a TIMESTAMP in microseconds"),
    ];
    for (name, breaks, expected) in cases {
        let text: String = sample(name)
            .lines()
            .enumerate()
            .map(|(i, l)| if i == 6 { breaks(l) } else { l.to_string() } + "\n")
            .collect();
        let e = read(&text, None).unwrap_err();
        assert_eq!(e.line, 7, "{name}: {e}");
        assert!(e.message.starts_with(expected), "{name}: {e}");
        // Through a run request: no run is built, the error names the trace and the line.
        let bad = replay_request(serde_json::json!({ "text": text }), 8).resolve().unwrap_err();
        assert_eq!(bad.field, "trace");
        assert!(bad.message.starts_with(&format!("line 7: {}", expected)), "{name}: {bad}");
    }
    // Bytes that are not text, a size no command has, a time too far from the first.
    let e = load(&b"fio version 3 iolog\n1 f write 0 4096\n2 f \xff 0 0\n"[..], None, "t").unwrap_err();
    assert_eq!((e.line, e.message.as_str()), (3, "is not text (UTF-8)"));
    let e = read("fio version 3 iolog\n1 f write 0 33554432\n", None).unwrap_err();
    assert_eq!(e.line, 2);
    assert!(e.message.contains("at most 16777216 bytes"), "{e}");
    let e = read("0 0 0 8 0\n99999999999999999999999 0 0 8 0\n", None).unwrap_err();
    assert_eq!(e.line, 2);
    // A trace object that is not one is named without quoting the whole file.
    let long = serde_json::json!({"drive": "s3700-200", "trace": {"text": "0 0 0 8 0\n".repeat(1000), "speed": 2}});
    let e = RunRequest::from_json(&long.to_string()).unwrap_err();
    assert_eq!(e.field, "trace");
    assert!(e.message.starts_with("must be an object") && e.message.len() < 300, "{e}");
    // Nothing to replay is an error too, saying what was there.
    let e = read("fio version 2 iolog\nf add\nf open\nf sync 0 0\n", None).unwrap_err();
    assert_eq!(
        e.to_string(),
        "holds no reads, writes or TRIMs to replay (skipped 1 header lines, 2 file add/open/close lines, 1 sync lines)"
    );
}

/// `n` reads of 4 KiB at random places in the first 4 GB, `per_s` a second from `t0_us`, as
/// fio-v3 lines (microseconds).
fn reads(n: u64, per_s: u64, t0_us: u64) -> String {
    let mut rng = Rng::new(n);
    (0..n).map(|i| format!("{} f read {} 4096\n", t0_us + i * 1_000_000 / per_s, rng.below(1_000_000) * 4096)).collect()
}

#[test]
fn open_loop_keeps_the_trace_s_clock_scaled() {
    // 1,000 reads a second for 3 s, a second of nothing, then 5,000 at once.
    let mut text = format!("fio version 3 iolog\n{}", reads(3000, 1000, 0));
    text += &(0..5000).map(|i| format!("4000000 f write {} 4096\n", i * 4096)).collect::<String>();
    let s = run(&replay_request(serde_json::json!({ "text": text }), 32));
    assert_eq!(iops(&s), [1000, 1000, 1000, 0, 5000], "the burst fits one second at QD32");
    // Twice as slow a clock: half the rate over twice the time.
    let s = run(&replay_request(serde_json::json!({ "text": text, "time_scale": 2.0 }), 32));
    assert_eq!(iops(&s[..6]), [500; 6]);
    assert_eq!((s[6].iops, s[7].iops, s.len()), (0, 0, 9));
    assert_eq!(s[8].iops, 5000);
    // Twice as fast.
    let s = run(&replay_request(serde_json::json!({ "text": text, "time_scale": 0.5 }), 32));
    assert_eq!(iops(&s), [2000, 1000, 5000]);
    // A trace scaled past the longest run is refused before it starts.
    let e = replay_request(serde_json::json!({ "text": text, "time_scale": 500000.0 }), 32).resolve().unwrap_err();
    assert_eq!(e.field, "trace.time_scale");
}

#[test]
fn a_replay_s_partial_last_second_counts_by_its_share() {
    // 1,000 reads a second for 2.5 s: the run ends half way into its third second.
    let text = format!("fio version 3 iolog\n{}", reads(2500, 1000, 0));
    let s = run(&replay_request(serde_json::json!({ "text": text }), 32));
    assert_eq!(iops(&s), [1000, 1000, 500]);
    assert_eq!((s[0].second_covered, s[1].second_covered), (1.0, 1.0));
    assert!((0.49..0.51).contains(&s[2].second_covered), "{}", s[2].second_covered);
    // The mean is IOs over the time run; the lowest and highest are of whole seconds.
    let sum = Summary::from_samples(&s, 1);
    assert_eq!((sum.iops_min, sum.iops_max, sum.steady_iops_min), (1000, 1000, 1000));
    assert!((sum.iops_mean - 1000.0).abs() < 2.0 && (sum.steady_iops_mean - 1000.0).abs() < 4.0, "{:?}", sum);
    // A run shorter than a second has only its partial second: its rate.
    let short = run(&replay_request(
        serde_json::json!({ "text": format!("fio version 3 iolog\n{}", reads(300, 1000, 0)) }),
        32,
    ));
    let sum = Summary::from_samples(&short, 0);
    assert!((sum.iops_mean - 1000.0).abs() < 5.0, "{:?}", sum);
    assert_eq!((sum.iops_min, sum.iops_max), (sum.iops_mean.round() as u32, sum.iops_mean.round() as u32));
}

/// fio's t/jobs/t0038.iolog shape (ten 4 KiB writes) and other short ones: at a replay's end the
/// host closes the drive, which programs what its buffer holds, so no host write is left out of
/// the NAND side of the write amplification.
#[test]
fn a_short_replay_s_buffered_writes_reach_nand_at_its_end() {
    for n in [1, 10, 13, 1000] {
        let writes: String = (0..n).map(|i| format!("/dev/x write {} 4096\n", i * 4096)).collect();
        let text = format!("fio version 2 iolog\n/dev/x add\n/dev/x open\n{}/dev/x close\n", writes);
        let s = run(&replay_request(serde_json::json!({ "text": text }), 32));
        let host: f64 = s.iter().map(|x| x.host_writes).sum();
        assert_eq!(host, n as f64);
        assert_eq!(s.last().map(|x| x.buffer_units), Some(0), "{} writes", n);
        let wa = Summary::from_samples(&s, 0).write_amplification;
        assert!(wa >= 1.0, "{} writes: WA {}", n, wa);
    }
}

#[test]
fn closed_loop_keeps_the_queue_depth_and_ignores_the_clock() {
    // 120,000 reads one second apart: open loop they would take 33 hours.
    let text = format!("fio version 3 iolog\n{}", reads(120_000, 1, 0));
    let closed = |qd| run(&replay_request(serde_json::json!({ "text": text, "closed_loop": true }), qd));
    let (qd1, qd8) = (closed(1), closed(8));
    assert_eq!(qd1.iter().map(|x| x.iops as u64).sum::<u64>(), 120_000);
    assert!(qd1.len() < 30 && qd8.len() < qd1.len() / 4, "QD1 {:?}, QD8 {:?}", iops(&qd1), iops(&qd8));
    // As fast as the synthetic random-read workload at the same depth.
    let synthetic = |qd: u32| {
        let json = format!(
            r#"{{"drive":"s3700-200","workload":"random-read","seconds":2,"queue_depth":{qd},
            "set":{{"geometry.blocks_per_plane":64,"user_bytes":6000001024,"gc.start_free_blocks":6,
            "gc.boost_below_free_blocks":3,"gc.boost_until_free_blocks":5,"gc.background_free_blocks":8}}}}"#
        );
        run(&RunRequest::from_json(&json).unwrap())[1].iops as f64
    };
    for (s, qd) in [(&qd1, 1), (&qd8, 8)] {
        let (replayed, drawn) = (s[1].iops as f64, synthetic(qd));
        assert!((replayed / drawn - 1.0).abs() < 0.1, "QD{qd}: replay {replayed} vs synthetic {drawn} IOPS");
    }
    // Open loop with everything due at once: the queue depth bounds what is outstanding alike.
    let burst = format!("fio version 3 iolog\n{}", reads(120_000, 1_000_000_000, 0));
    let open = run(&replay_request(serde_json::json!({ "text": burst }), 1));
    assert!((open[1].iops as f64 / qd1[1].iops as f64 - 1.0).abs() < 0.05, "{:?} vs {:?}", iops(&open), iops(&qd1));
}

/// Random edits of `text`: bytes flipped, dropped, repeated or inserted, lines swapped or cut.
fn mutate(text: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut out = text.to_vec();
    for _ in 0..=rng.below(4) {
        let at = rng.below(out.len() as u64 + 1) as usize;
        match rng.below(6) {
            0 if at < out.len() => out[at] ^= 1 << rng.below(8),
            1 if at < out.len() => {
                out.remove(at);
            }
            2 => out.insert(at, b"0123456789 ,.+-\nxQDWRFS\xff"[rng.below(24) as usize]),
            3 => {
                let end = (at + rng.below(200) as usize).min(out.len());
                let piece = out[at..end].to_vec();
                out.splice(at..at, piece);
            }
            4 => out.truncate(at),
            _ => {
                let digits = rng.next_u64().to_string();
                out.splice(at..at, digits.bytes());
            }
        }
    }
    out
}

#[test]
fn no_reader_panics_on_random_bytes_or_mutated_samples() {
    let started = std::time::Instant::now();
    let mut rng = Rng::new(2024);
    let samples: Vec<Vec<u8>> = SAMPLES.iter().map(|s| std::fs::read(sample_path(s.0)).unwrap()).collect();
    let formats: Vec<Option<Format>> = std::iter::once(None).chain(FORMATS.iter().map(|f| Some(f.0))).collect();
    let (mut read_ok, mut refused) = (0, 0);
    for round in 0..3000 {
        let input = if round % 4 == 0 {
            (0..rng.below(400)).map(|_| rng.below(256) as u8).collect()
        } else {
            mutate(&samples[round % samples.len()], &mut rng)
        };
        detect(&String::from_utf8_lossy(&input));
        let _ = RunRequest::from_json(&String::from_utf8_lossy(&input));
        for &f in &formats {
            match load(&input[..], f, "fuzz") {
                Ok(l) => {
                    read_ok += 1;
                    assert!(!l.trace.records.is_empty());
                    assert!(l.trace.records.iter().all(|r| r.bytes > 0));
                }
                Err(e) => {
                    refused += 1;
                    assert!(!e.message.is_empty());
                }
            }
        }
    }
    // Mutations keep many samples readable and break many: both paths ran.
    assert!(read_ok > 1000 && refused > 10_000, "{read_ok} read, {refused} refused");
    // The run request around a trace, mutated as text (and, above, random bytes as requests).
    let request =
        serde_json::json!({"drive": "s3700-200", "trace": {"text": "0 0 0 8 0\n", "time_scale": 2}}).to_string();
    for _ in 0..300 {
        let text = String::from_utf8_lossy(&mutate(request.as_bytes(), &mut rng)).into_owned();
        if let Ok(r) = RunRequest::from_json(&text) {
            let _ = r.resolve();
        }
    }
    assert!(started.elapsed().as_secs() < 10, "{:?}", started.elapsed());
}

#[test]
fn a_trace_that_writes_is_refused_by_name_on_a_zoned_drive() {
    // The shape of MQSim's ZNS sample (CMU-SAFARI/MQSim traces/zns-trace_nysong.trace, commit
    // 11834f5f): writes at zone starts in whole ns. Replayed on a zoned drive every write was
    // refused (wrapped into the span, none lands on a write pointer) and the run showed 0 IOPS.
    let zns = "938513000 1 1073741824 16 0\n938828000 1 805306368 16 0\n938944000 1 1879048192 32 0\n";
    let json = |text: &str| {
        serde_json::json!({"drive": "zn540-small", "precondition": "none", "seconds": 10, "trace": {"text": text}})
            .to_string()
    };
    let e = RunRequest::from_json(&json(zns)).unwrap().resolve().unwrap_err();
    assert_eq!(e.field, "trace");
    assert!(e.message.contains("3 writes or TRIMs of its 3 commands and drive zn540-small is zoned"), "{e}");
    // A trace of reads replays there, every command answered.
    let reads = "938513000 1 1073741824 16 1\n938828000 1 805306368 16 1\n";
    let s = run(&RunRequest::from_json(&json(reads)).unwrap());
    assert_eq!(s.iter().map(|x| x.iops).sum::<u32>(), 2);
}
