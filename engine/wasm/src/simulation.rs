//! `Simulation`: one run in the browser worker, advanced in slices of host IOs; each slice's
//! seconds cross as columns of `f64`, with what the drive did inside each of them.

use ssdlab_core::bench::power_cuts_json;
use ssdlab_core::drive::nand::{WORK_KINDS, WORK_NAMES};
use ssdlab_core::drive::zoned::ZoneState;
use ssdlab_core::drive::Drive;
use ssdlab_core::units::UNIT_BYTES;
use ssdlab_core::{Bench, Sample, FIELDS};
use wasm_bindgen::prelude::*;

use crate::catalog::parameters;
use crate::{resolve, whole};

#[wasm_bindgen]
pub struct Simulation {
    sim: Bench,
    samples: Vec<Sample>,
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
        let cfg = resolve(config_json).map_err(|e| JsError::new(&e.to_string()))?;
        let sim = Bench::new(cfg).map_err(|e| JsError::new(&e.to_string()))?;
        let busy_at_cut = busy_flat(&sim);
        Ok(Simulation { sim, samples: Vec::new(), inside: Vec::new(), busy_at_cut })
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
    /// row, members, member_row}` (`kinds` names the per-die values, `WORK_NAMES`; an array's row holds
    /// each of its `members` in turn, `member_row` values each, `row` in all).
    ///
    /// A drive with placement handles adds `handles` (H): per die H + 1 counts of its open and
    /// closed blocks by handle, the last for blocks of the GC stream all handles share. A zoned
    /// drive adds `zones` (Z) and `zone_states` (the state names by number): per zone its state's
    /// number and its write pointer as a share of its capacity. Other drives' layout and rows
    /// are unchanged.
    pub fn inside_layout(&self) -> String {
        let drive = &self.sim.config().drive;
        let g = &drive.geometry;
        let members = self.sim.config().drives();
        let (handles, zones) = (handle_columns(&self.sim), zone_count(&self.sim));
        let member_row = g.dies * WORK_KINDS as u32 + VALID_BINS + ERASE_BINS + 2 + g.dies * handles + 2 * zones;
        let mut layout = serde_json::json!({
            "members": members,
            "member_row": member_row,
            "dies": g.dies,
            "channels": g.channels,
            "kinds": WORK_NAMES,
            "valid_bins": VALID_BINS,
            "erase_bins": ERASE_BINS,
            "row": member_row * members,
        });
        if let Some(p) = &drive.placement {
            layout["handles"] = p.handles.into();
        }
        if zones > 0 {
            layout["zones"] = zones.into();
            layout["zone_states"] = ZONE_STATES.iter().map(|(_, name)| *name).collect::<Vec<_>>().into();
        }
        layout.to_string()
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

    /// Cuts power at the host's next command; returns when (simulated seconds), or -1 if the
    /// run is over. The cut's outcome arrives in `power_cuts_json` once that second is done.
    pub fn cut_power_now(&mut self) -> f64 {
        self.sim.cut_power_now().map_or(-1.0, |ns| ns as f64 / 1e9)
    }

    /// Fails the capacitor bank now (the drive notices at its next self-test) or replaces it.
    pub fn set_capacitors_healthy(&mut self, healthy: bool) {
        self.sim.set_capacitors_healthy(healthy);
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
            if let Some(p) = &self.sim.config().drive.placement {
                let mut counts = ftl.blocks_by_tag(p.handles as usize);
                // (Every block of a drive with handles carries a tag; the row keeps its size regardless.)
                counts.resize(self.sim.config().drive.geometry.dies as usize * (p.handles as usize + 1), 0);
                self.inside.extend(counts.into_iter().map(|c| c as f64));
            }
            if let Some(zones) = drive.zones() {
                let capacity = zone_capacity_units(&self.sim) as f64;
                for z in 0..zones.count() {
                    let state = ZONE_STATES.iter().position(|(s, _)| *s == zones.state(z)).unwrap_or(0);
                    let written = zones.write_pointer(z) - zones.start(z);
                    self.inside.extend([state as f64, written as f64 / capacity]);
                }
            }
        }
        self.busy_at_cut = busy;
    }
}

/// Zone states by the number the inside rows give them, with the names the layout lists.
const ZONE_STATES: [(ZoneState, &str); 5] = [
    (ZoneState::Empty, "empty"),
    (ZoneState::ImplicitlyOpened, "implicitly-opened"),
    (ZoneState::ExplicitlyOpened, "explicitly-opened"),
    (ZoneState::Closed, "closed"),
    (ZoneState::Full, "full"),
];

/// Per-die values of the handle counts: the handles and the shared GC stream; 0 without
/// placement handles.
fn handle_columns(sim: &Bench) -> u32 {
    sim.config().drive.placement.as_ref().map_or(0, |p| p.handles + 1)
}

/// Zones of a zoned drive; 0 otherwise.
fn zone_count(sim: &Bench) -> u32 {
    let drive = &sim.config().drive;
    drive.zoned.as_ref().map_or(0, |z| z.zones(drive) as u32)
}

/// A zone's writable 4 KiB units.
fn zone_capacity_units(sim: &Bench) -> u64 {
    sim.config().drive.zoned.as_ref().map_or(1, |z| (z.zone_capacity_bytes / UNIT_BYTES).max(1))
}

/// The drive, or each member of the array, in order.
fn drives(sim: &Bench) -> &[Drive] {
    sim.members().unwrap_or(std::slice::from_ref(sim.drive()))
}

/// Each die's busy time so far, die-major, `WORK_KINDS` per die (member after member).
fn busy_flat(sim: &Bench) -> Vec<u64> {
    drives(sim).iter().flat_map(|d| d.die_busy_ns().iter().flat_map(|die| die.iter().copied())).collect()
}

#[cfg(test)]
mod tests;
