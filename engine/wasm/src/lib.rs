//! wasm-bindgen shell over `ssdlab-core`: one `Simulation` handle for the browser worker
//! (`simulation.rs`), one `Experiment` handle for the experiment worker (`experiment.rs`), and
//! the catalog the page builds its controls from (`catalog.rs`: drives, their parameters, the
//! workloads, the experiments and the run-request fields), so new engine options show up without
//! page changes. Every error crosses as a JS `Error` whose message names the field and its
//! allowed range; nothing here unwraps on input from the page.
#![deny(clippy::unwrap_used, clippy::expect_used)]

mod catalog;
#[cfg(feature = "full")]
mod experiment;
mod simulation;

pub use catalog::*;
#[cfg(feature = "full")]
pub use experiment::Experiment;
pub use simulation::Simulation;

use ssdlab_core::bench::table_bytes_bound;
use ssdlab_core::{ConfigError, RunConfig, RunRequest};

/// The model's tables the browser engine will build at most: wasm32 memory ends at 4 GiB, and
/// the allocator and the page need some of it.
const BROWSER_TABLE_LIMIT_BYTES: u64 = 2560 << 20;

/// A JSON run request, resolved and checked, that the browser engine can hold.
fn resolve(config_json: &str) -> Result<RunConfig, ConfigError> {
    let cfg = RunRequest::from_json(config_json).and_then(|r| r.resolve())?;
    fits_the_browser(&cfg)?;
    Ok(cfg)
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

/// `{"ok":false,"field":...,"message":...}`: how a catalog answer says what is wrong.
fn refusal(e: ConfigError) -> serde_json::Value {
    serde_json::json!({ "ok": false, "field": e.field, "message": e.message })
}

/// A count from the page: at least 1, whatever arrives.
fn whole(x: f64) -> u64 {
    if x.is_finite() && x >= 1.0 {
        x as u64
    } else {
        1
    }
}

#[cfg(test)]
fn json(s: &str) -> serde_json::Value {
    serde_json::from_str(s).unwrap_or_default()
}
