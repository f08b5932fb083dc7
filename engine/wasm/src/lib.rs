//! wasm-bindgen shell over `ssdlab-core`: one `Simulation` handle for the browser worker.
//! Every error crosses as a JS `Error` whose message names the field and its allowed range;
//! nothing here unwraps on input from the page.
#![deny(clippy::unwrap_used, clippy::expect_used)]

use ssdlab_core::{presets, RunRequest, Sample, FIELDS};
use wasm_bindgen::prelude::*;

/// The drive presets as JSON: `[{id, name, interface, raw_bytes, user_bytes, advertised_bytes,
/// spec_random_write_iops}]`.
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
            })
        })
        .collect();
    serde_json::Value::Array(list).to_string()
}

/// Names of the sample columns, as JSON, in the order `Simulation::advance` returns them.
#[wasm_bindgen]
pub fn sample_fields() -> String {
    serde_json::to_string(&FIELDS).unwrap_or_else(|_| "[]".into())
}

#[wasm_bindgen]
pub struct Simulation {
    sim: ssdlab_core::Simulation,
    samples: Vec<Sample>,
}

#[wasm_bindgen]
impl Simulation {
    /// Builds a drive from a JSON run request, e.g.
    /// `{"drive":"s3700-200","workload":"consistency","seconds":2000,"span":1.0,"seed":1}`.
    #[wasm_bindgen(constructor)]
    pub fn new(config_json: &str) -> Result<Simulation, JsError> {
        let cfg = RunRequest::from_json(config_json)
            .and_then(|r| r.resolve())
            .map_err(|e| JsError::new(&e.to_string()))?;
        let sim = ssdlab_core::Simulation::new(cfg).map_err(|e| JsError::new(&e.to_string()))?;
        Ok(Simulation { sim, samples: Vec::new() })
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
}
