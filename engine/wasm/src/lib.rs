//! wasm-bindgen shell over `ssdlab-core`: one `Simulation` handle for the browser worker, plus
//! what the page needs to build its controls from the engine (drives, their parameters, the
//! workloads and the run-request fields), so new engine options show up without page changes.
//! Every error crosses as a JS `Error` whose message names the field and its allowed range;
//! nothing here unwraps on input from the page.
#![deny(clippy::unwrap_used, clippy::expect_used)]

use std::cell::RefCell;
use std::rc::Rc;

use ssdlab_core::bench::fio::FioRecorder;
use ssdlab_core::bench::power_cuts_json;
use ssdlab_core::config::{parameter_paths, WORKLOADS};
use ssdlab_core::drive::ftl::{victim, Ftl};
use ssdlab_core::host::fio::FioJobFile;
use ssdlab_core::{presets, Bench, ConfigError, DriveConfig, RunConfig, RunRequest, Sample, FIELDS};
use wasm_bindgen::prelude::*;

/// The drive presets as JSON: `[{id, name, interface, raw_bytes, user_bytes, advertised_bytes,
/// spec_random_write_iops, parameters}]`; `parameters` maps every settable path (as
/// `ssdlab params` lists them) to the preset's value.
#[wasm_bindgen]
pub fn presets() -> String {
    let list: Vec<serde_json::Value> = presets::all()
        .into_iter()
        .map(|d| {
            serde_json::json!({
                "id": d.id,
                "name": d.name,
                "interface": d.host.name,
                "raw_bytes": d.geometry.raw_bytes(),
                "user_bytes": d.user_bytes,
                "advertised_bytes": d.advertised_bytes,
                "spec_random_write_iops": d.spec_random_write_iops,
                "parameters": parameters(&d),
            })
        })
        .collect();
    serde_json::Value::Array(list).to_string()
}

/// The workloads as JSON: `[{id, description, block_bytes, queue_depth, read_percent,
/// trim_percent}]` (block_bytes and queue_depth are the workload's defaults).
#[wasm_bindgen]
pub fn workloads() -> String {
    let list: Vec<serde_json::Value> = WORKLOADS
        .iter()
        .map(|w| {
            serde_json::json!({
                "id": w.id,
                "description": w.description,
                "block_bytes": w.block_bytes,
                "queue_depth": w.queue_depth,
                "read_percent": w.read_percent,
                "trim_percent": w.trim_percent,
            })
        })
        .collect();
    serde_json::Value::Array(list).to_string()
}

/// The GC victim policies as JSON: `[{id, description}]` (`gc.victim` takes the id).
#[wasm_bindgen]
pub fn victim_policies() -> String {
    let list: Vec<serde_json::Value> = victim::POLICIES
        .iter()
        .map(|(id, description)| serde_json::json!({ "id": id, "description": description }))
        .collect();
    serde_json::Value::Array(list).to_string()
}

/// Every field a run request accepts, with its default, as a JSON object (`set` is `{}`), so
/// the page can offer a field only when this engine knows it.
#[wasm_bindgen]
pub fn run_request_fields() -> String {
    let Some(first) = presets::all().into_iter().next() else { return "{}".into() };
    let minimal = serde_json::json!({ "drive": first.id }).to_string();
    RunRequest::from_json(&minimal).ok().and_then(|r| serde_json::to_string(&r).ok()).unwrap_or_else(|| "{}".into())
}

/// Checks a JSON run request without building the drive: `{"ok":true}`, or
/// `{"ok":false,"field":...,"message":...}` naming what is wrong and what is allowed.
#[wasm_bindgen]
pub fn check_request(config_json: &str) -> String {
    match resolve(config_json) {
        Ok(_) => serde_json::json!({ "ok": true }),
        Err(e) => serde_json::json!({ "ok": false, "field": e.field, "message": e.message }),
    }
    .to_string()
}

/// Reads the fio job file of a JSON run request (`{"drive":...,"fio":"[global]\\n..."}`) for
/// that drive: `{"ok":true,"seconds":N,"phases":[{name, runtime_s, ramp_s, jobs:[...]}],
/// "ignored":[{line, option, message}],"unsupported":[...],"notes":[...]}` (ignored: no effect
/// on the drive's workload; unsupported: cannot be honoured, the run goes on without them), or
/// `{"ok":false,"field":...,"message":...}` (a malformed line is named in the message).
#[wasm_bindgen]
pub fn fio_import(config_json: &str) -> String {
    let imported = resolve_with_fio(config_json).and_then(|(cfg, file)| match file {
        Some(f) => Ok((cfg, f)),
        None => Err(ConfigError::new("fio", "is required: the text of a fio job file")),
    });
    match imported {
        Ok((cfg, file)) => {
            let mut v = file.to_json();
            v["ok"] = true.into();
            v["seconds"] = cfg.seconds.into();
            v
        }
        Err(e) => serde_json::json!({ "ok": false, "field": e.field, "message": e.message }),
    }
    .to_string()
}

/// Names of the sample columns, as JSON, in the order `Simulation::advance` returns them.
#[wasm_bindgen]
pub fn sample_fields() -> String {
    serde_json::to_string(&FIELDS).unwrap_or_else(|_| "[]".into())
}

/// The model's tables the browser engine will build at most: wasm32 memory ends at 4 GiB, and
/// the allocator and the page need some of it.
const BROWSER_TABLE_LIMIT_BYTES: u64 = 2560 << 20;

fn resolve(config_json: &str) -> Result<RunConfig, ConfigError> {
    resolve_with_fio(config_json).map(|(cfg, _)| cfg)
}

fn resolve_with_fio(config_json: &str) -> Result<(RunConfig, Option<FioJobFile>), ConfigError> {
    let (cfg, fio) = RunRequest::from_json(config_json).and_then(|r| r.resolve_with_fio())?;
    let tables = Ftl::table_bytes(&cfg.drive);
    if tables > BROWSER_TABLE_LIMIT_BYTES {
        let field = if cfg.drive.controller.compression { "controller.compression_slot_bytes" } else { "user_bytes" };
        return Err(ConfigError::new(
            field,
            format!(
                "this drive's mapping tables need {:.1} GB; the browser engine holds at most {:.1} GB \
                 (use larger compression slots or a smaller drive, or run it with the ssdlab CLI)",
                tables as f64 / 1e9,
                BROWSER_TABLE_LIMIT_BYTES as f64 / 1e9
            ),
        ));
    }
    Ok((cfg, fio))
}

/// Path -> value for every settable parameter of a drive.
fn parameters(drive: &DriveConfig) -> serde_json::Value {
    let tree = serde_json::to_value(drive).unwrap_or_default();
    let map: serde_json::Map<String, serde_json::Value> = parameter_paths(drive)
        .into_iter()
        .map(|path| {
            let pointer = format!("/{}", path.replace('.', "/"));
            let value = tree.pointer(&pointer).cloned().unwrap_or_default();
            (path, value)
        })
        .collect();
    serde_json::Value::Object(map)
}

#[wasm_bindgen]
pub struct Simulation {
    sim: Bench,
    samples: Vec<Sample>,
    /// With a fio job file: fio's statistics and logs of the run.
    fio: Option<Rc<RefCell<FioRecorder>>>,
}

#[wasm_bindgen]
impl Simulation {
    /// Builds a drive from a JSON run request, e.g.
    /// `{"drive":"s3700-200","workload":"consistency","seconds":2000,"span":1.0,"seed":1}`.
    #[wasm_bindgen(constructor)]
    pub fn new(config_json: &str) -> Result<Simulation, JsError> {
        let (cfg, file) = resolve_with_fio(config_json).map_err(|e| JsError::new(&e.to_string()))?;
        let mut sim = Bench::new(cfg).map_err(|e| JsError::new(&e.to_string()))?;
        let fio = file.map(|f| {
            let (recorder, observer) = FioRecorder::shared(&f);
            sim.observe(observer);
            recorder
        });
        Ok(Simulation { sim, samples: Vec::new(), fio })
    }

    /// Processes up to `max_ios` host IOs and returns the seconds completed meanwhile,
    /// column-major: `sample_fields().length` columns of n rows each.
    pub fn advance(&mut self, max_ios: f64) -> Vec<f64> {
        let max_ios = if max_ios.is_finite() && max_ios >= 1.0 { max_ios as u64 } else { 1 };
        self.samples.clear();
        self.sim.advance(max_ios, &mut self.samples);
        let n = self.samples.len();
        let mut out = vec![0.0; n * FIELDS.len()];
        for (row, s) in self.samples.iter().enumerate() {
            for (col, v) in s.columns().iter().enumerate() {
                out[col * n + row] = *v;
            }
        }
        out
    }

    pub fn seconds_done(&self) -> u32 {
        self.sim.seconds_done()
    }

    pub fn finished(&self) -> bool {
        self.sim.finished()
    }

    /// Bytes of memory the engine occupies in the browser: the whole wasm linear memory (which
    /// never shrinks), not just the model's tables. On other targets, the model's own count.
    pub fn memory_bytes(&self) -> f64 {
        #[cfg(target_arch = "wasm32")]
        return (core::arch::wasm32::memory_size(0) * 65536) as f64;
        #[cfg(not(target_arch = "wasm32"))]
        return self.sim.memory_bytes() as f64;
    }

    /// Raw NAND bytes of the drive being simulated (for bytes-per-4-KiB figures).
    pub fn raw_bytes(&self) -> f64 {
        self.sim.config().drive.geometry.raw_bytes() as f64
    }

    /// The drive this run simulates, after the request's overrides: path -> value, as JSON.
    pub fn parameters_json(&self) -> String {
        parameters(&self.sim.config().drive).to_string()
    }

    /// What each power cut so far did, as JSON: `[{at_s, acknowledged_writes_lost,
    /// writes_at_risk, flushed_units, energy_needed_uj, energy_stored_uj, rebuild_ms}]`
    /// (the fields of `ssdlab run --json`'s `power_cuts`).
    pub fn power_cuts_json(&self) -> String {
        power_cuts_json(self.sim.power_cuts()).to_string()
    }

    /// With a fio job file: the results in fio's `--output-format=json` layout (complete once
    /// `finished()`; before that, what has been counted so far); `null` without one.
    pub fn fio_json(&mut self) -> String {
        self.finish_fio();
        self.fio.as_ref().map_or_else(|| "null".into(), |r| r.borrow().json().to_string())
    }

    /// With a fio job file: the log text written since the last call, as JSON `{"NAME_iops.1.log":
    /// "1000, 31000, 1, 0, 0\n...", ...}` (files named as fio names them; append each call's text).
    pub fn fio_logs(&mut self) -> String {
        self.finish_fio();
        let logs: serde_json::Map<String, serde_json::Value> = self
            .fio
            .as_ref()
            .map(|r| r.borrow_mut().take_logs().into_iter().map(|(k, v)| (k, v.into())).collect())
            .unwrap_or_default();
        serde_json::Value::Object(logs).to_string()
    }
}

impl Simulation {
    /// Once the run is over, the commands still in flight are counted.
    fn finish_fio(&mut self) {
        if let (Some(r), true) = (&self.fio, self.sim.finished()) {
            r.borrow_mut().finish();
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn json(s: &str) -> serde_json::Value {
        serde_json::from_str(s).unwrap()
    }

    #[test]
    fn lists_what_the_page_builds_its_controls_from() {
        let drives = json(&presets());
        assert_eq!(drives[0]["parameters"]["gc.pacing"], "consistency-first");
        assert_eq!(drives[0]["parameters"]["geometry.dies"], 33);
        let names: Vec<String> =
            json(&workloads()).as_array().unwrap().iter().map(|w| w["id"].as_str().unwrap().into()).collect();
        assert_eq!(names.len(), WORKLOADS.len());
        assert!(names.contains(&"hot-cold".to_string()));
        let policies = json(&victim_policies());
        assert!(policies.as_array().unwrap().iter().any(|p| p["id"] == "d-choices"));
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

    const SMALL: &str = r#""set":{"geometry.blocks_per_plane":64,"user_bytes":6000000000,"gc.start_free_blocks":6,
        "gc.boost_below_free_blocks":3,"gc.boost_until_free_blocks":5,"gc.background_free_blocks":8}"#;

    fn fio_request(job: &str) -> String {
        format!(r#"{{"drive":"s3700-200",{},"fio":{}}}"#, SMALL, serde_json::Value::String(job.into()))
    }

    #[test]
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
    fn a_fio_run_gives_fio_json_and_logs() {
        let job = "[w]\nioengine=libaio\nrw=randwrite\niodepth=16\nruntime=2\ntime_based\nwrite_iops_log=w\n\
                   log_avg_msec=500\n";
        let mut sim = Simulation::new(&fio_request(job)).unwrap();
        let mut logs = String::new();
        while !sim.finished() {
            sim.advance(20_000.0);
            logs += json(&sim.fio_logs())["w_iops.1.log"].as_str().unwrap_or("");
        }
        let results = ssdlab_core::bench::fio::read_json(&sim.fio_json()).unwrap();
        let write = &results.jobs[0].dirs[1];
        assert!(write.iops > 1000.0 && (2000..2010).contains(&write.runtime_ms), "{:?}", write);
        let rows = ssdlab_core::bench::fio::read_log(&logs).unwrap();
        assert_eq!(rows.iter().map(|r| r.time_ms).collect::<Vec<_>>(), vec![500, 1000, 1500, 2000]);
        assert!(rows.iter().all(|r| r.ddir == 1 && r.value > 0));
        let plain = Simulation::new(r#"{"drive":"s3700-200","seconds":1}"#);
        assert_eq!(plain.unwrap().fio_json(), "null");
    }

    #[test]
    fn reports_power_cuts_and_the_resolved_drive() {
        let request = r#"{"drive":"s3700-200","seconds":3,"power_cuts_s":[1.5],
            "set":{"geometry.blocks_per_plane":64,"user_bytes":6000000000,"gc.start_free_blocks":6,
                   "gc.boost_below_free_blocks":3,"gc.boost_until_free_blocks":5,"gc.background_free_blocks":8}}"#;
        let mut sim = Simulation::new(request).unwrap();
        while !sim.finished() {
            sim.advance(1e6);
        }
        let cuts = json(&sim.power_cuts_json());
        assert_eq!(cuts.as_array().unwrap().len(), 1);
        assert_eq!(cuts[0]["at_s"], 1.5);
        assert_eq!(cuts[0]["acknowledged_writes_lost"], 0);
        assert!(cuts[0]["rebuild_ms"].as_f64().unwrap() > 0.0);
        assert_eq!(json(&sim.parameters_json())["geometry.blocks_per_plane"], 64);
    }
}
