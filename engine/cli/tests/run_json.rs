//! `ssdlab run --json`: the speed figures the page's benchmark (e2e/bench/page.spec.ts) reads.

use std::process::Command;

/// On Linux the run's CPU time is reported beside its wall time, for the whole run and the
/// steady state (the benchmark compares them with the browser worker's CPU time).
#[cfg(target_os = "linux")]
#[test]
fn a_run_reports_its_cpu_time_beside_its_wall_time() {
    let out = Command::new(env!("CARGO_BIN_EXE_ssdlab"))
        .args(["run", "--drive", "s3700-200", "--seconds", "4", "--steady-from", "2", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let m: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let cpu = m["cpu_seconds"].as_f64().expect("cpu_seconds");
    let wall = m["wall_seconds"].as_f64().expect("wall_seconds");
    // The erase and fill of a 200 GB drive alone take well over one 10 ms tick.
    assert!(cpu > 0.0 && cpu < wall + 1.0, "cpu {cpu} s, wall {wall} s");
    let steady = m["steady_host_ios_per_cpu_second"].as_f64().expect("steady_host_ios_per_cpu_second");
    let steady_wall = m["steady_host_ios_per_wall_second"].as_f64().unwrap();
    // CPU time never exceeds wall time on one thread, so the CPU rate is at least the wall one
    // (within a tick's rounding).
    assert!(steady.is_finite() && steady > 0.5 * steady_wall, "{steady} against {steady_wall}");
}

/// A zone store from the command line, on a small drive made zoned with `--set`: the summary
/// adds the host's write amplification (its cleaner's copies) and the total; the drive's stays
/// at its map journal's share above 1.
#[test]
fn a_zone_store_run_reports_host_and_total_write_amplification() {
    let zoned = r#"zoned={"zone_bytes":1048576,"zone_capacity_bytes":1048576,"zone_dies":2,"max_open_zones":4,"max_active_zones":4,"append_max_bytes":131072}"#;
    let mut args = vec!["run", "--drive", "s3700-200", "--precondition", "none", "--workload", "random-write"];
    args.extend(["--queue-depth", "8", "--seconds", "40", "--zone-store", "0.8", "--json"]);
    for set in [
        "geometry.channels=2",
        "geometry.dies=2",
        "geometry.page_bytes=16384",
        "geometry.pages_per_block=16",
        "geometry.blocks_per_plane=512",
        "gc.reserved_percent=0",
        "gc.start_free_blocks=6",
        "gc.boost_below_free_blocks=3",
        "gc.boost_until_free_blocks=5",
        "user_bytes=419430400",
        zoned,
    ] {
        args.extend(["--set", set]);
    }
    let out = Command::new(env!("CARGO_BIN_EXE_ssdlab")).args(&args).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let m: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let host = m["host_write_amplification"].as_f64().expect("host_write_amplification");
    let device = m["write_amplification"].as_f64().unwrap();
    assert!(host > 1.5 && (1.0..1.01).contains(&device), "host {host}, device {device}");
    let total = m["total_write_amplification"].as_f64().unwrap();
    assert!((total - host * device).abs() < 1e-9, "{total} against {host} x {device}");
    // Without a zoned drive the store is refused, naming it.
    let plain = Command::new(env!("CARGO_BIN_EXE_ssdlab"))
        .args(["run", "--drive", "s3700-200", "--seconds", "4", "--zone-store", "0.8"])
        .output()
        .unwrap();
    assert!(!plain.status.success());
    assert!(String::from_utf8_lossy(&plain.stderr).contains("zone_store: needs a zoned drive"));
}

/// An app from the command line: `--app lsm` or its object as JSON; the summary names it and,
/// for the LSM, its own write amplification (flush and compaction writes per byte put).
#[test]
fn an_app_runs_from_the_command_line_and_reports_its_own_writes() {
    let run = |app: &str| {
        let args = ["run", "--drive", "fdp-s3700-200", "--precondition", "none", "--seconds", "3", "--json"];
        Command::new(env!("CARGO_BIN_EXE_ssdlab")).args(args).args(["--app", app]).output().unwrap()
    };
    let out = run(r#"{"kind":"lsm","tagged":true,"scale":1024}"#);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let m: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((m["app"].as_str(), m["app_tagged"].as_bool()), (Some("lsm"), Some(true)));
    let (put, flushed) = (m["app_put_bytes"].as_f64().unwrap(), m["app_flush_write_bytes"].as_f64().unwrap());
    let compacted = m["app_compaction_write_bytes"].as_f64().unwrap();
    assert!(put > 0.0, "{m}");
    assert_eq!(m["lsm_write_amplification"].as_f64(), Some((flushed + compacted) / put));
    let cache = run("cache");
    assert!(cache.status.success(), "{}", String::from_utf8_lossy(&cache.stderr));
    let bad = run("btree");
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("app.kind: unknown app \"btree\" (allowed: cache or lsm)"));
}

/// A fio job file whose job moves its bytes before the seconds given (spdk
/// test/ftl/config/fio/randw-verify-depth128.fio: io_size=256M, no runtime, run for 5 s) ends
/// early: its steady state is taken from the seconds it ran, not from 70 % of those given, past
/// its end (the summary read "from 3 s: mean 0" for a 1 s run).
#[test]
fn a_fio_job_that_ends_early_takes_its_steady_state_from_the_seconds_it_ran() {
    let path = std::env::temp_dir().join(format!("ssdlab-early-{}.fio", std::process::id()));
    std::fs::write(&path, "[a]\nrw=write\nbs=1m\niodepth=8\nsize=256m\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_ssdlab"))
        .args(["run", "--drive", "s3700-200", "--seconds", "30", "--json", "--fio", path.to_str().unwrap()])
        .output()
        .unwrap();
    std::fs::remove_file(&path).ok();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let m: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let ran = m["sim_seconds"].as_f64().unwrap();
    let from = m["steady_from_s"].as_f64().unwrap();
    assert!(ran < 30.0 && from < ran, "steady state from {from} s of a {ran} s run");
    assert!(m["steady_iops_mean"].as_f64().unwrap() > 0.0, "{}", m);
}

/// `include NAME` in a job file (fio's HOWTO example including.fio: a [global] and a job each
/// pulling options from another file): read next to the file that names it, nested, its options
/// listed at the include line with their own place; a missing one is refused naming the line.
#[test]
fn a_job_files_includes_are_read_next_to_it() {
    let dir = std::env::temp_dir().join(format!("ssdlab-include-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("inc")).unwrap();
    std::fs::write(dir.join("job.fio"), "[global]\ninclude inc/glob.fio\n[a]\nrw=write\nbs=1m\nsize=64m\n").unwrap();
    std::fs::write(dir.join("inc/glob.fio"), "; shared\ninclude engine.fio\n").unwrap();
    std::fs::write(dir.join("inc/engine.fio"), "ioengine=libaio\niodepth=4\n").unwrap();
    std::fs::write(dir.join("missing.fio"), "[a]\nrw=write\ninclude nowhere.fio\n").unwrap();
    let run = |file: &str| {
        Command::new(env!("CARGO_BIN_EXE_ssdlab"))
            .args(["run", "--drive", "s3700-200", "--seconds", "5", "--json", "--fio"])
            .arg(dir.join(file))
            .output()
            .unwrap()
    };
    let (ok, missing) = (run("job.fio"), run("missing.fio"));
    std::fs::remove_dir_all(&dir).ok();
    let stderr = String::from_utf8_lossy(&ok.stderr);
    assert!(ok.status.success(), "{}", stderr);
    assert!(stderr.contains("line 2: ioengine=libaio (engine.fio line 1)"), "{}", stderr);
    let stderr = String::from_utf8_lossy(&missing.stderr);
    assert!(!missing.status.success());
    assert!(stderr.contains("missing.fio line 3: include nowhere.fio: cannot read"), "{}", stderr);
}
