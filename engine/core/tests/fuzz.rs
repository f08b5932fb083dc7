//! Every parser against random bytes and random mutations of valid inputs, from a seeded
//! generator (the same cases every run): fio job files, fio's JSON and logs, every trace
//! format and its detection, run requests (JSON, the drive parameters they set, trace models,
//! fio and traces inside them), drive presets' TOML, and the value syntaxes they share. None
//! may panic; an error names the line (formats with lines) or the field (formats with fields);
//! a malformed trace line stops the replay at that line, before any command is issued.

use std::cell::RefCell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::Once;

use ssdlab_core::bench::fio::{read_json, read_log, FioRecorder};
use ssdlab_core::config::{apply_parameters, parameter_paths, presets, BlockSizes, Distribution};
use ssdlab_core::host::fio::import;
use ssdlab_core::host::trace::{self, Format, FORMATS};
use ssdlab_core::rng::Rng;
use ssdlab_core::{Bench, ConfigError, RunRequest};

/// A 6 GB S3700 (the real drive's architecture with fewer blocks per plane), for runs.
const SMALL: &str = r#"{"geometry.blocks_per_plane":64,"user_bytes":6000000000,"gc.start_free_blocks":6,
    "gc.boost_below_free_blocks":3,"gc.boost_until_free_blocks":5,"gc.background_free_blocks":8}"#;

thread_local! {
    static LAST_PANIC: RefCell<String> = const { RefCell::new(String::new()) };
    /// Inside a case: its panic is caught and reported with its input, so the hook is quiet.
    static IN_CASE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Panics are caught and reported with their input; the default hook's noise is kept out.
fn quiet_panics() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !IN_CASE.with(|c| c.get()) {
                return default(info);
            }
            let at = info.location().map(|l| format!("{}:{}", l.file(), l.line())).unwrap_or_default();
            let msg = info
                .payload()
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| info.payload().downcast_ref::<String>().cloned())
                .unwrap_or_default();
            LAST_PANIC.with(|p| *p.borrow_mut() = format!("{} at {}", msg, at));
        }));
    });
}

/// How many times the usual number of cases to run, and the seed offset (`SSDLAB_FUZZ_SCALE=10
/// SSDLAB_FUZZ_SEED=3` for a longer search; the defaults are what the test suite runs).
fn scale() -> usize {
    std::env::var("SSDLAB_FUZZ_SCALE").ok().and_then(|v| v.parse().ok()).unwrap_or(1)
}

fn seeded(seed: u64) -> Rng {
    let offset: u64 = std::env::var("SSDLAB_FUZZ_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(0);
    Rng::new(seed ^ offset.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// Runs one case; a panic is recorded with what was being parsed.
struct Cases {
    what: &'static str,
    run: usize,
    panics: Vec<String>,
}

impl Cases {
    fn new(what: &'static str) -> Self {
        quiet_panics();
        Cases { what, run: 0, panics: Vec::new() }
    }

    fn case<T>(&mut self, input: &str, f: impl FnOnce() -> T) -> Option<T> {
        self.run += 1;
        IN_CASE.with(|c| c.set(true));
        let result = catch_unwind(AssertUnwindSafe(f));
        IN_CASE.with(|c| c.set(false));
        match result {
            Ok(v) => Some(v),
            Err(_) => {
                let msg = LAST_PANIC.with(|p| p.borrow().clone());
                let shown: String = input.chars().take(600).collect();
                self.panics.push(format!("{} panicked: {}\n--- input ---\n{:?}", self.what, msg, shown));
                None
            }
        }
    }

    fn done(self, at_least: usize) {
        assert!(
            self.panics.is_empty(),
            "{} of {} cases panicked:\n{}",
            self.panics.len(),
            self.run,
            self.panics.join("\n\n")
        );
        assert!(self.run >= at_least, "{}: only {} cases", self.what, self.run);
    }
}

/// Pieces every mutation may insert (the syntax of all the formats, and values at the edges).
const COMMON: &[&str] = &[
    "\n",
    " ",
    "\t",
    ",",
    ":",
    ";",
    "=",
    "/",
    ".",
    "-",
    "+",
    "#",
    "[",
    "]",
    "{",
    "}",
    "\"",
    "0",
    "1",
    "9",
    "-1",
    "0.0",
    "1e308",
    "-1e308",
    "1e-320",
    "NaN",
    "inf",
    "nan",
    "18446744073709551615",
    "18446744073709551616",
    "4294967295",
    "4294967296",
    "99999999999999999999999999999",
    "0x",
    "0xffffffff",
    "\u{00e9}",
    "\u{feff}",
    "\0",
    "\r\n",
    "k",
    "m",
    "g",
    "t",
    "%",
    "\u{1F600}",
    "true",
    "null",
    "[]",
    "{}",
];

fn pick<'a>(rng: &mut Rng, list: &[&'a str]) -> &'a str {
    list[rng.below(list.len() as u64) as usize]
}

/// A char boundary of `t`, at random.
fn boundary(rng: &mut Rng, t: &str) -> usize {
    let n = t.chars().count();
    t.char_indices().map(|(i, _)| i).nth(rng.below(n as u64 + 1) as usize).unwrap_or(t.len())
}

/// `text` with one to four random edits: a piece inserted, a few characters cut, a number
/// swapped for an edge value, lines swapped, duplicated or cut short.
fn mutate(rng: &mut Rng, text: &str, pieces: &[&str]) -> String {
    let mut t = text.to_string();
    for _ in 0..1 + rng.below(4) {
        let at = boundary(rng, &t);
        match rng.below(7) {
            0 | 1 => {
                let piece = if rng.below(2) == 0 { pick(rng, pieces) } else { pick(rng, COMMON) };
                t.insert_str(at, piece);
            }
            2 => {
                let end = t[at..].char_indices().nth(1 + rng.below(12) as usize).map_or(t.len(), |(i, _)| at + i);
                t.replace_range(at..end, "");
            }
            3 => {
                // The number at or after `at` becomes an edge value.
                if let Some(start) = t[at..].find(|c: char| c.is_ascii_digit()).map(|i| at + i) {
                    let end = t[start..].find(|c: char| !c.is_ascii_digit() && c != '.').map_or(t.len(), |i| start + i);
                    let edge = pick(
                        rng,
                        &[
                            "0",
                            "1",
                            "-1",
                            "18446744073709551615",
                            "99999999999999999999999",
                            "1e308",
                            "0.5",
                            "4294967296",
                            "9223372036854775808",
                        ],
                    );
                    t.replace_range(start..end, edge);
                }
            }
            4 => {
                let mut lines: Vec<&str> = t.lines().collect();
                if lines.len() > 1 {
                    let (a, b) = (rng.below(lines.len() as u64) as usize, rng.below(lines.len() as u64) as usize);
                    lines.swap(a, b);
                }
                t = lines.join("\n");
            }
            5 => {
                let lines: Vec<&str> = t.lines().collect();
                if !lines.is_empty() {
                    let i = rng.below(lines.len() as u64) as usize;
                    let mut out: Vec<&str> = lines.clone();
                    out.insert(i, lines[i]);
                    t = out.join("\n");
                }
            }
            _ => t.truncate(at),
        }
    }
    t
}

/// Random text: pieces and random characters.
fn random_text(rng: &mut Rng, pieces: &[&str]) -> String {
    let mut t = String::new();
    for _ in 0..rng.below(60) {
        match rng.below(3) {
            0 => t.push_str(pick(rng, pieces)),
            1 => t.push_str(pick(rng, COMMON)),
            _ => t.push(char::from_u32(rng.below(0x250) as u32).unwrap_or('?')),
        }
    }
    t
}

fn random_bytes(rng: &mut Rng) -> Vec<u8> {
    (0..rng.below(400)).map(|_| rng.below(256) as u8).collect()
}

/// Half mutations of a valid input, a tenth random bytes, the rest random text of pieces.
fn input(rng: &mut Rng, valid: &[String], pieces: &[&str]) -> String {
    match rng.below(10) {
        0 => String::from_utf8_lossy(&random_bytes(rng)).into_owned(),
        1..=3 => random_text(rng, pieces),
        _ => {
            let i = rng.below(valid.len() as u64) as usize;
            mutate(rng, &valid[i], pieces)
        }
    }
}

fn dir(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// The files in `rel` whose names end with one of `ends`, as text.
fn files(rel: &str, ends: &[&str]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir(rel)).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if ends.iter().any(|e| name.ends_with(e)) {
            out.push((name, String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned()));
        }
    }
    out.sort();
    out
}

/// A line number quoted at the start of an error ("line N: ..."), checked against the text.
fn line_of(message: &str, text: &str) -> Option<usize> {
    let n: usize = message.strip_prefix("line ")?.split(':').next()?.parse().ok()?;
    assert!(n >= 1 && n <= text.lines().count().max(1), "line {} of {}: {}", n, text.lines().count(), message);
    Some(n)
}

/// A ConfigError names a field and says something about it.
fn names_field(e: &ConfigError) {
    assert!(!e.field.trim().is_empty() && !e.message.trim().is_empty(), "{:?}", e);
}

const FIO_PIECES: &[&str] = &[
    "[global]\n",
    "[j]\n",
    "bs=",
    "rw=",
    "size=",
    "offset=",
    "iodepth=",
    "numjobs=",
    "runtime=",
    "bssplit=",
    "random_distribution=zoned:",
    "zipf:",
    "pareto:",
    "rate_iops=",
    "ss=",
    "ss_dur=",
    "thinktime=",
    "stonewall\n",
    "time_based\n",
    "randrw",
    "rwmixread=",
    "blocksize_range=",
    "io_size=",
    "loops=",
    "ramp_time=",
    "kb_base=",
    "offset_increment=",
    "number_ios=",
    "1.5",
    "$mb_memory",
    "${VAR}",
    "include x\n",
    "4k/50:64k/50",
    "1k-1m",
    "trimwrite",
    "=,",
    "bsrange=",
    "rate=",
    "rate_process=poisson",
    "write_iops_log=",
    "log_avg_msec=",
    "ss=iops:",
];

fn fio_jobs() -> Vec<String> {
    files("tests/fio/jobs", &[".fio"]).into_iter().chain(files("tests/traces", &[".fio"])).map(|f| f.1).collect()
}

#[test]
fn fio_job_files() {
    let mut rng = seeded(101);
    let valid = fio_jobs();
    let mut cases = Cases::new("fio import");
    let spans = [6_000_000_000 / 4096 * 4096, 4096, 1 << 20, 1 << 40];
    let mut imported = 0;
    for round in 0..6000 * scale() {
        let text = input(&mut rng, &valid, FIO_PIECES);
        let span = spans[round % spans.len()];
        let result = cases.case(&text, || import(&text, span));
        match result {
            Some(Ok(f)) => {
                imported += 1;
                for list in [&f.report.ignored, &f.report.unsupported, &f.report.notes] {
                    assert!(list.iter().all(|n| n.line >= 1 && n.line <= text.lines().count()), "{:?}", list);
                }
            }
            Some(Err(e)) => {
                assert_eq!(e.field, "fio", "{}", e);
                assert!(
                    e.message.starts_with("the job file has no job") || line_of(&e.message, &text).is_some(),
                    "an import error without a line: {}",
                    e
                );
            }
            None => {}
        }
    }
    assert!(imported > 500, "{} imported", imported);
    cases.done(6000);
}

/// fio's JSON and logs, as the simulator writes them for a small job file.
fn fio_outputs() -> (Vec<String>, Vec<String>) {
    let job = "[global]\nwrite_iops_log=a\nwrite_lat_log=a\nlog_avg_msec=0\nruntime=1\ntime_based\n\
               [a]\nrw=randrw\nbssplit=4k/50:64k/50\niodepth=4\n[b]\nrw=read\nbs=128k\nwrite_bw_log=b\nlog_offset=1\n";
    let json = format!(
        r#"{{"drive":"s3700-200","seconds":1,"set":{},"fio":{}}}"#,
        SMALL,
        serde_json::Value::String(job.into())
    );
    let (cfg, file) = RunRequest::from_json(&json).and_then(|r| r.resolve_with_fio()).unwrap();
    let file = file.unwrap();
    let mut bench = Bench::new(cfg).unwrap();
    let (recorder, observer) = FioRecorder::shared(&file);
    bench.observe(observer);
    bench.run_to_end();
    let mut rec = recorder.borrow_mut();
    rec.finish();
    // A few hundred rows of each log are enough to mutate.
    let logs: Vec<String> =
        rec.take_logs().into_iter().map(|(_, t)| t.lines().take(300).collect::<Vec<_>>().join("\n")).collect();
    let text = serde_json::to_string_pretty(&rec.json()).unwrap();
    (vec![text.clone(), format!("fio: warning: something\n{}", text.replace("0.0", "-nan"))], logs)
}

#[test]
fn fio_json_and_logs() {
    let mut rng = seeded(102);
    let (jsons, logs) = fio_outputs();
    assert!(!logs.is_empty());
    const JSON_PIECES: &[&str] = &[
        "\"jobs\":",
        "\"fio version\":",
        "\"clat_ns\":",
        "\"percentile\":",
        "{\"1.000000\": 5}",
        "-nan",
        "inf",
        "\"read\":",
        "\"lat_ns\":",
        "\"N\":",
        "[",
        "]",
        "{",
        "}",
        ",",
        ":",
        "1e999",
        "-0",
        "\"\\u0000\"",
    ];
    const LOG_PIECES: &[&str] = &["\n", ", ", "0", "1", "2", "3", "4096", "-1", "18446744073709551616", ",,"];
    let mut cases = Cases::new("fio JSON");
    for _ in 0..3000 * scale() {
        let text = input(&mut rng, &jsons, JSON_PIECES);
        if let Some(Err(e)) = cases.case(&text, || read_json(&text)) {
            // A JSON error says where (serde's line and column); a missing or wrong field its path.
            let located = e.starts_with("not JSON") && e.contains("line")
                || e == "no JSON object in the text"
                || e.split(':')
                    .next()
                    .is_some_and(|path| !path.is_empty() && !path.contains(' ') || path == "fio version");
            assert!(located, "a fio JSON error without a place: {}", e);
        }
    }
    cases.done(3000);
    let mut cases = Cases::new("fio log");
    for _ in 0..4000 * scale() {
        let text = input(&mut rng, &logs, LOG_PIECES);
        if let Some(Err(e)) = cases.case(&text, || read_log(&text)) {
            assert!(line_of(&e, &text).is_some(), "a log error without a line: {}", e);
        }
    }
    cases.done(4000);
}

const TRACE_PIECES: &[&str] = &[
    "Read",
    "Write",
    "read",
    "write",
    "trim",
    "wait",
    "sync",
    "add",
    "open",
    "close",
    " Q ",
    " D ",
    " C ",
    " WS ",
    " R ",
    " DS ",
    " FWS ",
    " + ",
    "[p]",
    "8,0",
    "fio version 2 iolog\n",
    "fio version 3 iolog\n",
    "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n",
    "0x1",
    "0x0",
    "CPU0 (",
    "Total (",
    ",hm,0,",
    "/dev/x",
    "16777216",
    "16777217",
    "4294967296",
];

fn traces() -> Vec<(String, String)> {
    files("tests/traces", &[".csv", ".txt", ".trace", ".log"])
}

#[test]
fn trace_readers_and_detection() {
    let mut rng = seeded(103);
    let samples = traces();
    let valid: Vec<String> = samples.iter().map(|s| s.1.lines().take(200).collect::<Vec<_>>().join("\n")).collect();
    let mut cases = Cases::new("trace load");
    let formats: Vec<Option<Format>> = std::iter::once(None).chain(FORMATS.iter().map(|f| Some(f.0))).collect();
    let mut loaded = 0;
    for round in 0..10_000 * scale() {
        // Bytes, not text: a trace file may hold anything.
        let i = rng.below(valid.len() as u64) as usize;
        let bytes: Vec<u8> = match round % 10 {
            0 => random_bytes(&mut rng),
            1 | 2 => random_text(&mut rng, TRACE_PIECES).into_bytes(),
            _ => mutate(&mut rng, &valid[i], TRACE_PIECES).into_bytes(),
        };
        let text = String::from_utf8_lossy(&bytes).into_owned();
        // Detected, the sample's own format, or any.
        let format = match rng.below(3) {
            0 => None,
            1 => trace::detect(&valid[i]),
            _ => formats[rng.below(formats.len() as u64) as usize],
        };
        cases.case(&text, || trace::detect(&text));
        match cases.case(&text, || trace::load(&bytes[..], format, "fuzz")) {
            Some(Ok(l)) => {
                loaded += 1;
                assert!(!l.trace.records.is_empty());
                let _ = l.summary().to_string();
            }
            Some(Err(e)) => {
                let whole_file = e.message.starts_with("cannot tell")
                    || e.message.starts_with("holds no reads")
                    || e.message.starts_with("is empty");
                assert!(e.line >= 1 || whole_file, "a trace error without a line: {}", e);
                assert!(e.line <= bytes.split(|&b| b == b'\n').count(), "line {} past the end: {}", e.line, e);
            }
            None => {}
        }
    }
    assert!(loaded > 1200, "{} loaded", loaded);
    cases.done(20_000);
}

/// A line each reader refuses (rather than skips), by format.
fn bad_line(format: Format) -> &'static str {
    match format {
        Format::Msr => "128166372010189336,hm,0,Write,x,8192,1",
        Format::Blkparse => "  8,0    3   9   0.001340000  3114  Q  WS 34x14144 + 8 [postgres]",
        Format::Disksim => "4.5 0 12x 8 1",
        Format::DisksimNs => "940641000 13 34x 16 0",
        Format::FioV2 => "/dev/nvme0n1 read 36x 4096",
        Format::FioV3 => "600 /tmp/fiogen/data write 4x 16384",
    }
}

#[test]
fn a_malformed_trace_line_stops_the_replay_at_that_line() {
    let mut rng = seeded(104);
    let mut cases = Cases::new("trace replay");
    for (name, text) in traces() {
        let format = trace::detect(&text).unwrap_or_else(|| panic!("{} is not detected", name));
        let lines: Vec<&str> = text.lines().take(300).collect();
        for _ in 0..40 {
            // After the header (fio's iologs have one), at a random line.
            let at = 1 + rng.below(lines.len() as u64 - 1) as usize;
            let mut broken = lines.clone();
            broken.insert(at, bad_line(format));
            let broken = broken.join("\n");
            let e = trace::load(broken.as_bytes(), Some(format), &name).unwrap_err();
            assert_eq!(e.line, at + 1, "{}: {}", name, e);
            // Through a run request: refused before the drive is built, naming the trace and line.
            let json = serde_json::json!({"drive": "s3700-200", "seconds": 2, "trace": {"text": broken, "name": name}});
            let e = RunRequest::from_json(&json.to_string()).and_then(|r| r.resolve()).unwrap_err();
            assert!(e.field == "trace" && e.message.contains(&format!("line {}", at + 1)), "{}: {}", name, e);
        }
        // Mutated traces that still load replay to their end on a small drive without a panic.
        let mut replayed = 0;
        for _ in 0..30 {
            let mutated = mutate(&mut rng, &lines.join("\n"), TRACE_PIECES);
            let Ok(l) = trace::load(mutated.as_bytes(), Some(format), &name) else { continue };
            let json = format!(
                r#"{{"drive":"s3700-200","seconds":3,"set":{},"trace":{{"text":{},"closed_loop":{},"time_scale":{}}}}}"#,
                SMALL,
                serde_json::Value::String(mutated.clone()),
                rng.below(2) == 0,
                [1.0, 1e-6, 1e6][rng.below(3) as usize],
            );
            let run = cases.case(&mutated, || {
                let cfg = RunRequest::from_json(&json).and_then(|r| r.resolve())?;
                Ok::<_, ConfigError>(Bench::new(cfg)?.run_to_end().iter().map(|s| s.iops as f64).sum::<f64>())
            });
            match run {
                Some(Ok(ios)) => {
                    assert!(
                        ios <= l.trace.records.len() as f64,
                        "{}: {} of {} commands",
                        name,
                        ios,
                        l.trace.records.len()
                    );
                    replayed += 1;
                }
                Some(Err(e)) => names_field(&e),
                None => {}
            }
        }
        assert!(replayed > 0, "{}: no mutated trace replayed", name);
    }
    cases.done(10);
}

const REQUEST_PIECES: &[&str] = &[
    "\"drive\":",
    "\"workload\":",
    "\"seconds\":",
    "\"span\":",
    "\"queue_depth\":",
    "\"block_bytes\":",
    "\"align_bytes\":",
    "\"compressibility\":",
    "\"power_cuts_s\":",
    "\"trim_fraction\":",
    "\"burst_s\":",
    "\"idle_s\":",
    "\"seed\":",
    "\"threads\":",
    "\"read_percent\":",
    "\"random_percent\":",
    "\"block_sizes\":",
    "\"distribution\":",
    "\"rate_iops\":",
    "\"thinktime_us\":",
    "\"set\":",
    "\"trace\":",
    "\"fio\":",
    "\"s3700-200\"",
    "\"p3700-400\"",
    "\"x25e-64\"",
    "\"swingbench\"",
    "\"storage-bench-2011-heavy\"",
    "\"hot-cold\"",
    "\"redo-log\"",
    "\"4k/50:64k/50\"",
    "\"zipf:1.2\"",
    "\"pareto:0.2\"",
    "\"zoned:90/10:10/90\"",
    "\"gc.victim\":\"d-choices\"",
    "\"gc.pacing\":\"lazy\"",
    "\"map.scheme\":\"cached\"",
    "\"nand.cell\":\"slc\"",
    "\"geometry.dies\":",
    "\"timing.program_ns\":",
    "\"host.queues\":",
    "[1.5, 0.5]",
    "{\"text\":\"x\"}",
];

fn requests() -> Vec<String> {
    let msr = traces().into_iter().find(|t| t.0.ends_with(".csv")).unwrap().1;
    let msr: String = msr.lines().take(20).collect::<Vec<_>>().join("\n");
    let fio = "[a]\nrw=randwrite\nbs=4k\niodepth=8\nruntime=2\ntime_based\n";
    vec![
        r#"{"drive":"s3700-200"}"#.into(),
        r#"{"drive":"s3700-200","workload":"consistency","seconds":2000,"span":1.0,"seed":1}"#.into(),
        r#"{"drive":"p3700-400","workload":"random-read","seconds":3,"queue_depth":8,"threads":4}"#.into(),
        r#"{"drive":"s3700-200","workload":"mixed-70-30","seconds":10,"block_sizes":"4k/50:64k/50","distribution":"zipf:1.2","rate_iops":500,"thinktime_us":10,"read_percent":60,"random_percent":80}"#.into(),
        r#"{"drive":"x25e-64","workload":"hot-cold","span":0.5,"trim_fraction":0.2,"compressibility":0.5,"burst_s":10,"idle_s":5,"power_cuts_s":[1.5,3]}"#.into(),
        r#"{"drive":"s3700-200","seconds":60,"set":{"gc.victim":"d-choices","gc.victim_choices":4,"map.scheme":"cached","map.cache_bytes":1048576,"nand.cell":"slc","timing.program_ns":200000}}"#.into(),
        r#"{"drive":"s3700-200","workload":"swingbench","seconds":30,"span":0.2}"#.into(),
        r#"{"drive":"s3700-200","workload":"storage-bench-2011-light","seconds":30}"#.into(),
        serde_json::json!({"drive":"s3700-200","seconds":5,"trace":{"text":msr,"format":"msr","closed_loop":true,"time_scale":2.0}}).to_string(),
        serde_json::json!({"drive":"s3700-200","seconds":5,"fio":fio}).to_string(),
    ]
}

#[test]
fn run_requests_and_drive_parameters() {
    let mut rng = seeded(105);
    let valid = requests();
    let mut cases = Cases::new("run request");
    let mut resolved = 0;
    let edges: Vec<serde_json::Value> = [
        "0",
        "1",
        "-1",
        "0.001",
        "0.009",
        "0.99",
        "1.5",
        "1e308",
        "-1e308",
        "4294967295",
        "4294967296",
        "18446744073709551615",
        "1152921504606846976",
        "65536",
        "1048576",
        "16777216",
        "true",
        "null",
        "\"\"",
        "\"4k/0\"",
        "\"zoned:100/100\"",
        "\"zipf:10\"",
        "\"pareto:0.999999\"",
        "[]",
        "[0]",
        "[1e308]",
        "[2, 1]",
        "{}",
        "{\"text\":\"\"}",
        "\"[a]\\nruntime=1\\n\"",
    ]
    .iter()
    .map(|v| serde_json::from_str(v).unwrap())
    .collect();
    const KEYS: &[&str] = &[
        "workload",
        "seconds",
        "span",
        "queue_depth",
        "block_bytes",
        "align_bytes",
        "compressibility",
        "power_cuts_s",
        "trim_fraction",
        "burst_s",
        "idle_s",
        "seed",
        "threads",
        "read_percent",
        "random_percent",
        "block_sizes",
        "distribution",
        "rate_iops",
        "thinktime_us",
        "set",
        "trace",
        "fio",
    ];
    for round in 0..6000 * scale() {
        let text = if round % 2 == 0 {
            input(&mut rng, &valid, REQUEST_PIECES)
        } else {
            // A valid request with one to three fields at the edges of what they accept.
            let mut v: serde_json::Value =
                serde_json::from_str(&valid[rng.below(valid.len() as u64) as usize]).unwrap();
            for _ in 0..1 + rng.below(3) {
                let key = pick(&mut rng, KEYS);
                v[key] = edges[rng.below(edges.len() as u64) as usize].clone();
            }
            v.to_string()
        };
        match cases.case(&text, || RunRequest::from_json(&text).and_then(|r| r.resolve_all())) {
            Some(Ok(r)) => {
                resolved += 1;
                assert!(r.cfg.validate().is_ok());
            }
            Some(Err(e)) => names_field(&e),
            None => {}
        }
    }
    assert!(resolved > 150, "{} resolved", resolved);
    cases.done(6000);

    // Drive parameters by path, with values of every JSON kind and at the edges.
    let drive = presets::by_id("s3700-200").unwrap();
    let paths = parameter_paths(&drive);
    let values: Vec<serde_json::Value> = [
        "0",
        "1",
        "-1",
        "2",
        "7",
        "64",
        "4096",
        "1e9",
        "1.5",
        "-0.5",
        "1e308",
        "18446744073709551615",
        "18446744073709551616",
        "4294967296",
        "true",
        "false",
        "null",
        "\"\"",
        "\"slc\"",
        "\"lazy\"",
        "\"greedy\"",
        "\"cached\"",
        "\"nvme\"",
        "[]",
        "{}",
        "[1]",
        "{\"a\":1}",
    ]
    .iter()
    .map(|v| serde_json::from_str(v).unwrap())
    .collect();
    let mut cases = Cases::new("drive parameters");
    for _ in 0..4000 * scale() {
        let n = 1 + rng.below(3) as usize;
        let set: Vec<(String, serde_json::Value)> = (0..n)
            .map(|_| {
                let mut path = paths[rng.below(paths.len() as u64) as usize].clone();
                if rng.below(8) == 0 {
                    path = mutate(&mut rng, &path, &[".", "_", "x"]);
                }
                let value = match rng.below(3) {
                    0 => {
                        // The preset's own value, scaled.
                        let tree = serde_json::to_value(&drive).unwrap();
                        let v = path.split('.').fold(&tree, |node, key| &node[key]).clone();
                        match v.as_f64() {
                            Some(x) => serde_json::json!(x * [0.0, 0.5, 2.0, 1000.0][rng.below(4) as usize]),
                            None => v,
                        }
                    }
                    _ => values[rng.below(values.len() as u64) as usize].clone(),
                };
                (path, value)
            })
            .collect();
        let shown = format!("{:?}", set);
        let given: Vec<String> = set.iter().map(|s| s.0.clone()).collect();
        match cases.case(&shown, || apply_parameters(&drive, set.iter().map(|(k, v)| (k.as_str(), v.clone())))) {
            Some(Ok(d)) => {
                // What a path accepts the whole drive accepts, or the error names a field.
                if let Err(e) = d.validate() {
                    names_field(&e);
                }
            }
            Some(Err(e)) => {
                names_field(&e);
                // A path that does not exist, or a bad value, is named by its path (a whole-drive
                // check after the change names the field it fails).
                assert!(
                    given.contains(&e.field) || paths.contains(&e.field) || !e.field.contains(' '),
                    "{:?} names {}",
                    given,
                    e
                );
            }
            None => {}
        }
    }
    cases.done(4000);
}

#[test]
fn preset_files() {
    let mut rng = seeded(106);
    let files = files("presets", &[".toml"]);
    assert!(files.len() > 10);
    let valid: Vec<String> = files.iter().map(|f| f.1.clone()).collect();
    const TOML_PIECES: &[&str] =
        &["[", "]", "=", "\"", "'", "[sources]\n", "[geometry]\n", "id = ", "dies = ", "\"\"\"", "#", ".", "[[x]]\n"];
    let mut cases = Cases::new("preset TOML");
    for round in 0..2500 * scale() {
        let text = input(&mut rng, &valid, TOML_PIECES);
        let name = &files[round % files.len()].0;
        if let Some(Err(e)) = cases.case(&text, || presets::parse(name, &text)) {
            names_field(&e);
        }
    }
    cases.done(2500);
}

#[test]
fn value_syntaxes() {
    let mut rng = seeded(107);
    let sizes: Vec<String> = ["4k", "4k/50:64k/50", "8k/10:16k:32k/", "1m", "512", "64KiB"].map(String::from).to_vec();
    let dists: Vec<String> =
        ["random", "zipf:1.2", "pareto:0.2", "zoned:60/10:30/20:10/70", "zoned:90/10:10/90"].map(String::from).to_vec();
    let mut cases = Cases::new("sizes and distributions");
    for _ in 0..4000 * scale() {
        let s = input(&mut rng, &sizes, &["k", "m", "/", ":", "%"]);
        if let Some(Err(e)) = cases.case(&s, || BlockSizes::parse("block_sizes", &s)) {
            assert_eq!(e.field, "block_sizes");
        }
        let d = input(&mut rng, &dists, &["zipf:", "pareto:", "zoned:", "/", ":"]);
        if let Some(Err(e)) = cases.case(&d, || Distribution::parse("distribution", &d)) {
            assert_eq!(e.field, "distribution");
        }
    }
    cases.done(8000);
}

/// What the search found, kept as plain cases: arithmetic that overflowed (a panic in debug
/// builds, a silently wrong value in release).
#[test]
fn what_fuzzing_found() {
    // Zone percentages wrapping past 2^32 to 100 were accepted.
    let e = Distribution::parse("distribution", "zoned:60/10:4294967326/80:10/10").unwrap_err();
    assert!(e.field == "distribution" && e.message.contains("0 to 100"), "{}", e);
    // bssplit weights beyond u32 when added.
    let sizes = BlockSizes::parse("block_sizes", "4k/4294967295:8k/5").unwrap();
    assert_eq!(sizes.entries, vec![(4096, 4294967295), (8192, 5)]);
    // fio rates of 2^63 per direction summed to 2^64, which wrapped to 0: no limit at all.
    let f = import("[a]\nrw=randrw\nrate_iops=9223372036854775808,9223372036854775808\n", 1 << 30).unwrap();
    assert_eq!(f.phases[0].jobs[0].rate_iops, 100_000_000);
    // A span of 1e308 sized the fio import and the models' files before it was checked.
    for workload in [r#""fio":"[a]\nruntime=1\n""#, r#""workload":"swingbench""#] {
        for (field, value) in [("span", "1e308"), ("trim_fraction", "-1e308")] {
            let json = format!(r#"{{"drive":"s3700-200",{},"{}":{}}}"#, workload, field, value);
            let e = RunRequest::from_json(&json).and_then(|r| r.resolve()).err().unwrap();
            assert!(e.field == field && e.message.contains(" and "), "{}: {}", json, e);
        }
    }
    // A blank setting name cannot name itself.
    let e = RunRequest::from_json(r#"{"drive":"s3700-200","":1}"#).unwrap_err();
    assert!(e.field == "config" && e.message.contains("allowed: drive"), "{}", e);
}
