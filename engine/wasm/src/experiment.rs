//! `Experiment`: one of the articles' experiments in the experiment worker, run a slice at a
//! time from the same definitions as `ssdlab sweep`.

use ssdlab_core::experiment::{ExperimentRequest, Runner};
use ssdlab_core::ConfigError;
use wasm_bindgen::prelude::*;

use crate::{fits_the_browser, whole};

/// One experiment run a slice at a time, from the same definitions as `ssdlab sweep`.
#[wasm_bindgen]
pub struct Experiment {
    runner: Runner,
}

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

    /// The rows from `from` on, as a JSON array: the worker asks for each slice's new rows
    /// only (a fill has a row per second; the whole table every slice grew quadratically).
    pub fn rows_json(&self, from: u32) -> String {
        let rows = self.runner.table().rows.get(from as usize..).unwrap_or_default();
        serde_json::to_string(rows).unwrap_or_default()
    }

    /// The published figures of the experiment's drive beside the table so far: for each, the
    /// row and column it sits at and the row's verdict, or why no row compares with it.
    pub fn figures_json(&self) -> String {
        serde_json::to_string(&self.runner.figures()).unwrap_or_default()
    }

    /// The table's CSV (the same text `ssdlab sweep` prints) from row `from` on, with the
    /// header line when `from` is 0: the worker appends each slice's part.
    pub fn csv(&self, from: u32) -> String {
        let table = self.runner.table();
        if from == 0 {
            table.csv()
        } else {
            table.csv_rows(from as usize)
        }
    }
}
