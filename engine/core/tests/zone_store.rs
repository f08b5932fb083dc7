//! A host log-structured store on a zoned drive (issue 21, phase 6): the app's writes appended to
//! zones, a greedy cleaner copying the live data out of the emptiest full zone and resetting it.
//! Under uniform random overwrites the host's write amplification is greedy's mean-field figure
//! with the zone as the block, and the drive never moves data (docs/design/placement.md, 6.5);
//! hot and cold data in zones of their own clean less than mixed (6.4).

use crate::common::{host_wa, store_drive as zoned_drive, store_steady as steady, MIB, STORE_ZONES};
use ssdlab_core::config::{Placement, Precondition, RunConfig, WorkloadSpec, ZoneStoreConfig};
use ssdlab_core::drive::ftl::victim::greedy_wa_theory;
use ssdlab_core::{presets, Bench, RunRequest, Sample};

/// Zones on the drive below, and 4 KiB units in each zone's capacity.
const ZONES: u64 = STORE_ZONES;
const ZONE_UNITS: u64 = 256;

/// `workload`'s one job (4 KiB writes at QD 8) writing through a zone store at `utilisation`.
fn store_run(workload: &str, utilisation: f64, tagged: bool, seconds: u32) -> RunConfig {
    let mut cfg = RunConfig::new(zoned_drive(), WorkloadSpec::by_id(workload).unwrap(), seconds);
    (cfg.precondition, cfg.queue_depth) = (Precondition::None, 8);
    cfg.zone_store = Some(ZoneStoreConfig { utilisation, free_zones: 2 });
    if tagged {
        // Hot data (the first zone of the distribution) in class 0, cold in class 1.
        cfg.phases = cfg.plan();
        cfg.phases[0].jobs[0].placement = Placement::ByZone(vec![0, 1]);
    }
    cfg
}

#[test]
fn uniform_overwrites_clean_at_greedys_figure_and_the_drive_moves_nothing() {
    let utilisation = 0.8;
    let (late, bench) = steady(store_run("random-write", utilisation, false, 300));
    let app_units = (ZONES * ZONE_UNITS) as f64 * utilisation;
    let figure = greedy_wa_theory(app_units / (ZONES * ZONE_UNITS) as f64);
    let wa = host_wa(&late);
    let c = bench.drive().counters();
    let app_written: f64 = late.iter().map(|s| s.app_mb_s).sum::<f64>() * 1e6 / 4096.0;
    eprintln!(
        "zone store, uniform at {utilisation}: host WA {wa:.3} over {:.1} app spans, greedy figure {figure:.3}; device: host {} MiB, NAND {} MiB ({} MiB map), {} GC moves",
        app_written / app_units,
        c.host_write_bytes / MIB,
        c.nand_write_bytes / MIB,
        c.map_write_bytes / MIB,
        c.gc_moves
    );
    assert!(app_written > 3.0 * app_units, "steady state measured over {app_written} units written");
    assert!((wa / figure - 1.0).abs() <= 0.05, "host WA {wa:.3}, greedy's figure {figure:.3}");
}

#[test]
fn the_columns_add_up_to_the_counters() {
    let mut bench = Bench::new(store_run("random-write", 0.8, false, 60)).unwrap();
    let samples = bench.run_to_end();
    let store = bench.zone_store().unwrap().counters();
    let c = bench.drive().counters();
    let sum = |f: fn(&Sample) -> f64| samples.iter().map(f).sum::<f64>();
    let bytes = |mb: f64| (mb * 1e6).round() as u64;
    assert!(store.cleaner_write_bytes > 0 && store.resets > 0, "the cleaner ran: {store:?}");
    assert_eq!(bytes(sum(|s| s.app_mb_s)), store.app_write_bytes);
    assert_eq!(bytes(sum(|s| s.cleaner_mb_s)), store.cleaner_write_bytes);
    assert_eq!(sum(|s| s.zone_resets as f64) as u64, c.zone_resets);
    assert_eq!(c.zone_resets, store.resets);
    // Every host write is the app's or the cleaner's.
    assert_eq!((sum(|s| s.host_writes) * 4096.0).round() as u64, store.app_write_bytes + store.cleaner_write_bytes);
    let last = samples.last().unwrap();
    let (app, cleaner) = (store.app_write_bytes as f64, store.cleaner_write_bytes as f64);
    assert!((last.host_write_amplification - (app + cleaner) / app).abs() < 1e-9, "{}", last.host_write_amplification);
    assert_eq!(last.total_write_amplification, last.host_write_amplification * last.write_amplification);
    let zones = bench.drive().zones().unwrap();
    assert_eq!((last.open_zones, last.active_zones), (zones.open_zones(), zones.active_zones()));
    assert_eq!(last.full_zones, zones.full_zones());
    assert!(last.full_zones > ZONES as u32 / 2 && last.active_zones <= 2, "{last:?}");
}

#[test]
fn a_drive_without_a_host_cleaner_shows_host_wa_1() {
    let mut d = zoned_drive();
    d.zoned = None;
    let mut cfg = RunConfig::new(d, WorkloadSpec::by_id("random-write").unwrap(), 20);
    cfg.span = 0.5;
    let samples = Bench::new(cfg).unwrap().run_to_end();
    assert!(samples.iter().map(|s| s.gc_moves).sum::<u32>() > 0, "GC ran");
    for s in &samples {
        assert_eq!((s.host_write_amplification, s.cleaner_mb_s, s.zone_resets, s.full_zones), (1.0, 0.0, 0, 0));
        assert!((s.app_mb_s - s.mb_s).abs() < 1e-9, "every write the app's: {} of {}", s.app_mb_s, s.mb_s);
        assert_eq!(s.total_write_amplification, s.write_amplification);
    }
}

#[test]
fn hot_and_cold_in_zones_of_their_own_clean_less_than_mixed() {
    let seconds = 400;
    let (tagged, _) = steady(store_run("hot-cold", 0.8, true, seconds));
    let (mixed, _) = steady(store_run("hot-cold", 0.8, false, seconds));
    let (tagged, mixed) = (host_wa(&tagged), host_wa(&mixed));
    eprintln!("zone store, hot/cold 90/10 at 0.8: host WA tagged {tagged:.3}, untagged {mixed:.3}");
    assert!(tagged < mixed, "tagged {tagged:.3}, untagged {mixed:.3}");
}

#[test]
fn a_zone_store_is_checked_naming_the_field() {
    let refused = |edit: fn(&mut RunConfig)| {
        let mut cfg = store_run("random-write", 0.8, false, 10);
        edit(&mut cfg);
        cfg.validate().expect_err("refused")
    };
    let conventional = refused(|c| c.drive.zoned = None);
    assert_eq!(conventional.field, "zone_store");
    assert!(conventional.message.contains("needs a zoned drive"), "{}", conventional.message);
    // 400 zones less 2 free, 2 open and one spare: 395.
    let full = refused(|c| c.zone_store.as_mut().unwrap().utilisation = 0.99);
    assert_eq!(
        (full.field.as_str(), full.message.as_str()),
        (
            "zone_store.utilisation",
            "must be between 0.01 and 0.98 (400 zones less 2 free, 2 open and one spare, of 400) (got 0.99)"
        )
    );
    assert_eq!(refused(|c| c.zone_store.as_mut().unwrap().free_zones = 0).field, "zone_store.free_zones");
    let reads = refused(|c| c.workload = WorkloadSpec::by_id("mixed-70-30").unwrap());
    assert_eq!(reads.field, "phases[0].jobs[0] (mixed-70-30).read_percent");
    assert_eq!(refused(|c| c.threads = 2).field, "zone_store");
    // Four open zones: three classes and the cleaner's.
    let classes = refused(|c| {
        c.phases = c.plan();
        c.phases[0].jobs[0].placement = Placement::Handle(3);
    });
    assert_eq!(classes.field, "phases[0].jobs[0] (random-write).placement");
    assert!(classes.message.contains("tags 0 to 2"), "{}", classes.message);
    let big = refused(|c| c.block_bytes = 256 << 10);
    assert_eq!(big.field, "phases[0].jobs[0] (random-write).write_sizes");
}

#[test]
fn a_request_picks_the_store_and_its_errors_name_the_field() {
    let bad = |json: &str| RunRequest::from_json(json).and_then(|r| r.resolve()).unwrap_err();
    let base = r#""drive":"s3700-200","precondition":"none","workload":"hot-cold""#;
    let e = bad(&format!(r#"{{{base},"zone_store":{{"utilisation":0.8,"colour":1}}}}"#));
    assert_eq!(e.field, "zone_store.colour");
    let e = bad(&format!(r#"{{{base},"zone_store":{{"utilisation":0.8,"classes":"warm"}}}}"#));
    assert_eq!(
        (e.field.as_str(), e.message.as_str()),
        ("zone_store.classes", "must be one or temperature (got \"warm\")")
    );
    assert_eq!(bad(&format!(r#"{{{base},"zone_store":{{"free_zones":2}}}}"#)).field, "zone_store.utilisation");
    assert_eq!(bad(&format!(r#"{{{base},"zone_store":{{"utilisation":0.8}}}}"#)).field, "zone_store");
    // On the S3700 made zoned (its [zoned] section given whole with set: zones of one block on
    // each die, 400 of them): temperature tags hot and cold apart.
    let d = presets::by_id("s3700-200").unwrap();
    let zone_bytes = d.geometry.units_per_block() as u64 * 4096 * d.geometry.dies as u64;
    let zoned = serde_json::json!({
        "zone_bytes": zone_bytes, "zone_capacity_bytes": zone_bytes, "zone_dies": d.geometry.dies,
        "max_open_zones": 4, "max_active_zones": 4, "append_max_bytes": 131072
    });
    let request = |store: &str, workload: &str| {
        format!(
            r#"{{"drive":"s3700-200","precondition":"none","workload":"{workload}","set":{{"user_bytes":{},"zoned":{zoned}}},"zone_store":{store}}}"#,
            ZONES * zone_bytes
        )
    };
    let cfg = RunRequest::from_json(&request(r#"{"utilisation":0.5,"classes":"temperature"}"#, "hot-cold"))
        .and_then(|r| r.resolve())
        .unwrap();
    assert_eq!(cfg.zone_store, Some(ZoneStoreConfig { utilisation: 0.5, free_zones: 2 }));
    assert_eq!(cfg.phases[0].jobs[0].placement, Placement::ByZone(vec![0, 1]));
    assert_eq!(cfg.host_units(), ZONES * zone_bytes / 4096 / 2, "the app's span");
    let uniform =
        RunRequest::from_json(&request(r#"{"utilisation":0.5,"classes":"temperature"}"#, "random-write")).unwrap();
    assert_eq!(uniform.resolve().unwrap_err().field, "zone_store.classes");
}
