//! The calibration targets (engine/core/calibration.toml) are sound data, and the short ones
//! hold: every figure the model claims to reproduce is checked here, on the full-size preset or,
//! for datasheet steady states, on the scaled drive preconditioned with random writes; the long
//! ones (2000 s consistency runs) are in tests/presets.rs and tests/s3700_consistency.rs.

use ssdlab_core::experiment::calibrate::{calibrate, measure, measure_columns, targets, Columns, Target};
use ssdlab_core::experiment::calibrated;
use ssdlab_core::{Bench, RunRequest};

#[test]
fn every_target_names_a_preset_a_run_that_resolves_and_a_known_measure() {
    let all = targets();
    // Seconds of a short real run, only to exercise each measure.
    let samples = Bench::new(small()).unwrap().run_to_end();
    assert!(all.len() >= 70, "{} targets", all.len());
    for t in &all {
        t.config().unwrap_or_else(|e| panic!("{} {}: {}", t.drive, t.figure, e));
        if let Some(c) = t.compared() {
            c.config().unwrap_or_else(|e| panic!("{} {} (compare_run): {}", t.drive, t.figure, e));
        }
        assert_eq!(t.measure == "latency_ratio", t.compare_run.is_some(), "{} {}", t.drive, t.figure);
        assert!(!t.source.is_empty() && t.source.contains(['[', ' ']), "{} {}: no source", t.drive, t.figure);
        assert!(t.target.is_some() || t.min.is_some() || t.max.is_some(), "{} {}: no target", t.drive, t.figure);
        measure(t, &samples).unwrap_or_else(|e| panic!("{} {}: {}", t.drive, t.figure, e));
    }
}

/// A fill's mean speed is its bytes over the time it took: a last second it covered in part
/// (a fill ends inside it) counts by its share, as the CLI's summary and the page's stats do.
#[test]
fn the_fill_mean_counts_a_partial_last_second_by_its_share() {
    let t = targets().into_iter().find(|t| t.measure == "fill_mean_mb_s").unwrap();
    let mut cfg = small();
    cfg.seconds = 1;
    let sample = Bench::new(cfg).unwrap().run_to_end()[0];
    // 1 GB in each of two whole seconds, then 0.5 GB in half a second: 1000 MB/s.
    let gb = 1e9 / 4096.0;
    let seconds: Vec<_> = [(gb, 1.0), (gb, 1.0), (gb / 2.0, 0.5)]
        .map(|(host_writes, second_covered)| ssdlab_core::Sample { host_writes, second_covered, ..sample })
        .to_vec();
    let mean = measure(&t, &seconds).unwrap();
    assert!((mean - 1000.0).abs() < 1e-6, "{mean}");
    // Columns without the shares (a table's): every second whole.
    let host = seconds.iter().map(|s| s.host_writes).collect::<Vec<_>>();
    let whole = measure_columns(&t, Columns { iops: &[0.0; 3], host_writes: &host, ..Columns::default() }).unwrap();
    assert!((whole - 2500.0 / 3.0).abs() < 1e-6, "{whole}");
}

/// A 30-second consistency run of a small S3700.
fn small() -> ssdlab_core::RunConfig {
    let mut r = RunRequest::from_json(r#"{"drive":"s3700-200","seconds":30}"#).unwrap();
    r.set.insert("geometry.blocks_per_plane".into(), 128.into());
    r.set.insert("user_bytes".into(), 12_500_000_768u64.into());
    r.set.insert("gc.start_free_blocks".into(), 6.into());
    r.set.insert("gc.boost_below_free_blocks".into(), 3.into());
    r.set.insert("gc.boost_until_free_blocks".into(), 5.into());
    r.resolve().unwrap()
}

fn seconds(t: &Target) -> u64 {
    t.run.get("seconds").and_then(|v| v.as_u64()).unwrap_or(2000)
}

/// Queue-depth, spec-sheet and RAID figures: a few seconds of the full-size drive.
fn short(t: &Target) -> bool {
    seconds(t) <= 10 && t.scaled.is_none()
}

/// Datasheet steady states of big drives: the scaled drive, preconditioned with random writes.
fn steady_from_random_writes(t: &Target) -> bool {
    seconds(t) <= 20 && t.run.get("precondition").and_then(|v| v.as_str()) == Some("random")
}

/// Every target `only` picks holds, or is a known miss that still misses.
fn check(only: &dyn Fn(&Target) -> bool, at_least: usize) {
    let mut failures = Vec::new();
    let outcomes = calibrate(only, &mut |_| {}).unwrap();
    assert!(outcomes.len() >= at_least, "{} targets", outcomes.len());
    for o in &outcomes {
        let t = &o.target;
        match (&t.miss, o.holds) {
            (None, false) => {
                failures.push(format!("{} {}: {} against {}", t.drive, t.figure, o.simulated, t.expected()))
            }
            // A known miss that now holds: the data should say so (remove its `miss`).
            (Some(_), true) => failures.push(format!("{} {}: now holds ({})", t.drive, t.figure, o.simulated)),
            _ => {}
        }
    }
    assert!(failures.is_empty(), "{:#?}", failures);
}

#[test]
fn the_short_figures_the_model_claims_hold_and_its_known_misses_still_miss() {
    check(&short, 30);
}

#[test]
fn datasheet_steady_random_writes_hold_where_the_controller_limits_them() {
    // S3700 100-800 GB, S3500, P3700 (IOPS and QD128 latency), 910, P420m: ~70 s in all.
    check(&steady_from_random_writes, 9);
}

/// The page's "how close is the model" and docs/CALIBRATION.md's table are read from the saved
/// outcomes (`ssdlab calibrate --save public/calibration.json`): it must hold every target of
/// calibration.toml, as it is now, and the doc's table must be the one printed from it.
#[test]
fn the_saved_calibration_and_the_docs_table_have_every_target_of_calibration_toml() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let read = |path: &str| std::fs::read_to_string(root.join(path)).unwrap_or_else(|e| panic!("{}: {}", path, e));
    let saved = calibrated::parse(&read(calibrated::SAVED_PATH)).unwrap();
    assert_eq!(calibrated::differences(&saved), Vec::<String>::new());
    assert!(
        read("docs/CALIBRATION.md").contains(&calibrated::markdown(&saved)),
        "docs/CALIBRATION.md: its table is not `ssdlab calibrate --from {} --markdown`",
        calibrated::SAVED_PATH
    );
}
