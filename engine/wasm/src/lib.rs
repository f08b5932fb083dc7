//! wasm-bindgen shell over `ssdlab-core`: one `Simulation` handle for the browser worker, plus
//! what the page needs to build its controls from the engine (drives, their parameters, the
//! workloads and the run-request fields), so new engine options show up without page changes.
//! Every error crosses as a JS `Error` whose message names the field and its allowed range;
//! nothing here unwraps on input from the page.
#![deny(clippy::unwrap_used, clippy::expect_used)]

#[cfg(feature = "full")]
use std::cell::RefCell;
#[cfg(feature = "full")]
use std::rc::Rc;

#[cfg(feature = "full")]
use ssdlab_core::bench::fio::FioRecorder;
use ssdlab_core::bench::{power_cuts_json, table_bytes_bound};
use ssdlab_core::config::{apply_parameters, parameter_paths, WorkloadSpec};
use ssdlab_core::drive::ftl::victim;
use ssdlab_core::drive::Drive;
use ssdlab_core::experiment::EXPERIMENTS;
#[cfg(feature = "full")]
use ssdlab_core::experiment::{ExperimentRequest, Runner};
#[cfg(feature = "full")]
use ssdlab_core::host::fio::FioJobFile;
#[cfg(feature = "full")]
use ssdlab_core::host::trace::FORMATS;
#[cfg(feature = "full")]
use ssdlab_core::request::TraceRequest;
use ssdlab_core::{presets, Bench, ConfigError, DriveConfig, RunConfig, RunRequest, Sample, FIELDS};
use wasm_bindgen::prelude::*;

/// The drive presets as JSON: `[{id, name, interface, raw_bytes, user_bytes, advertised_bytes,
/// spec_random_write_iops, parameters, sources}]`; `parameters` maps every settable path (as
/// `ssdlab params` lists them) to the preset's value, `sources` a path to where its value comes
/// from (`ssdlab presets --sources`).
#[wasm_bindgen]
pub fn presets() -> String {
    let list: Vec<serde_json::Value> = presets::presets()
        .iter()
        .map(|p| {
            let d = &p.drive;
            serde_json::json!({
                "id": d.id,
                "name": d.name,
                "interface": d.host.name,
                "raw_bytes": d.geometry.raw_bytes(),
                "user_bytes": d.user_bytes,
                "advertised_bytes": d.advertised_bytes,
                "spec_random_write_iops": d.spec_random_write_iops,
                "parameters": parameters(d),
                "sources": p.sources,
            })
        })
        .collect();
    serde_json::Value::Array(list).to_string()
}

/// The workloads as JSON: `[{id, description, block_bytes, queue_depth, read_percent,
/// trim_percent, model}]` (block_bytes and queue_depth are the workload's defaults; `model`:
/// a model of an application trace, which sets its own sizes and depths, so a request with it
/// leaves them out).
#[wasm_bindgen]
pub fn workloads() -> String {
    let list: Vec<serde_json::Value> = WorkloadSpec::all()
        .map(|w| {
            serde_json::json!({
                "id": w.id,
                "description": w.description,
                "block_bytes": w.block_bytes,
                "queue_depth": w.queue_depth,
                "read_percent": w.read_percent,
                "trim_percent": w.trim_percent,
                "model": w.is_model(),
            })
        })
        .collect();
    serde_json::Value::Array(list).to_string()
}

/// The GC victim policies as JSON: `[{id, description}]` (`gc.victim` takes the id).
#[cfg(feature = "full")]
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

/// Each sample column's name, unit and meaning, as JSON: `[{name, unit, description}]`.
#[cfg(feature = "full")]
#[wasm_bindgen]
pub fn sample_fields_info() -> String {
    let list: Vec<serde_json::Value> = ssdlab_core::bench::FIELD_INFO
        .iter()
        .map(|(name, unit, description)| serde_json::json!({ "name": name, "unit": unit, "description": description }))
        .collect();
    serde_json::Value::Array(list).to_string()
}

/// Reads a dropped trace file and says what it holds, as JSON: `{"ok":true, "name", "format",
/// "records", "duration_s", "reads", "writes", "trims", "read_bytes", "write_bytes",
/// "read_share", "write_share", "trim_share", "skipped":[{"what","count"}], "text"}`, or
/// `{"ok":false,"field":"trace","message":"line 12: expected ..."}`. `format` is a name from
/// `trace_formats()`, or empty to detect it.
#[cfg(feature = "full")]
#[wasm_bindgen]
pub fn trace_summary(text: &str, format: &str, name: &str) -> String {
    let request = TraceRequest {
        text: text.to_string(),
        format: (!format.trim().is_empty()).then(|| format.to_string()),
        name: if name.is_empty() { "trace".into() } else { name.to_string() },
        closed_loop: false,
        time_scale: 1.0,
    };
    match request.load() {
        Ok(loaded) => {
            let s = loaded.summary();
            let share = |n: u64| n as f64 / s.records.max(1) as f64;
            let mut v = serde_json::to_value(&s).unwrap_or_default();
            v["ok"] = true.into();
            v["read_share"] = share(s.reads).into();
            v["write_share"] = share(s.writes).into();
            v["trim_share"] = share(s.trims).into();
            v["text"] = s.to_string().into();
            v
        }
        Err(e) => serde_json::json!({ "ok": false, "field": e.field, "message": e.message }),
    }
    .to_string()
}

/// Reads the fio job file of a JSON run request (`{"drive":...,"fio":"[global]\\n..."}`) for
/// that drive: `{"ok":true,"seconds":N,"phases":[{name, runtime_s, ramp_s, jobs:[...]}],
/// "ignored":[{line, option, message}],"unsupported":[...],"notes":[...]}` (ignored: no effect
/// on the drive's workload; unsupported: cannot be honoured, the run goes on without them), or
/// `{"ok":false,"field":...,"message":...}` (a malformed line is named in the message).
#[cfg(feature = "full")]
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

/// The trace formats as JSON: `[{id, description}]` (a trace request's `format` takes the id).
#[cfg(feature = "full")]
#[wasm_bindgen]
pub fn trace_formats() -> String {
    let list: Vec<serde_json::Value> = FORMATS
        .iter()
        .map(|(_, id, description)| serde_json::json!({ "id": id, "description": description }))
        .collect();
    serde_json::Value::Array(list).to_string()
}

/// Names of the sample columns, as JSON, in the order `Simulation::advance` returns them.
#[wasm_bindgen]
pub fn sample_fields() -> String {
    serde_json::to_string(&FIELDS[..]).unwrap_or_else(|_| "[]".into())
}

/// Every parameter of a preset with what it accepts, as JSON: `[{path, value, kind, range,
/// min, max, choices}]`. `kind` is `whole`, `number`, `bool`, `name` (one of `choices`) or
/// `text`; `range` is the engine's own words for a number's limits ("must be between 2 and
/// 1024"), found by asking the engine to check a value far out of range, so the limits stay
/// where they are checked; `min`/`max` are its numbers (null when it names none).
#[wasm_bindgen]
pub fn parameter_info(drive: &str) -> String {
    let Ok(preset) = presets::by_id(drive) else { return "[]".into() };
    let tree = serde_json::to_value(&preset).unwrap_or_default();
    let list: Vec<serde_json::Value> = parameter_paths(&preset)
        .into_iter()
        .map(|path| {
            let value = tree.pointer(&format!("/{}", path.replace('.', "/"))).cloned().unwrap_or_default();
            // The engine's objection to `probe` at this path, without its "(got ...)".
            let refusal = |probe: serde_json::Value| match apply_parameters(&preset, [(path.as_str(), probe)]) {
                Err(e) if e.field == path => {
                    Some(e.message.rsplit_once(" (got ").map_or(e.message.clone(), |(m, _)| m.to_string()))
                }
                _ => None,
            };
            let mut info = serde_json::json!({ "path": path, "value": value, "range": null, "min": null, "max": null });
            let kind = match &value {
                serde_json::Value::Bool(_) => "bool",
                serde_json::Value::Number(n) => {
                    let whole = !n.is_f64();
                    let (high, low) = if whole {
                        (serde_json::json!(u32::MAX), serde_json::json!(0))
                    } else {
                        (serde_json::json!(1e15), serde_json::json!(-1e15))
                    };
                    if let Some(range) = refusal(high).or_else(|| refusal(low)) {
                        if let Some((min, max)) = between(&range) {
                            info["min"] = min.into();
                            info["max"] = max.into();
                        }
                        info["range"] = range.into();
                    } else if whole {
                        info["min"] = 0.into();
                        info["range"] = "must be 0 or more".into();
                    }
                    if whole {
                        "whole"
                    } else {
                        "number"
                    }
                }
                serde_json::Value::String(_) if path == "gc.victim" => {
                    info["choices"] = victim::POLICIES.iter().map(|(id, _)| *id).collect::<Vec<_>>().into();
                    "name"
                }
                serde_json::Value::String(_) => match refusal("?".into()).as_deref().and_then(variants) {
                    Some(choices) => {
                        info["choices"] = choices.into();
                        "name"
                    }
                    None => "text",
                },
                _ => "text",
            };
            info["kind"] = kind.into();
            info
        })
        .collect();
    serde_json::Value::Array(list).to_string()
}

/// (A, B) from "must be between A and B ...".
fn between(message: &str) -> Option<(f64, f64)> {
    let (_, rest) = message.split_once("between ")?;
    let (a, b) = rest.split_once(" and ")?;
    let number = |t: &str| t.split_whitespace().next()?.trim_end_matches([',', ')']).parse::<f64>().ok();
    Some((number(a)?, number(b)?))
}

/// The names serde lists in "unknown variant `?`, expected one of `a`, `b`".
fn variants(message: &str) -> Option<Vec<String>> {
    let (_, rest) = message.split_once("expected ")?;
    let names: Vec<String> = rest.split('`').skip(1).step_by(2).map(str::to_string).collect();
    (!names.is_empty()).then_some(names)
}

/// The model's tables the browser engine will build at most: wasm32 memory ends at 4 GiB, and
/// the allocator and the page need some of it.
const BROWSER_TABLE_LIMIT_BYTES: u64 = 2560 << 20;

fn resolve(config_json: &str) -> Result<RunConfig, ConfigError> {
    let cfg = RunRequest::from_json(config_json).and_then(|r| r.resolve())?;
    fits_the_browser(&cfg)?;
    Ok(cfg)
}

#[cfg(feature = "full")]
fn resolve_with_fio(config_json: &str) -> Result<(RunConfig, Option<FioJobFile>), ConfigError> {
    let (cfg, fio) = RunRequest::from_json(config_json).and_then(|r| r.resolve_with_fio())?;
    fits_the_browser(&cfg)?;
    Ok((cfg, fio))
}

/// Whether the run's mapping tables fit the browser engine's memory.
fn fits_the_browser(cfg: &RunConfig) -> Result<(), ConfigError> {
    let tables = table_bytes_bound(cfg);
    if tables > BROWSER_TABLE_LIMIT_BYTES {
        let (field, remedy) = if cfg.drive.controller.compression {
            ("controller.compression_slot_bytes", "use larger compression slots or a smaller drive")
        } else {
            ("seconds", "a shorter run rewrites less of the drive; or test a smaller span")
        };
        return Err(ConfigError::new(
            field,
            format!(
                "this run's mapping tables could grow to {:.1} GB; the browser engine holds at most {:.1} GB \
                 ({}, or run it with the ssdlab CLI)",
                tables as f64 / 1e9,
                BROWSER_TABLE_LIMIT_BYTES as f64 / 1e9,
                remedy
            ),
        ));
    }
    Ok(())
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

/// The drive, or each member of the array, in order.
fn drives(sim: &Bench) -> &[Drive] {
    sim.members().unwrap_or(std::slice::from_ref(sim.drive()))
}

/// Each die's busy time so far, die-major, 6 kinds per die (member after member).
fn busy_flat(sim: &Bench) -> Vec<u64> {
    drives(sim).iter().flat_map(|d| d.die_busy_ns().iter().flat_map(|die| die.iter().copied())).collect()
}

/// A count from the page: at least 1, whatever arrives.
fn whole(x: f64) -> u64 {
    if x.is_finite() && x >= 1.0 {
        x as u64
    } else {
        1
    }
}

#[wasm_bindgen]
pub struct Simulation {
    sim: Bench,
    samples: Vec<Sample>,
    /// With a fio job file: fio's statistics and logs of the run.
    #[cfg(feature = "full")]
    fio: Option<Rc<RefCell<FioRecorder>>>,
    /// `inside()` rows of the last `advance_inside`, and the dies' busy time at the last cut.
    inside: Vec<f64>,
    busy_at_cut: Vec<u64>,
}

/// Inside rows: valid-page histogram bins (share of the block still valid, 0 to 100 %) and
/// erase-count bins (the fewest to the most erases of any block).
const VALID_BINS: u32 = 32;
const ERASE_BINS: u32 = 16;

#[wasm_bindgen]
impl Simulation {
    /// Builds a drive from a JSON run request, e.g.
    /// `{"drive":"s3700-200","workload":"consistency","seconds":2000,"span":1.0,"seed":1}`.
    #[wasm_bindgen(constructor)]
    pub fn new(config_json: &str) -> Result<Simulation, JsError> {
        #[cfg(feature = "full")]
        let (cfg, file) = resolve_with_fio(config_json).map_err(|e| JsError::new(&e.to_string()))?;
        #[cfg(not(feature = "full"))]
        let cfg = resolve(config_json).map_err(|e| JsError::new(&e.to_string()))?;
        #[cfg_attr(not(feature = "full"), allow(unused_mut))] // only a fio job file adds an observer
        let mut sim = Bench::new(cfg).map_err(|e| JsError::new(&e.to_string()))?;
        #[cfg(feature = "full")]
        let fio = file.map(|f| {
            let (recorder, observer) = FioRecorder::shared(&f);
            sim.observe(observer);
            recorder
        });
        let busy_at_cut = busy_flat(&sim);
        Ok(Simulation {
            sim,
            samples: Vec::new(),
            #[cfg(feature = "full")]
            fio,
            inside: Vec::new(),
            busy_at_cut,
        })
    }

    /// Like `advance`, but stops at every second's end (and after second `last_second`) to
    /// record what the drive did inside it (see `inside`). Returns the seconds' columns.
    pub fn advance_inside(&mut self, max_ios: f64, last_second: u32) -> Vec<f64> {
        self.samples.clear();
        self.inside.clear();
        let mut left = whole(max_ios);
        while left > 0 && !self.sim.finished() && self.sim.seconds_done() < last_second {
            let before = self.samples.len();
            let next = self.sim.seconds_done() + 1;
            left = left.saturating_sub(self.sim.advance_to_second(next, left, &mut self.samples));
            // An idle host can end several seconds at one cut: the drive's work is the first's.
            for k in before..self.samples.len() {
                self.record_inside(k == before);
            }
        }
        self.columns()
    }

    /// What the drive did inside each second the last `advance_inside` completed, one row per
    /// second in the samples' order: per die (die-major, die d on channel d mod channels) the
    /// share of the second spent on host read, host program, GC read, GC program, erase and map
    /// work (booked time, so a die can exceed 1); then `VALID_BINS` counts of closed blocks by
    /// the share of them still valid (what the GC victim is chosen from); then `ERASE_BINS`
    /// counts of blocks by erase count over min..=max, then min and max. See `inside_layout`.
    pub fn inside(&self) -> Vec<f64> {
        self.inside.clone()
    }

    /// The shape of `inside()` rows, as JSON: `{dies, channels, kinds, valid_bins, erase_bins,
    /// row, members, member_row}` (`kinds` names the 6 per-die values; an array's row holds
    /// each of its `members` in turn, `member_row` values each, `row` in all).
    pub fn inside_layout(&self) -> String {
        let g = &self.sim.config().drive.geometry;
        let members = self.sim.config().drives();
        let member_row = g.dies * 6 + VALID_BINS + ERASE_BINS + 2;
        serde_json::json!({
            "members": members,
            "member_row": member_row,
            "dies": g.dies,
            "channels": g.channels,
            "kinds": ["host_read", "host_program", "gc_read", "gc_program", "erase", "map"],
            "valid_bins": VALID_BINS,
            "erase_bins": ERASE_BINS,
            "row": member_row * members,
        })
        .to_string()
    }

    /// Every command's latency in the seconds completed so far, as non-empty histogram
    /// buckets, flat: (lowest ns, next bucket's lowest ns, count) each, in ascending order.
    pub fn latency_histogram(&self) -> Vec<f64> {
        self.sim.latencies().buckets().flat_map(|(lo, hi, n)| [lo as f64, hi as f64, n as f64]).collect()
    }

    /// Processes up to `max_ios` host IOs and returns the seconds completed meanwhile,
    /// column-major: `sample_fields().length` columns of n rows each.
    pub fn advance(&mut self, max_ios: f64) -> Vec<f64> {
        self.samples.clear();
        self.sim.advance(whole(max_ios), &mut self.samples);
        self.columns()
    }

    /// Like `advance`, but stops as soon as second `second` is complete (a step of exactly one
    /// second: `advance_to_second(seconds_done() + 1, ...)`).
    pub fn advance_to_second(&mut self, second: u32, max_ios: f64) -> Vec<f64> {
        self.samples.clear();
        self.sim.advance_to_second(second, whole(max_ios), &mut self.samples);
        self.columns()
    }

    /// Cuts power at the host's next command; returns when (simulated seconds), or -1 if the
    /// run is over. The cut's outcome arrives in `power_cuts_json` once that second is done.
    pub fn cut_power_now(&mut self) -> f64 {
        self.sim.cut_power_now().map_or(-1.0, |ns| ns as f64 / 1e9)
    }

    /// Fails the capacitor bank now (the drive notices at its next self-test) or replaces it.
    pub fn set_capacitors_healthy(&mut self, healthy: bool) {
        self.sim.set_capacitors_healthy(healthy);
    }

    /// Time each die has spent so far on each kind of work, ns, flat: die-major, 6 per die
    /// (host read, host program, GC read, GC program, erase, map). Two calls' difference is
    /// what each die did in between.
    pub fn die_busy_ns(&self) -> Vec<f64> {
        self.sim.drive().die_busy_ns().iter().flat_map(|d| d.iter().map(|&ns| ns as f64)).collect()
    }

    /// Closed blocks counted by how many valid slots they hold, in `bins` equal parts of
    /// 0..=slots_per_block: what the victim policy chooses from.
    pub fn valid_histogram(&self, bins: u32) -> Vec<f64> {
        self.sim.ftl().valid_histogram(bins.clamp(1, 4096) as usize).into_iter().map(|c| c as f64).collect()
    }

    /// Blocks counted by erase count in `bins` equal parts of min..=max, then min and max.
    pub fn erase_histogram(&self, bins: u32) -> Vec<f64> {
        let (counts, (min, max)) = self.sim.ftl().erase_histogram(bins.clamp(1, 4096) as usize);
        counts.into_iter().map(|c| c as f64).chain([min as f64, max as f64]).collect()
    }

    /// The samples of the last call, column-major.
    fn columns(&self) -> Vec<f64> {
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

    /// Raw NAND bytes being simulated, every member of an array (for bytes-per-4-KiB figures).
    pub fn raw_bytes(&self) -> f64 {
        let cfg = self.sim.config();
        cfg.drive.geometry.raw_bytes() as f64 * cfg.drives() as f64
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
    #[cfg(feature = "full")]
    pub fn fio_json(&mut self) -> String {
        self.finish_fio();
        self.fio.as_ref().map_or_else(|| "null".into(), |r| r.borrow().json().to_string())
    }

    /// With a fio job file: the log text written since the last call, as JSON `{"NAME_iops.1.log":
    /// "1000, 31000, 1, 0, 0\n...", ...}` (files named as fio names them; append each call's text).
    #[cfg(feature = "full")]
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

/// The articles' experiments as JSON: `[{id, title, article, about, seconds, ramp_seconds,
/// queue_depths, columns}]`.
#[wasm_bindgen]
pub fn experiments() -> String {
    let list: Vec<serde_json::Value> = EXPERIMENTS
        .iter()
        .map(|e| {
            serde_json::json!({
                "id": e.id, "title": e.title, "article": e.article, "about": e.about, "seconds": e.seconds,
                "ramp_seconds": e.ramp_seconds, "queue_depths": e.queue_depths, "columns": e.columns,
            })
        })
        .collect();
    serde_json::Value::Array(list).to_string()
}

/// One experiment run a slice at a time, from the same definitions as `ssdlab sweep`.
#[cfg(feature = "full")]
#[wasm_bindgen]
pub struct Experiment {
    runner: Runner,
}

#[cfg(feature = "full")]
#[wasm_bindgen]
impl Experiment {
    /// From a JSON experiment request, e.g. `{"experiment":"four-corners","drive":"p3700-400"}`.
    #[wasm_bindgen(constructor)]
    pub fn new(request_json: &str) -> Result<Experiment, JsError> {
        let build = || -> Result<Runner, ConfigError> {
            let runner = Runner::new(&ExperimentRequest::from_json(request_json)?)?;
            runner.configs().try_for_each(fits_the_browser)?;
            Ok(runner)
        };
        build().map(|runner| Experiment { runner }).map_err(|e| JsError::new(&e.to_string()))
    }

    /// Runs up to `max_ios` host IOs; returns how many table rows were added.
    pub fn advance(&mut self, max_ios: f64) -> Result<u32, JsError> {
        self.runner.advance(whole(max_ios)).map(|n| n as u32).map_err(|e| JsError::new(&e.to_string()))
    }

    pub fn finished(&self) -> bool {
        self.runner.finished()
    }

    /// `{points_done, points, seconds_done, seconds}`.
    pub fn progress_json(&self) -> String {
        serde_json::to_string(&self.runner.progress()).unwrap_or_default()
    }

    /// `{experiment, columns, rows}`, the rows so far.
    pub fn table_json(&self) -> String {
        serde_json::to_string(self.runner.table()).unwrap_or_default()
    }

    /// The table so far as CSV (the same text `ssdlab sweep` prints).
    pub fn table_csv(&self) -> String {
        self.runner.table().csv()
    }
}

impl Simulation {
    /// One `inside()` row for the second just cut (`worked`: the drive's work since the last
    /// cut counts in it; false for a further second of the same cut).
    fn record_inside(&mut self, worked: bool) {
        let busy = busy_flat(&self.sim);
        let per_member = busy.len() / drives(&self.sim).len();
        for (m, drive) in drives(&self.sim).iter().enumerate() {
            let span = m * per_member..(m + 1) * per_member;
            for (now, then) in busy[span.clone()].iter().zip(&self.busy_at_cut[span]) {
                self.inside.push(if worked { (now - then) as f64 / 1e9 } else { 0.0 });
            }
            let ftl = drive.ftl();
            self.inside.extend(ftl.valid_histogram(VALID_BINS as usize).into_iter().map(|c| c as f64));
            let (counts, (min, max)) = ftl.erase_histogram(ERASE_BINS as usize);
            self.inside.extend(counts.into_iter().map(|c| c as f64).chain([min as f64, max as f64]));
        }
        self.busy_at_cut = busy;
    }

    /// Once the run is over, the commands still in flight are counted.
    #[cfg(feature = "full")]
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
    use ssdlab_core::config::{MODELS, WORKLOADS};

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
        assert_eq!(names.len(), WORKLOADS.len() + MODELS.len());
        assert!(names.contains(&"hot-cold".to_string()));
        assert!(names.contains(&"storage-bench-2011-heavy".to_string()));
        #[cfg(feature = "full")]
        {
            let policies = json(&victim_policies());
            assert!(policies.as_array().unwrap().iter().any(|p| p["id"] == "d-choices"));
        }
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

    #[cfg(feature = "full")]
    const SMALL: &str = r#""set":{"geometry.blocks_per_plane":64,"user_bytes":6000000000,"gc.start_free_blocks":6,
        "gc.boost_below_free_blocks":3,"gc.boost_until_free_blocks":5,"gc.background_free_blocks":8}"#;

    #[cfg(feature = "full")]
    fn fio_request(job: &str) -> String {
        format!(r#"{{"drive":"s3700-200",{},"fio":{}}}"#, SMALL, serde_json::Value::String(job.into()))
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
        let formats = json(&trace_formats());
        assert_eq!(formats.as_array().unwrap().len(), FORMATS.len());
    }

    #[test]
    #[cfg(feature = "full")]
    fn replays_a_trace_in_a_run_request() {
        let request = serde_json::json!({
            "drive": "s3700-200", "seconds": 30, "queue_depth": 4,
            "set": {"geometry.blocks_per_plane": 64, "user_bytes": 6000000000u64, "gc.start_free_blocks": 6,
                    "gc.boost_below_free_blocks": 3, "gc.boost_until_free_blocks": 5, "gc.background_free_blocks": 8},
            "trace": {"text": "0 0 0 8 0\n1500000000 0 8 8 1\n", "name": "two.trace"}
        });
        assert_eq!(json(&check_request(&request.to_string()))["ok"], true);
        let mut sim = Simulation::new(&request.to_string()).unwrap();
        let mut columns = Vec::new();
        while !sim.finished() {
            columns.extend(sim.advance(1e6));
        }
        // Two commands, a second and a half apart: the run ends with the trace, after 2 s.
        assert_eq!(sim.seconds_done(), 2);
        let iops = FIELDS.iter().position(|f| *f == "iops").unwrap();
        assert_eq!(&columns[iops * 2..iops * 2 + 2], &[1.0, 1.0]);
        let bad = request.to_string().replace("1500000000 0 8 8 1", "1500000000 0 8 8");
        let e = json(&check_request(&bad));
        assert_eq!(e["field"], "trace");
        assert!(e["message"].as_str().unwrap().starts_with("line 2:"), "{e}");
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

    #[test]
    fn steps_a_second_cuts_power_and_shows_the_drive_inside() {
        let request = r#"{"drive":"s3700-200","seconds":20,
            "set":{"geometry.blocks_per_plane":64,"user_bytes":6000000000,"gc.start_free_blocks":6,
                   "gc.boost_below_free_blocks":3,"gc.boost_until_free_blocks":5,"gc.background_free_blocks":8}}"#;
        let mut sim = Simulation::new(request).unwrap();
        let cols = sim.advance_to_second(1, 1e9);
        assert_eq!(cols.len(), FIELDS.len(), "exactly one second");
        assert_eq!(sim.seconds_done(), 1);
        sim.advance_to_second(3, 1e9);
        assert_eq!(sim.seconds_done(), 3);
        let at = sim.cut_power_now();
        assert!((3.0..4.0).contains(&at), "{}", at);
        sim.advance_to_second(5, 1e9);
        let cuts = json(&sim.power_cuts_json());
        assert_eq!(cuts.as_array().unwrap().len(), 1);
        assert_eq!(cuts[0]["acknowledged_writes_lost"], 0);
        let dies = 33;
        let busy = sim.die_busy_ns();
        assert_eq!(busy.len(), dies * 6);
        assert!(busy.iter().sum::<f64>() > 0.0);
        let valid = sim.valid_histogram(16);
        assert_eq!(valid.len(), 16);
        let erase = sim.erase_histogram(8);
        // The blocks in service: 64 per die less the 5 (9 %) the firmware reserves.
        assert_eq!(erase[..8].iter().sum::<f64>(), (dies * 59) as f64);
        sim.set_capacitors_healthy(false);
        sim.cut_power_now();
        sim.advance_to_second(7, 1e9);
        let cuts = json(&sim.power_cuts_json());
        assert!(cuts[1]["acknowledged_writes_lost"].as_u64().unwrap() > 0, "{cuts}");
        #[cfg(feature = "full")]
        assert!(json(&sample_fields_info())[0]["unit"] == "s");
    }

    #[test]
    fn records_the_inside_of_every_member_of_an_array() {
        let request = r#"{"drive":"s3700-200","seconds":6,"raid":{"drives":3,"stripe_kib":16},
            "set":{"geometry.blocks_per_plane":64,"user_bytes":6000000000,"gc.start_free_blocks":6,
                   "gc.boost_below_free_blocks":3,"gc.boost_until_free_blocks":5,"gc.background_free_blocks":8}}"#;
        let mut sim = Simulation::new(request).unwrap();
        let layout = json(&sim.inside_layout());
        let n_of = |k: &str| layout[k].as_u64().unwrap() as usize;
        let (dies, member_row, row) = (n_of("dies"), n_of("member_row"), n_of("row"));
        assert_eq!((n_of("members"), member_row, row), (3, dies * 6 + 50, 3 * member_row));
        let field = |name: &str| FIELDS.iter().position(|f| *f == name).unwrap();
        let cols = sim.advance_inside(1e9, u32::MAX);
        let inside = sim.inside();
        let n = cols.len() / FIELDS.len();
        assert_eq!((n, inside.len()), (6, 6 * row));
        for r in 0..n {
            // The sample's share is the mean over every member's dies; each member did its part.
            let at = &inside[r * row..(r + 1) * row];
            let program = |m: usize| (0..dies).map(|d| at[m * member_row + d * 6 + 1]).sum::<f64>() / dies as f64;
            let mean = (0..3).map(program).sum::<f64>() / 3.0;
            // (To 1e-4: for an array the two differ in the fifth digit; a single drive's agree exactly.)
            let sample = cols[field("die_host_program") * n + r];
            assert!((mean - sample).abs() < 1e-4 * sample, "second {r}: {mean} vs {sample}");
            assert!((0..3).all(|m| program(m) > 0.05), "second {r}: {:?}", (0..3).map(program).collect::<Vec<_>>());
            // Each member counts its own blocks in service (59 per die after the firmware reserve).
            for m in 0..3 {
                let erase = &at[m * member_row + dies * 6 + 32..m * member_row + dies * 6 + 48];
                assert_eq!(erase.iter().sum::<f64>(), (dies * 59) as f64);
            }
        }
    }

    #[test]
    fn records_each_seconds_inside_and_every_latency() {
        let request = r#"{"drive":"s3700-200","seconds":12,
            "set":{"geometry.blocks_per_plane":64,"user_bytes":6000000000,"gc.start_free_blocks":6,
                   "gc.boost_below_free_blocks":3,"gc.boost_until_free_blocks":5,"gc.background_free_blocks":8}}"#;
        let mut sim = Simulation::new(request).unwrap();
        let layout = json(&sim.inside_layout());
        let (dies, row) = (layout["dies"].as_u64().unwrap() as usize, layout["row"].as_u64().unwrap() as usize);
        assert_eq!(row, dies * 6 + 32 + 16 + 2);
        let field = |name: &str| FIELDS.iter().position(|f| *f == name).unwrap();
        let (mut seconds, mut ios) = (0, 0.0);
        while !sim.finished() {
            // Stops after second 5 first, as a step does.
            let cols = sim.advance_inside(7_000.0, if seconds < 5 { 5 } else { u32::MAX });
            let inside = sim.inside();
            let n = cols.len() / FIELDS.len();
            assert_eq!(inside.len(), n * row);
            for r in 0..n {
                let at = &inside[r * row..(r + 1) * row];
                // The dies' shares add up to the sample's drive-wide share of each kind.
                for (k, name) in
                    ["die_host_read", "die_host_program", "die_gc_read", "die_gc_program", "die_erase", "die_map"]
                        .iter()
                        .enumerate()
                {
                    let sum: f64 = (0..dies).map(|d| at[d * 6 + k]).sum::<f64>() / dies as f64;
                    let sample = cols[field(name) * n + r];
                    assert!((sum - sample).abs() < 1e-9, "{name} second {}: {sum} vs {sample}", seconds + r);
                }
                let erase_bins = &at[dies * 6 + 32..dies * 6 + 48];
                // The blocks in service: 64 per die less the 5 (9 %) the firmware reserves.
                assert_eq!(erase_bins.iter().sum::<f64>(), (dies * 59) as f64);
                assert_eq!(at[row - 2], cols[field("erase_count_min") * n + r]);
                assert_eq!(at[row - 1], cols[field("erase_count_max") * n + r]);
                ios += cols[field("iops") * n + r];
            }
            seconds += n;
            if seconds < 5 {
                assert!(sim.seconds_done() <= 5);
            }
        }
        assert_eq!(seconds, 12);
        let h = sim.latency_histogram();
        let counted: f64 = h.chunks(3).map(|b| b[2]).sum();
        // Every command's latency, in the seconds it completed in.
        assert_eq!(counted, ios);
        assert!(h.chunks(3).all(|b| b[0] < b[1]));
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
        assert!(drive["sources"]["geometry.dies"].as_str().unwrap().len() > 5);
        assert_eq!(parameter_info("nope"), "[]");
    }
}
