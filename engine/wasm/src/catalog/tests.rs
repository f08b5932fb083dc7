#![allow(clippy::unwrap_used)]
use super::*;
use crate::json;
use ssdlab_core::config::{MODELS, WORKLOADS};

#[cfg(feature = "full")]
const SMALL: &str = r#""set":{"geometry.blocks_per_plane":64,"user_bytes":6000000000,"gc.start_free_blocks":6,
    "gc.boost_below_free_blocks":3,"gc.boost_until_free_blocks":5,"gc.background_free_blocks":8}"#;

#[cfg(feature = "full")]
fn fio_request(job: &str) -> String {
    format!(r#"{{"drive":"s3700-200",{},"fio":{}}}"#, SMALL, serde_json::Value::String(job.into()))
}

/// The page lists every preset; the zoned ones with their zone parameters (the page runs them
/// through the host's zone store), the FDP one with its handles.
#[test]
fn the_page_lists_every_drive_with_its_zones_and_handles() {
    let drives = json(&presets());
    let by_id = |id: &str| drives.as_array().unwrap().iter().find(|d| d["id"] == id).cloned().unwrap();
    assert_eq!(drives.as_array().unwrap().len(), ssdlab_core::config::presets::presets().len());
    let zn = by_id("zn540-small");
    assert_eq!(zn["parameters"]["zoned.max_open_zones"], 14);
    assert_eq!(by_id("fdp-s3700-200")["parameters"]["placement.handles"], 8);
    assert!(by_id("s3700-200")["parameters"].get("zoned.max_open_zones").is_none());
}

#[test]
fn lists_what_the_page_builds_its_controls_from() {
    let drives = json(&presets());
    assert_eq!(drives[0]["parameters"]["gc.pacing"], "consistency-first");
    assert_eq!(drives[0]["parameters"]["geometry.dies"], 33);
    let names: Vec<String> =
        json(&workloads()).as_array().unwrap().iter().map(|w| w["id"].as_str().unwrap().into()).collect();
    assert_eq!(names.len(), WORKLOADS.len() + MODELS.len());
    assert!(names.contains(&"hot-cold".to_string()));
    assert!(names.contains(&"storage-bench-2011-heavy".to_string()));
    let fields = json(&run_request_fields());
    for key in ["workload", "queue_depth", "block_bytes", "power_cuts_s", "trim_fraction", "set"] {
        assert!(fields.get(key).is_some(), "{key}");
    }
}

#[test]
fn checks_a_request_and_names_the_bad_field() {
    assert_eq!(json(&check_request(r#"{"drive":"s3700-200"}"#))["ok"], true);
    let bad = json(&check_request(r#"{"drive":"s3700-200","set":{"gc.paced_percent":5}}"#));
    assert_eq!(bad["ok"], false);
    assert_eq!(bad["field"], "gc.paced_percent");
    assert!(bad["message"].as_str().unwrap().contains("between 10 and 1000"));
    // Half-KiB compression slots on the P3700 would need more memory than wasm32 has.
    let big = json(&check_request(
        r#"{"drive":"p3700-400","set":{"controller.compression":true,"controller.compression_slot_bytes":512}}"#,
    ));
    assert_eq!(big["field"], "controller.compression_slot_bytes");
    assert!(big["message"].as_str().unwrap().contains("GB"), "{}", big["message"]);
    assert_eq!(json(&check_request(r#"{"drive":"s3700-200","set":{"controller.compression":true}}"#))["ok"], true);
}

#[test]
#[cfg(feature = "full")]
fn gives_a_runs_published_figures_with_their_verdicts() {
    let request = r#"{"drive":"s3700-200","seconds":2000}"#;
    let before = json(&evidence(request, &[], &[], &[], &[]));
    let figures = before["figures"].as_array().unwrap();
    let slowest = figures.iter().find(|f| f["measure"] == "min" && f["seconds"] == 2000).unwrap();
    assert_eq!((slowest["published"].as_f64(), slowest["not_comparable"].is_null()), (Some(29150.0), true));
    assert!(slowest["simulated"].is_null());

    let iops = vec![31_000.0; 2000];
    let after = json(&evidence(request, &iops, &[], &[], &[]));
    let slowest = after["figures"].as_array().unwrap().iter().find(|f| f["measure"] == "min").unwrap();
    assert_eq!((slowest["simulated"].as_f64(), slowest["holds"].as_bool()), (Some(31000.0), Some(true)));

    let half = json(&evidence(r#"{"drive":"s3700-200","span":0.5}"#, &[], &[], &[], &[]));
    let slowest = half["figures"].as_array().unwrap().iter().find(|f| f["measure"] == "min").unwrap();
    assert!(slowest["not_comparable"].as_str().unwrap().starts_with("spare area"), "{}", slowest);
    assert_eq!(json(&evidence(r#"{"drive":"nope"}"#, &[], &[], &[], &[]))["field"], "drive");
}

#[test]
#[cfg(feature = "full")]
fn imports_a_fio_job_file_and_reports_what_it_cannot_honour() {
    let job = "[global]\nioengine=libaio\nverify=md5\nruntime=3\ntime_based\n[w]\nrw=randwrite\niodepth=8\n";
    let v = json(&fio_import(&fio_request(job)));
    assert_eq!(v["ok"], true, "{}", v);
    assert_eq!(v["seconds"], 3);
    assert_eq!(v["phases"][0]["jobs"][0]["queue_depth"], 8);
    assert_eq!(v["ignored"][0]["line"], 2);
    assert_eq!(v["unsupported"][0]["option"], "verify=md5");
    let bad = json(&fio_import(&fio_request("[w]\nrw=randwrite\nbs=4x\n")));
    assert_eq!(bad["ok"], false);
    assert_eq!(bad["field"], "fio");
    assert!(bad["message"].as_str().unwrap().starts_with("line 3: bs=4x: '4x' is not a size"), "{}", bad);
    let none = json(&fio_import(r#"{"drive":"s3700-200"}"#));
    assert_eq!(none["field"], "fio");
    let clash = json(&fio_import(&fio_request("[w]\n").replace("\"fio\"", "\"queue_depth\":4,\"fio\"")));
    assert_eq!(clash["field"], "queue_depth");
}

#[test]
#[cfg(feature = "full")]
fn summarises_a_dropped_trace_and_names_a_bad_line() {
    let text = "fio version 3 iolog\n10 /dev/sdb add\n20 /dev/sdb open\n100 /dev/sdb write 0 4096\n\
                1100 /dev/sdb read 4096 8192\n2100 /dev/sdb read 0 4096\n3100 /dev/sdb trim 0 4096\n";
    let s = json(&trace_summary(text, "", "dropped.log"));
    assert_eq!(s["ok"], true, "{s}");
    assert_eq!(s["format"], "fio-v3");
    assert_eq!(s["name"], "dropped.log");
    assert_eq!(s["records"], 4);
    assert_eq!(s["duration_s"], 0.003);
    assert_eq!((s["reads"].as_u64(), s["writes"].as_u64(), s["trims"].as_u64()), (Some(2), Some(1), Some(1)));
    assert_eq!(s["read_share"], 0.5);
    assert_eq!(s["skipped"][1]["what"], "file add/open/close lines");
    assert_eq!(s["skipped"][1]["count"], 2);
    assert!(s["text"].as_str().unwrap().contains("skipped 1 header lines, 2 file add/open/close lines"), "{s}");

    let bad = json(&trace_summary(&text.replace("1100 /dev/sdb read", "1100 /dev/sdb reed"), "", ""));
    assert_eq!(bad["ok"], false);
    assert_eq!(bad["field"], "trace");
    assert!(bad["message"].as_str().unwrap().starts_with("line 5: expected an action read"), "{bad}");
    let unknown = json(&trace_summary("hello\n", "", ""));
    assert!(unknown["message"].as_str().unwrap().contains("blkparse"), "{unknown}");
    let wrong = json(&trace_summary(text, "tar", ""));
    assert_eq!(wrong["field"], "trace.format");
}

/// The page offers the formats with the detection's guess, read or not, so a trace whose
/// unit the detection cannot know (DiskSim's columns in ms or in MQSim's ns) can be named.
#[test]
#[cfg(feature = "full")]
fn a_trace_answer_offers_the_formats_and_the_guess() {
    let ms = "0 0 1234 8 1\n3 0 99 8 0\n12 1 5000 16 1\n";
    let detected = json(&trace_summary(ms, "", ""));
    assert_eq!(
        (&detected["format"], &detected["detected"], &detected["time_unit"]),
        (&"disksim".into(), &"disksim".into(), &"ms".into())
    );
    let named = json(&trace_summary(ms, "disksim-ns", ""));
    assert_eq!((&named["format"], &named["detected"]), (&"disksim-ns".into(), &"disksim".into()));
    assert!(
        named["text"].as_str().unwrap().contains("(disksim-ns, TIME read as ns): 3 commands over 0.000 s"),
        "{named}"
    );
    let unknown = json(&trace_summary("hello\n", "", ""));
    assert_eq!((&unknown["ok"], &unknown["detected"]), (&false.into(), &serde_json::Value::Null));
    let names: Vec<&str> = unknown["formats"].as_array().unwrap().iter().map(|f| f[0].as_str().unwrap()).collect();
    assert_eq!(names, ["msr", "blkparse", "disksim", "disksim-ns", "fio-v2", "fio-v3"]);
}

/// The first module (`--no-default-features`) refuses what only the full one runs, naming
/// the field, so the page can tell why.
#[test]
#[cfg(not(feature = "full"))]
fn the_first_module_refuses_fio_job_files_and_traces() {
    for (field, value) in
        [("fio", serde_json::json!("[w]\nrw=randwrite\n")), ("trace", serde_json::json!({"text": "0 0 0 8 0\n"}))]
    {
        let request = serde_json::json!({ "drive": "s3700-200", field: value }).to_string();
        let e = json(&check_request(&request));
        assert_eq!(e["field"], field);
        assert!(e["message"].as_str().unwrap().contains("full module"), "{e}");
    }
}

#[test]
fn describes_every_parameter_with_what_it_accepts() {
    let info = json(&parameter_info("s3700-200"));
    let list = info.as_array().unwrap();
    let drive = &json(&presets())[0];
    assert_eq!(list.len(), drive["parameters"].as_object().unwrap().len());
    let find = |path: &str| list.iter().find(|p| p["path"] == path).unwrap().clone();
    let paced = find("gc.paced_percent");
    assert_eq!(
        (paced["kind"].as_str(), paced["min"].as_f64(), paced["max"].as_f64()),
        (Some("whole"), Some(10.0), Some(1000.0))
    );
    assert_eq!(paced["range"], "must be between 10 and 1000");
    assert_eq!(find("gc.pacing")["choices"], serde_json::json!(["consistency-first", "lazy"]));
    assert!(find("gc.victim")["choices"].as_array().unwrap().len() >= 4);
    assert_eq!(find("power.capacitors")["kind"], "bool");
    assert_eq!(find("name")["kind"], "text");
    assert_eq!(parameter_info("nope"), "[]");
}

/// The presets carry no sources (the first module leaves their text out); the full module
/// answers for them, path by path.
#[test]
fn sources_are_asked_apart_from_the_presets() {
    for drive in json(&presets()).as_array().unwrap() {
        assert_eq!(drive.get("sources"), None, "{}", drive["id"]);
    }
    #[cfg(feature = "full")]
    {
        let sources = json(&preset_sources("s3700-200"));
        assert!(sources["geometry.dies"].as_str().unwrap().contains("33 dies"));
        assert_eq!(sources.as_object().unwrap().len(), presets::sources("s3700-200").unwrap().len());
        assert_eq!(preset_sources("nope"), "{}");
    }
}

/// What the page shows of each number's limits is what the engine enforces: the table the
/// drive's check reads, for every parameter of every preset; a parameter without a limit is
/// a whole number, 0 or more, or a real the engine accepts anywhere.
#[test]
fn reports_the_limits_the_engine_checks_for_every_parameter() {
    use ssdlab_core::config::limits::Bound;
    let mut refused_in_words = 0;
    for drive in presets::all() {
        let info = json(&parameter_info(&drive.id));
        let limits = drive.limits();
        let mut limited = 0;
        for p in info.as_array().unwrap() {
            let path = p["path"].as_str().unwrap();
            match limits.iter().find(|l| l.path == path) {
                Some(l) => {
                    limited += 1;
                    assert_eq!(p["min"].as_f64(), Some(l.min.as_f64()), "{path}");
                    assert_eq!(p["max"].as_f64(), Some(l.max.as_f64()), "{path}");
                    assert_eq!(p["range"].as_str(), Some(l.words().as_str()), "{path}");
                    let whole = matches!(l.value, Bound::Whole(_));
                    assert_eq!(p["kind"], if whole { "whole" } else { "number" }, "{path}");
                    // The engine refuses the number just beyond with the same words.
                    let (beyond, said) = match l.max {
                        Bound::Whole(n) => (serde_json::json!(n + 1), Bound::Whole(n + 1)),
                        Bound::Real(x) => (serde_json::json!(x + 1.0), Bound::Real(x + 1.0)),
                    };
                    let request = serde_json::json!({ "drive": drive.id, "set": { path: beyond } });
                    let e = json(&check_request(&request.to_string()));
                    assert_eq!(e["ok"], false, "{}: {path} = {beyond}", drive.id);
                    if e["field"] == path {
                        assert_eq!(e["message"], format!("{} (got {})", l.words(), said), "{}", drive.id);
                        refused_in_words += 1;
                    }
                }
                None if p["kind"] == "whole" => {
                    assert_eq!((p["min"].as_f64(), p["max"].as_f64()), (Some(0.0), None), "{path}")
                }
                None => assert_eq!((&p["min"], &p["max"]), (&serde_json::Value::Null, &serde_json::Value::Null)),
            }
        }
        assert_eq!(limited, limits.len(), "{}: every limit is a parameter's", drive.id);
    }
    assert!(refused_in_words > 200, "{refused_in_words}");
}

/// The recoveries' defaults the page shows are the ones a request without them runs.
#[test]
fn lists_the_recoveries_defaults_a_request_without_them_runs() {
    use ssdlab_core::experiment::ExperimentRequest;
    let list = json(&experiments());
    let listed = |id: &str| list.as_array().unwrap().iter().find(|e| e["id"] == id).cloned().unwrap();
    let plan = |id: &str| {
        ExperimentRequest::from_json(&format!(r#"{{"experiment":"{id}","drive":"870qvo-1000"}}"#))
            .unwrap()
            .plan()
            .unwrap()
            .1
    };
    let rests = |id: &str| {
        let mut r: Vec<u64> =
            plan(id).iter().map(|p| p.labels.iter().find(|l| l.0 == "rest_s").unwrap().1.as_u64().unwrap()).collect();
        r.sort_unstable();
        r.dedup();
        serde_json::json!(r)
    };
    // Each recovery its own: idle-recovery a run a rest, dirty-recovery rested and trimmed.
    for id in ["idle-recovery", "dirty-recovery"] {
        assert_eq!(rests(id), listed(id)["rest_seconds"], "{id}");
    }
    let dirty = plan("dirty-recovery").into_iter().find(|p| p.labels.iter().any(|l| l.1 == "dirty")).unwrap();
    let listed_dirty_ns = listed("dirty-recovery")["dirty_seconds"].as_u64().unwrap() * 1_000_000_000;
    assert_eq!(dirty.cfg.phases[0].runtime_ns, listed_dirty_ns);
}

/// The recoveries' limits and states the page checks its fields against are the ones a request
/// is checked against: each end accepted, one beyond refused at its field, every state planned.
#[test]
fn lists_the_recoveries_limits_and_states_a_request_is_checked_against() {
    use ssdlab_core::experiment::ExperimentRequest;
    let list = json(&experiments());
    let dirty = list.as_array().unwrap().iter().find(|e| e["id"] == "dirty-recovery").cloned().unwrap();
    let limits = &dirty["limits"];
    let plan = |id: &str, extra: serde_json::Value| {
        let mut request = serde_json::json!({ "experiment": id, "drive": "870qvo-1000" });
        request.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        ExperimentRequest::from_json(&request.to_string()).and_then(|r| r.plan().map(|p| p.1))
    };
    let refused_at = |id: &str, extra: serde_json::Value| plan(id, extra).err().map(|e| e.field);
    let ends = |k: &str| (limits[k]["min"].as_u64().unwrap(), limits[k]["max"].as_u64().unwrap());

    let (lo, hi) = ends("rests");
    for n in [lo, hi] {
        assert!(
            plan("dirty-recovery", serde_json::json!({ "rest_seconds": vec![1; n as usize] })).is_ok(),
            "{n} rests"
        );
    }
    for n in [lo - 1, hi + 1] {
        let field = refused_at("dirty-recovery", serde_json::json!({ "rest_seconds": vec![1; n as usize] }));
        assert_eq!(field.as_deref(), Some("rest_seconds (how many)"), "{n} rests");
    }
    let (lo, hi) = ends("rest_seconds");
    assert!(plan("dirty-recovery", serde_json::json!({ "rest_seconds": [lo, hi] })).is_ok());
    assert_eq!(
        refused_at("dirty-recovery", serde_json::json!({ "rest_seconds": [hi + 1] })).as_deref(),
        Some("rest_seconds")
    );
    let (lo, hi) = ends("dirty_seconds");
    assert!(plan("dirty-recovery", serde_json::json!({ "dirty_seconds": lo })).is_ok());
    assert!(plan("dirty-recovery", serde_json::json!({ "dirty_seconds": hi })).is_ok());
    for s in [lo - 1, hi + 1] {
        assert_eq!(
            refused_at("dirty-recovery", serde_json::json!({ "dirty_seconds": s })).as_deref(),
            Some("dirty_seconds")
        );
    }
    let (lo, hi) = (limits["gb"]["min"].as_f64().unwrap(), limits["gb"]["max"].as_f64().unwrap());
    for field in ["write_gb", "then_gb"] {
        // Within the range the writes must still fit the drive and be 1 MiB or more: refused,
        // but not by the range.
        for gb in [lo, hi] {
            let e = plan("idle-recovery", serde_json::json!({ field: gb })).err().map(|e| e.message);
            assert!(!e.as_deref().unwrap_or("").starts_with("must be between"), "{field} = {gb}: {e:?}");
        }
        assert_eq!(refused_at("idle-recovery", serde_json::json!({ field: hi * 1.01 })).as_deref(), Some(field));
        assert_eq!(refused_at("idle-recovery", serde_json::json!({ field: lo - 0.01 })).as_deref(), Some(field));
    }
    // Every listed state is measured when asked for alone, and nothing else is accepted.
    for state in dirty["states"].as_array().unwrap() {
        let rows = plan("dirty-recovery", serde_json::json!({ "states": [state] })).unwrap();
        assert!(rows.iter().all(|p| p.labels.iter().any(|l| l.0 == "state" && &l.1 == state)), "{state}");
    }
    assert_eq!(refused_at("dirty-recovery", serde_json::json!({ "states": ["clean"] })).as_deref(), Some("states"));
}
