//! Hosts that place data (issue 21, phase 7; docs/design/placement.md sections 4.3-4.5, 6.6): a
//! flash cache in CacheLib's style and an LSM tree, tagged or not, on a conventional drive with
//! FDP handles and, on a zoned drive, through the host's zone store.

use crate::common::{host_wa, placement_drive, store_drive, store_steady, MIB};
use ssdlab_core::config::{AppConfig, AppKind, Precondition, RunConfig, WorkloadSpec, ZoneStoreConfig};
use ssdlab_core::{presets, Bench, DriveConfig, RunRequest, Sample};

/// `app` as the one job (QD 8) on `drive`, from a secure erase.
fn app_run(drive: DriveConfig, app: AppConfig, seconds: u32) -> RunConfig {
    let mut cfg = RunConfig::new(drive, WorkloadSpec::by_id("random-write").unwrap(), seconds);
    (cfg.precondition, cfg.queue_depth) = (Precondition::None, 8);
    cfg.app = Some(app);
    cfg
}

/// `app_run` through a zone store at 0.8 on the store's zoned drive.
fn store_app_run(app: AppConfig, seconds: u32) -> RunConfig {
    let mut cfg = app_run(store_drive(), app, seconds);
    cfg.zone_store = Some(ZoneStoreConfig { utilisation: 0.8, free_zones: 2 });
    cfg
}

/// The cache with 4 MiB regions (the small drives hold ~80 of them).
fn cache(tagged: bool, host_op: f64, span_bytes: u64) -> AppConfig {
    AppConfig { tagged, host_op, region_bytes: 4 * MIB, ..AppConfig::new(AppKind::Cache, span_bytes) }
}

/// The LSM scaled by 256 (256 KiB files, half a block on each of the drive's two dies; L1 1
/// MiB), with as many keys as its files may hold in `span_bytes` (`AppConfig::lsm_bytes`).
fn lsm(tagged: bool, span_bytes: u64) -> AppConfig {
    let mut app = AppConfig { tagged, scale: 256, ..AppConfig::new(AppKind::Lsm, span_bytes) };
    let (mut lo, mut hi) = (1, span_bytes / app.value_bytes as u64);
    while lo < hi {
        app.keys = (lo + hi).div_ceil(2);
        if app.check(span_bytes).is_ok() {
            lo = app.keys;
        } else {
            hi = app.keys - 1;
        }
    }
    app.keys = lo;
    app
}

/// NAND writes per host write over the run's last half.
fn device_wa(samples: &[Sample]) -> f64 {
    let late = &samples[samples.len() / 2..];
    late.iter().map(|s| s.nand_writes).sum::<f64>() / late.iter().map(|s| s.host_writes).sum::<f64>()
}

#[test]
fn a_tagged_cache_keeps_device_wa_near_1_and_untagged_needs_host_over_provisioning() {
    // ~75 MB/s over 410 MB: 300 s is ~55 drive writes, the SOC rewritten ~70 times.
    let seconds = 300;
    let span = placement_drive(Some(4)).user_bytes;
    let mut tagged = Bench::new(app_run(placement_drive(Some(4)), cache(true, 0.0, span), seconds)).unwrap();
    let wa_tagged = device_wa(&tagged.run_to_end());
    tagged.drive().ftl().check_invariants().unwrap();
    let c = tagged.app_counters().expect("an app host");
    assert!(c.evictions > 0 && c.soc_write_bytes > 0, "both parts written: {c:?}");
    let untagged: Vec<f64> = [0.0, 0.25, 0.5]
        .iter()
        .map(|&op| {
            device_wa(
                &Bench::new(app_run(placement_drive(Some(4)), cache(false, op, span), seconds)).unwrap().run_to_end(),
            )
        })
        .collect();
    eprintln!("cache, device WA: tagged at 0 % host OP {wa_tagged:.4}; untagged at 0/25/50 % {untagged:.4?}");
    assert!(wa_tagged <= 1.05, "tagged at 0 % host OP: device WA {wa_tagged:.4}");
    assert!(untagged[0] > 1.1 * wa_tagged, "untagged {:.4} against tagged {wa_tagged:.4}", untagged[0]);
    assert!(untagged.windows(2).all(|w| w[1] < w[0]), "untagged falls as host OP grows: {untagged:.4?}");
}

#[test]
fn an_lsm_tagged_by_level_lowers_device_wa() {
    let seconds = 300;
    let span = placement_drive(Some(8)).user_bytes;
    let run = |tagged: bool| {
        let mut bench = Bench::new(app_run(placement_drive(Some(8)), lsm(tagged, span), seconds)).unwrap();
        let samples = bench.run_to_end();
        bench.drive().ftl().check_invariants().unwrap();
        let c = bench.app_counters().expect("an app host");
        // The commands carried the writes the LSM counted (less those drawn and not yet issued).
        let planned = c.flush_write_bytes + c.compaction_write_bytes;
        let host = bench.drive().counters().host_write_bytes;
        assert!(host <= planned && planned - host < planned / 100, "LSM wrote {planned}, the drive took {host}");
        (device_wa(&samples), c)
    };
    let (tagged, c) = run(true);
    let (untagged, _) = run(false);
    let lsm_wa = c.lsm_write_amplification();
    eprintln!(
        "LSM ({} MiB put): device WA tagged by level {tagged:.4}, untagged {untagged:.4}; the LSM's own WA {lsm_wa:.3} (flush {} MiB, compaction {} MiB written, {} MiB read)",
        c.put_bytes / MIB,
        c.flush_write_bytes / MIB,
        c.compaction_write_bytes / MIB,
        c.compaction_read_bytes / MIB
    );
    assert!(tagged * 1.03 < untagged, "tagged {tagged:.4}, untagged {untagged:.4}");
    // Leveled compaction rewrites each key once per level at least.
    assert!(lsm_wa > 3.0, "LSM WA {lsm_wa:.3}");
}

#[test]
fn both_hosts_through_a_zone_store_never_move_data_on_the_drive() {
    let span = store_drive().user_bytes * 4 / 5;
    let mut host = Vec::new();
    for (name, app) in [
        ("cache tagged", cache(true, 0.0, span)),
        ("cache untagged", cache(false, 0.0, span)),
        ("LSM tagged", lsm(true, span)),
        ("LSM untagged", lsm(false, span)),
    ] {
        let (late, bench) = store_steady(store_app_run(app, 200));
        let store = bench.zone_store().unwrap().counters();
        let last = bench.drive().counters();
        let s = late.last().unwrap();
        let (a, cl) = (store.app_write_bytes as f64, store.cleaner_write_bytes as f64);
        assert!(
            (s.host_write_amplification - (a + cl) / a).abs() < 1e-6,
            "{name}: the column {} is the store's {}",
            s.host_write_amplification,
            (a + cl) / a
        );
        let c = bench.app_counters().expect("the store's app host");
        eprintln!(
            "zone store, {name}: host WA {:.3} (steady), {:.3} (run), device: host {} MiB, NAND data {} MiB, {} GC moves; LSM WA {:.3}",
            host_wa(&late),
            s.host_write_amplification,
            last.host_write_bytes / MIB,
            (last.nand_write_bytes - last.map_write_bytes) / MIB,
            last.gc_moves,
            c.lsm_write_amplification()
        );
        host.push(host_wa(&late));
    }
    // The LOC's regions die whole in zones of their own: the cleaner copies less.
    assert!(host[0] < host[1], "cache host WA tagged {:.3}, untagged {:.3}", host[0], host[1]);
}

#[test]
fn an_app_is_checked_naming_the_field() {
    let span = placement_drive(None).user_bytes;
    let refused = |cfg: RunConfig| cfg.validate().expect_err("refused");
    let cache_on = |drive: DriveConfig, edit: fn(&mut AppConfig)| {
        let mut app = cache(true, 0.0, span);
        edit(&mut app);
        refused(app_run(drive, app, 10))
    };
    let none = cache_on(placement_drive(None), |_| {});
    assert_eq!(none.field, "app.tagged");
    assert!(none.message.contains("takes no placement handles"), "{}", none.message);
    let two = cache_on(placement_drive(Some(2)), |_| {});
    assert_eq!(
        (two.field.as_str(), two.message.as_str()),
        ("app.tagged", "a tagged cache uses handles 0 to 2: drive s3700-200 has 2 placement handles (0 to 1)")
    );
    let op = cache_on(placement_drive(Some(4)), |a| a.host_op = 0.6);
    assert_eq!(
        (op.field.as_str(), op.message.as_str()),
        ("app.host_op", "must be between 0 and 0.5 (CacheLib's \"upto 50%\") (got 0.6)")
    );
    assert_eq!(cache_on(placement_drive(Some(4)), |a| a.soc_space = 0.0).field, "app.soc_space");
    assert_eq!(cache_on(placement_drive(Some(4)), |a| a.soc_writes = 1.0).field, "app.soc_writes");
    assert_eq!(cache_on(placement_drive(Some(4)), |a| a.region_bytes = 512 * MIB).field, "app.region_bytes");
    let regions = cache_on(placement_drive(Some(4)), |a| a.region_bytes = 256 * MIB);
    assert!(regions.message.contains("at least 2 regions"), "{}", regions.message);
    let lsm_on = |edit: fn(&mut AppConfig)| {
        let mut app = lsm(false, span);
        edit(&mut app);
        refused(app_run(placement_drive(None), app, 10))
    };
    assert_eq!(lsm_on(|a| a.scale = 3).field, "app.scale");
    assert_eq!(lsm_on(|a| a.value_bytes = 8192).field, "app.value_bytes");
    let big = lsm_on(|a| a.keys += 1);
    assert_eq!(big.field, "app.keys");
    assert!(big.message.contains("fit the app's span"), "{}", big.message);
    let mut zoned = app_run(store_drive(), cache(false, 0.0, span), 10);
    assert_eq!(refused(zoned.clone()).field, "app");
    zoned.zone_store = Some(ZoneStoreConfig { utilisation: 0.8, free_zones: 2 });
    zoned.drive.zoned.as_mut().unwrap().max_open_zones = 3;
    zoned.app.as_mut().unwrap().tagged = true;
    let classes = refused(zoned);
    assert_eq!(classes.field, "app.tagged");
    assert!(classes.message.contains("tags 0 to 1"), "{}", classes.message);
    let mut threads = app_run(placement_drive(None), cache(false, 0.0, span), 10);
    threads.threads = 2;
    assert_eq!(refused(threads).field, "app");
}

#[test]
fn a_request_picks_the_app_and_its_errors_name_the_field() {
    let resolve = |app: &str| RunRequest::from_json(&format!(r#"{{"drive":"s3700-200","app":{app}}}"#))?.resolve();
    let field = |app: &str| resolve(app).unwrap_err().field;
    let e = resolve(r#"{"kind":"btree"}"#).unwrap_err();
    assert_eq!((e.field.as_str(), e.message.as_str()), ("app.kind", "unknown app \"btree\" (allowed: cache or lsm)"));
    assert_eq!(field(r#"{"tagged":true}"#), "app.kind");
    assert_eq!(field(r#"{"kind":"cache","colour":1}"#), "app.colour");
    let other = resolve(r#"{"kind":"cache","scale":64}"#).unwrap_err();
    assert_eq!(
        (other.field.as_str(), other.message.as_str()),
        ("app.scale", "applies to the lsm app only (got kind cache)")
    );
    assert_eq!(field(r#"{"kind":"cache","host_op":"lots"}"#), "app.host_op");
    assert_eq!(field(r#"{"kind":"cache","host_op":0.7}"#), "app.host_op");
    assert_eq!(field(r#"{"kind":"cache","tagged":true}"#), "app.tagged");
    assert_eq!(field(r#"{"kind":"cache","discard":false}"#), "app.discard");
    assert_eq!(field(r#"{"kind":"lsm","discard":"no"}"#), "app.discard");
    assert_eq!(field("3"), "app");
    let cfg = resolve(r#"{"kind":"cache","host_op":0.25,"region_bytes":33554432}"#).unwrap();
    let app = cfg.app.unwrap();
    assert_eq!((app.kind, app.host_op, app.region_bytes, app.tagged), (AppKind::Cache, 0.25, 32 * MIB, false));
    let fdp = RunRequest::from_json(
        r#"{"drive":"fdp-s3700-200","app":{"kind":"lsm","tagged":true,"scale":128,"discard":false}}"#,
    )
    .and_then(|r| r.resolve())
    .unwrap();
    let app = fdp.app.unwrap();
    assert_eq!((app.kind, app.tagged, app.scale, app.discard), (AppKind::Lsm, true, 128, false));
    assert_eq!(app.keys, fdp.host_units() * 4096 / 4 / 1024, "keys for a quarter of the span by default");
    let d = presets::by_id("s3700-200").unwrap();
    assert!(d.placement.is_none());
}
