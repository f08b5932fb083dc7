//! What the page builds its controls from and asks before a run: the drives and every parameter
//! with what it accepts, the workloads, the experiments, the run-request fields and the sample
//! columns; checks of a run request, a fio job file or a trace. Answers are JSON text.

use std::ops::RangeInclusive;

use ssdlab_core::config::limits::{choices, Bound, UNSIGNED};
use ssdlab_core::config::{parameter_values, WorkloadSpec};
use ssdlab_core::drive::ftl::victim;
#[cfg(feature = "full")]
use ssdlab_core::experiment::calibrate::Columns;
#[cfg(feature = "full")]
use ssdlab_core::experiment::evidence::evidence as evidence_of;
use ssdlab_core::experiment::{
    DIRTY_RANGE, DIRTY_SECONDS, EXPERIMENTS, RECOVERY_STATES, REST_COUNT, REST_RANGE, WRITE_GB_RANGE,
};
#[cfg(feature = "full")]
use ssdlab_core::host::trace::{detect, FORMATS};
#[cfg(feature = "full")]
use ssdlab_core::request::TraceRequest;
#[cfg(feature = "full")]
use ssdlab_core::ConfigError;
use ssdlab_core::{presets, DriveConfig, RunRequest, FIELDS};
use wasm_bindgen::prelude::*;

use crate::{refusal, resolve};

/// The drive presets as JSON: `[{id, name, interface, raw_bytes, user_bytes, advertised_bytes,
/// spec_random_write_iops, parameters}]`; `parameters` maps every settable path (as `ssdlab
/// params` lists them) to the preset's value. Where each value comes from: `preset_sources`.
/// A zoned drive's `zoned.*` parameters tell the page to run its workloads through the host's
/// zone store (its random writes the drive alone would refuse).
#[wasm_bindgen]
pub fn presets() -> String {
    let list: Vec<serde_json::Value> = presets::presets()
        .iter()
        .map(|d| {
            serde_json::json!({
                "id": d.id,
                "name": d.name,
                "interface": d.host.name,
                "raw_bytes": d.geometry.raw_bytes(),
                "user_bytes": d.user_bytes,
                "advertised_bytes": d.advertised_bytes,
                "spec_random_write_iops": d.spec_random_write_iops,
                "parameters": parameters(d),
            })
        })
        .collect();
    serde_json::Value::Array(list).to_string()
}

/// Where each of a preset's values comes from, as a JSON object: parameter path -> text (`ssdlab
/// presets --sources`); `{}` for an unknown drive. Only in the full module: the texts are most of
/// a preset's bytes, and the page shows them only when asked.
#[cfg(feature = "full")]
#[wasm_bindgen]
pub fn preset_sources(drive: &str) -> String {
    presets::sources(drive).ok().and_then(|s| serde_json::to_string(&s).ok()).unwrap_or_else(|| "{}".into())
}

/// Path -> value for every settable parameter of a drive.
pub(crate) fn parameters(drive: &DriveConfig) -> serde_json::Value {
    serde_json::Value::Object(parameter_values(drive).into_iter().collect())
}

/// Every parameter of a preset with what it accepts, as JSON: `[{path, value, kind, range,
/// min, max, choices}]`. `kind` is `whole`, `number`, `bool`, `name` (one of `choices`) or
/// `text`; `range` is the engine's own words for a number's limits ("must be between 2 and
/// 1024"), `min`/`max` its numbers (null when it has none): both from the table the engine
/// checks a drive against (`DriveConfig::limits`), for this preset's values of the others.
#[wasm_bindgen]
pub fn parameter_info(drive: &str) -> String {
    let Ok(preset) = presets::by_id(drive) else { return "[]".into() };
    let limits = preset.limits();
    let number = |b: Bound| match b {
        Bound::Whole(n) => serde_json::json!(n),
        Bound::Real(x) => serde_json::json!(x),
    };
    let list: Vec<serde_json::Value> = parameter_values(&preset)
        .into_iter()
        .map(|(path, value)| {
            let mut info = serde_json::json!({ "path": path, "value": value, "range": null, "min": null, "max": null });
            let kind = match &value {
                serde_json::Value::Bool(_) => "bool",
                serde_json::Value::Number(n) => {
                    let whole = !n.is_f64();
                    if let Some(limit) = limits.iter().find(|l| l.path == path) {
                        info["min"] = number(limit.min);
                        info["max"] = number(limit.max);
                        info["range"] = limit.words().into();
                    } else if whole {
                        info["min"] = 0.into();
                        info["range"] = UNSIGNED.into();
                    }
                    if whole {
                        "whole"
                    } else {
                        "number"
                    }
                }
                serde_json::Value::String(_) => {
                    let names = if path == "gc.victim" {
                        Some(victim::POLICIES.iter().map(|(id, _)| id.to_string()).collect())
                    } else {
                        choices(&path)
                    };
                    match names {
                        Some(names) => {
                            info["choices"] = names.into();
                            "name"
                        }
                        None => "text",
                    }
                }
                _ => "text",
            };
            info["kind"] = kind.into();
            info
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

/// The articles' experiments as JSON: `[{id, title, article, about, seconds, ramp_seconds,
/// queue_depths, columns, rest_seconds, dirty_seconds, states, limits}]`; the last four are the
/// recoveries': their defaults (each its own rests), the states dirty-recovery measures and what
/// a request may ask (`limits`: `{rests, rest_seconds, gb, dirty_seconds}`, each `{min, max}`;
/// `rests`: how many).
#[wasm_bindgen]
pub fn experiments() -> String {
    let limits = serde_json::json!({
        "rests": within(&REST_COUNT),
        "rest_seconds": within(&REST_RANGE),
        "gb": within(&WRITE_GB_RANGE),
        "dirty_seconds": within(&DIRTY_RANGE),
    });
    let list: Vec<serde_json::Value> = EXPERIMENTS
        .iter()
        .map(|e| {
            serde_json::json!({
                "id": e.id, "title": e.title, "article": e.article, "about": e.about, "seconds": e.seconds,
                "ramp_seconds": e.ramp_seconds, "queue_depths": e.queue_depths, "columns": e.columns,
                "rest_seconds": e.default_rest_seconds(), "dirty_seconds": DIRTY_SECONDS, "states": RECOVERY_STATES,
                "limits": limits,
            })
        })
        .collect();
    serde_json::Value::Array(list).to_string()
}

/// A range as `{min, max}`.
fn within<T: Copy + Into<serde_json::Value>>(r: &RangeInclusive<T>) -> serde_json::Value {
    serde_json::json!({ "min": (*r.start()).into(), "max": (*r.end()).into() })
}

/// Every field a run request accepts, with its default, as a JSON object (`set` is `{}`), so
/// the page can offer a field only when this engine knows it.
#[wasm_bindgen]
pub fn run_request_fields() -> String {
    let Some(first) = presets::all().into_iter().next() else { return "{}".into() };
    let minimal = serde_json::json!({ "drive": first.id }).to_string();
    RunRequest::from_json(&minimal).ok().and_then(|r| serde_json::to_string(&r).ok()).unwrap_or_else(|| "{}".into())
}

/// Names of the sample columns, as JSON, in the order `Simulation::advance` returns them.
#[wasm_bindgen]
pub fn sample_fields() -> String {
    serde_json::to_string(&FIELDS[..]).unwrap_or_else(|_| "[]".into())
}

/// Checks a JSON run request without building the drive: `{"ok":true}`, or
/// `{"ok":false,"field":...,"message":...}` naming what is wrong and what is allowed.
#[wasm_bindgen]
pub fn check_request(config_json: &str) -> String {
    match resolve(config_json) {
        Ok(_) => serde_json::json!({ "ok": true }),
        Err(e) => refusal(e),
    }
    .to_string()
}

/// The published figures for a JSON run request's drive (`calibration.toml`, as `ssdlab
/// calibrate` runs them), as JSON: `{"ok":true,"figures":[{figure, source, measure, expected,
/// published, target, min, max, window_from_s, seconds, not_comparable, simulated, holds,
/// ...}]}`. `not_comparable` names the conditions in which the run differs from the figure's;
/// `simulated` and `holds` are this run's verdict from its per-second columns (pass empty ones
/// before the run has all its seconds). A refused request: `{"ok":false,"field","message"}`.
/// Only in the full module: the first one stays small for the first visit.
#[cfg(feature = "full")]
#[wasm_bindgen]
pub fn evidence(config_json: &str, iops: &[f64], mb_s: &[f64], mean_latency_us: &[f64], host_writes: &[f64]) -> String {
    match RunRequest::from_json(config_json).and_then(|r| r.resolve()) {
        Ok(cfg) => {
            // The throttle's figures come from an experiment, never compared with a live run.
            let columns = Columns { iops, mb_s, mean_latency_us, host_writes, throttle_step: &[], covered: &[] };
            let figures = evidence_of(&cfg, columns);
            match serde_json::to_string(&figures) {
                Ok(list) => format!(r#"{{"ok":true,"figures":{}}}"#, list),
                Err(e) => refusal(ssdlab_core::ConfigError::new("evidence", e.to_string())).to_string(),
            }
        }
        Err(e) => refusal(e).to_string(),
    }
}

/// Reads a dropped trace file and says what it holds, as JSON: `{"ok":true, "name", "format",
/// "records", "duration_s", "reads", "writes", "trims", "read_bytes", "write_bytes",
/// "read_share", "write_share", "trim_share", "skipped":[{"what","count"}], "text"}`, or
/// `{"ok":false,"field":"trace","message":"line 12: expected ..."}`; either with "formats"
/// (`[[name, what it reads]]`) and "detected" (the format its first lines suggest, or null).
/// `format` is a name from `ssdlab_core::host::trace::FORMATS`, or empty to detect it.
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
    let mut answer = match request.load() {
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
        Err(e) => refusal(e),
    };
    // For the page to offer the formats, with the detection's guess (even when it cannot read).
    answer["formats"] = FORMATS.iter().map(|f| serde_json::json!([f.1, f.2])).collect();
    answer["detected"] = detect(text).map(|f| f.name()).into();
    answer.to_string()
}

/// Reads the fio job file of a JSON run request (`{"drive":...,"fio":"[global]\\n..."}`) for
/// that drive: `{"ok":true,"seconds":N,"phases":[{name, runtime_s, ramp_s, jobs:[...]}],
/// "ignored":[{line, option, message}],"unsupported":[...],"notes":[...]}` (ignored: no effect
/// on the drive's workload; unsupported: cannot be honoured, the run goes on without them), or
/// `{"ok":false,"field":...,"message":...}` (a malformed line is named in the message).
#[cfg(feature = "full")]
#[wasm_bindgen]
pub fn fio_import(config_json: &str) -> String {
    let imported = RunRequest::from_json(config_json).and_then(|r| r.resolve_with_fio()).and_then(|(cfg, file)| {
        crate::fits_the_browser(&cfg)?;
        match file {
            Some(f) => Ok((cfg, f)),
            None => Err(ConfigError::new("fio", "is required: the text of a fio job file")),
        }
    });
    match imported {
        Ok((cfg, file)) => {
            let mut v = file.to_json();
            v["ok"] = true.into();
            v["seconds"] = cfg.seconds.into();
            v
        }
        Err(e) => refusal(e),
    }
    .to_string()
}

#[cfg(test)]
mod tests;
