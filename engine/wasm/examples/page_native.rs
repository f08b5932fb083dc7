//! The page worker's loop (web/src/engine/runner.ts: advance_inside, inside, latency_histogram
//! per slice) compiled natively, to tell the shell's own costs from wasm's. Prints its user CPU
//! time, and that of the steady state alone (the slices from the first to start at or after
//! second 1400), as `node scripts/bench-wasm.mjs SECONDS page` does for the wasm module.
//!   cargo run --release -p ssdlab-wasm --example page_native -- [seconds] [plain]
use ssdlab_wasm::Simulation;
use std::time::Instant;

const STEADY_FROM: u32 = 1400;

/// This process's user CPU time so far, s (Linux; 0 elsewhere).
fn user_cpu_s() -> f64 {
    // Field 14 of /proc/self/stat, in clock ticks (100 a second); the command name (field 2) may
    // hold spaces, so count from its closing parenthesis.
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    rest.split_whitespace().nth(11).and_then(|t| t.parse::<f64>().ok()).map_or(0.0, |t| t / 100.0)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seconds: u32 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(300);
    let plain = args.get(2).is_some_and(|a| a == "plain");
    let t0 = Instant::now();
    let Ok(mut sim) =
        Simulation::new(&format!(r#"{{"drive":"s3700-200","workload":"consistency","seconds":{seconds}}}"#))
    else {
        panic!("bad request")
    };
    let mut n = 0usize;
    let mut steady: Option<(u32, f64)> = None;
    while !sim.finished() {
        if steady.is_none() && sim.seconds_done() >= STEADY_FROM {
            steady = Some((sim.seconds_done(), user_cpu_s()));
        }
        if plain {
            n += sim.advance(200_000.0).len();
        } else {
            n += sim.advance_inside(200_000.0, u32::MAX).len();
            n += sim.inside().len();
            n += sim.latency_histogram().len();
        }
    }
    let user = user_cpu_s();
    let steady = steady.map_or(String::new(), |(from, at)| format!(", from second {from}: {:.2} s user", user - at));
    println!("{:.3} s wall, {user:.2} s user{steady} ({n} values)", t0.elapsed().as_secs_f64());
}
