//! Heat: a run's own temperature and throttle columns, on a small M390 made to heat in seconds
//! (its heat capacity cut to 1 J/K, a hot case): the throttle enters at the threshold, holds the
//! host to its speed, and leaves only once the drive is `hysteresis_c` cooler.

use serde_json::json;
use ssdlab_core::{Bench, RunRequest, Sample};

const THRESHOLD_C: f64 = 78.0;
const HYSTERESIS_C: f64 = 5.0;
const CAP_MB_S: f64 = 40.0;

/// 1 MiB sequential writes at QD1 for 60 s from a secure erase, as the golden case
/// `thermal-m390-throttle` runs them.
fn hot_m390(cooling: &str) -> Vec<Sample> {
    let request = json!({
        "drive": "m390-1000",
        "seconds": 60,
        "seed": 7,
        "workload": "sequential-write",
        "queue_depth": 1,
        "block_bytes": 1_048_576,
        "precondition": "none",
        "set": {
            "geometry.blocks_per_plane": 64,
            "user_bytes": 30_000_001_024u64,
            "gc.start_free_blocks": 6,
            "gc.boost_below_free_blocks": 3,
            "gc.boost_until_free_blocks": 5,
            "gc.background_free_blocks": 8,
            "slc_cache.dynamic_max_bytes": 2_000_000_000u64,
            "thermal.cooling": cooling,
            "thermal.ambient_c": 55.0,
            "thermal.heat_capacity_j_per_k": 1.0,
            "thermal.hysteresis_c": HYSTERESIS_C,
        }
    });
    let cfg = RunRequest::from_json(&request.to_string()).unwrap().resolve().unwrap();
    let throttle = cfg.drive.thermal.as_ref().unwrap();
    assert_eq!((throttle.throttle_above_c[0] as f64, throttle.throttle_mb_s[0] as f64), (THRESHOLD_C, CAP_MB_S));
    Bench::new(cfg).unwrap().run_to_end()
}

#[test]
fn uncooled_the_drive_heats_throttles_to_its_cap_and_recovers_with_hysteresis() {
    let bare = hot_m390("bare");
    let first = bare.iter().position(|s| s.throttle_step > 0).expect("the uncooled drive throttles");
    // Writing heats it, every second, until the threshold.
    assert!(first > 1, "{first}");
    assert!(bare[..=first].windows(2).all(|w| w[1].temperature_c > w[0].temperature_c));
    assert!(bare[first].temperature_c >= THRESHOLD_C && bare[first - 1].temperature_c < THRESHOLD_C);
    let (mut entries, mut exits, mut held) = (0, 0, 0);
    for w in bare.windows(2) {
        let (before, after) = (&w[0], &w[1]);
        match (before.throttle_step, after.throttle_step) {
            (0, 1) => {
                entries += 1;
                assert!(after.temperature_c >= THRESHOLD_C, "second {}", after.second);
            }
            (1, 0) => {
                exits += 1;
                assert!(after.temperature_c < THRESHOLD_C - HYSTERESIS_C, "second {}", after.second);
            }
            (1, 1) => {
                // A whole second throttled: the cooling drive is held above the hysteresis...
                assert!(after.temperature_c >= THRESHOLD_C - HYSTERESIS_C, "second {}", after.second);
                assert!(after.temperature_c < before.temperature_c, "second {}", after.second);
                // ...and the host to the cap (a command booked before it may finish inside).
                assert!(after.mb_s <= CAP_MB_S + 1.1 && after.mb_s > 0.9 * CAP_MB_S, "{}", after.mb_s);
                held += 1;
            }
            (0, 0) => assert!(after.mb_s > 10.0 * CAP_MB_S, "second {}: {}", after.second, after.mb_s),
            other => panic!("one step only: {:?}", other),
        }
    }
    assert!(entries >= 2 && exits >= 1 && held >= 4, "{entries} {exits} {held}");

    // A fan carries the same power away at a lower temperature: it never throttles.
    let fan = hot_m390("fan");
    assert!(fan.iter().all(|s| s.throttle_step == 0 && s.temperature_c < THRESHOLD_C));
    let written = |run: &[Sample]| run.iter().map(|s| s.mb_s).sum::<f64>();
    assert!(written(&fan) > 2.0 * written(&bare), "{} vs {}", written(&fan), written(&bare));
}
