//! Golden runs: every preset with every variant of every kind, as short runs on small drives
//! that reach garbage collection, must give exactly the results recorded in `golden/digests.txt`
//! (the per-second CSV as `ssdlab run --csv` writes it, the summary and every power cut's
//! report; a case may name later columns to cover too, as `columns`). A change of the model that is meant to change results re-records them:
//!
//!     SSDLAB_GOLDEN=record cargo test --release -p ssdlab-core --test integration golden::
//!
//! and the commit says why the numbers moved. A restructuring must leave them alone.

use std::fmt::Write as _;

use ssdlab_core::{Bench, RunRequest, Summary, FIELDS, FIELDS_V1};

const CASES: &str = include_str!("golden/cases.json");
const DIGESTS_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/digests.txt");

/// FNV-1a, 64 bits: enough to notice any changed byte, and no dependency.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

/// Everything a run reports, as text: CSV rows, the summary and the power-cut reports. The CSV
/// holds the columns recorded before the SLC cache's (`FIELDS_V1`), so those digests stand,
/// then the later columns the case names (`extra`).
fn results_text(request: &serde_json::Value, extra: &[&str]) -> String {
    let req = RunRequest::from_json(&request.to_string()).expect("golden case parses");
    let cfg = req.resolve().expect("golden case is valid");
    let seconds = cfg.seconds;
    let mut sim = Bench::new(cfg).expect("golden case builds");
    let samples = sim.run_to_end();
    let extra: Vec<usize> =
        extra.iter().map(|name| FIELDS.iter().position(|f| f == name).expect("a case's column is a field")).collect();
    let mut out = FIELDS_V1.iter().chain(extra.iter().map(|&i| &FIELDS[i])).copied().collect::<Vec<_>>().join(",");
    out.push('\n');
    for s in &samples {
        let columns = s.columns();
        let cells = columns[..FIELDS_V1.len()].iter().chain(extra.iter().map(|&i| &columns[i]));
        let row: Vec<String> = cells.map(|v| format!("{}", v)).collect();
        out.push_str(&row.join(","));
        out.push('\n');
    }
    let summary = Summary::from_samples(&samples, seconds * 7 / 10);
    out.push_str(&serde_json::to_string(&summary).expect("summary serialises"));
    out.push('\n');
    for c in sim.power_cuts() {
        writeln!(
            out,
            "cut at_ns={} acknowledged={:?} durable={:?} lost={} flushed={} needed_uj={} stored_uj={} rebuild_ms={}",
            c.at_ns,
            c.acknowledged,
            c.durable,
            c.acknowledged_writes_lost,
            c.flushed_units,
            c.energy_needed_uj,
            c.energy_stored_uj,
            c.rebuild_ms
        )
        .expect("write to a String");
    }
    out
}

#[test]
fn golden_runs_give_the_recorded_results() {
    let cases: Vec<serde_json::Value> = serde_json::from_str(CASES).expect("cases.json parses");
    let mut digests = String::new();
    for case in &cases {
        let name = case["name"].as_str().expect("case has a name");
        let extra: Vec<&str> =
            case["columns"].as_array().map_or(Vec::new(), |c| c.iter().filter_map(|v| v.as_str()).collect());
        let text = results_text(&case["request"], &extra);
        writeln!(digests, "{} {:016x}", name, fnv1a(text.as_bytes())).expect("write to a String");
    }
    if std::env::var("SSDLAB_GOLDEN").as_deref() == Ok("record") {
        std::fs::write(DIGESTS_PATH, &digests).expect("write digests");
        return;
    }
    let recorded = std::fs::read_to_string(DIGESTS_PATH).expect("golden/digests.txt (record it first)");
    let changed: Vec<&str> = digests
        .lines()
        .zip(recorded.lines())
        .filter(|(now, then)| now != then)
        .map(|(now, _)| now.split(' ').next().unwrap_or(now))
        .collect();
    assert_eq!(digests.lines().count(), recorded.lines().count(), "cases and recorded digests differ in number");
    assert!(changed.is_empty(), "results changed for: {}", changed.join(", "));
}
