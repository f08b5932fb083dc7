//! The page worker's loop (web/src/engine/runner.ts: advance_inside, inside, latency_histogram
//! per slice) compiled natively, to tell the shell's own costs from wasm's.
//!   cargo run --release -p ssdlab-wasm --example page_native -- [seconds] [plain]
use ssdlab_wasm::Simulation;
use std::time::Instant;

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
    while !sim.finished() {
        if plain {
            n += sim.advance(200_000.0).len();
        } else {
            n += sim.advance_inside(200_000.0, u32::MAX).len();
            n += sim.inside().len();
            n += sim.latency_histogram().len();
        }
    }
    println!("{:.3} s wall ({n} values)", t0.elapsed().as_secs_f64());
}
