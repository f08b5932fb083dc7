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
