//! Results as JSON, in one shape for the CLI (`ssdlab run --json`) and the wasm shell.

use super::{Bench, Sample, Summary};
use crate::drive::power::PowerCutReport;

/// One power cut: `{at_s, acknowledged_writes_lost, writes_at_risk, flushed_units,
/// energy_needed_uj, energy_stored_uj, rebuild_ms}`.
pub fn power_cut_json(c: &PowerCutReport) -> serde_json::Value {
    serde_json::json!({
        "at_s": c.at_ns as f64 / 1e9,
        "acknowledged_writes_lost": c.acknowledged_writes_lost,
        "writes_at_risk": c.writes_at_risk(),
        "flushed_units": c.flushed_units,
        "energy_needed_uj": c.energy_needed_uj,
        "energy_stored_uj": c.energy_stored_uj,
        "rebuild_ms": c.rebuild_ms,
    })
}

/// Every power cut of a run, in order.
pub fn power_cuts_json(cuts: &[PowerCutReport]) -> serde_json::Value {
    serde_json::Value::Array(cuts.iter().map(power_cut_json).collect())
}

/// A finished run's results as `ssdlab run --json` prints them (without the measurements of
/// the machine it ran on: wall time and memory): the summary from `steady_from_s`, the run's
/// identity, power cuts, endurance and wear.
pub fn results_json(
    bench: &Bench,
    samples: &[Sample],
    steady_from_s: u32,
) -> serde_json::Map<String, serde_json::Value> {
    let cfg = bench.config();
    let summary = Summary::from_samples(samples, steady_from_s);
    let serde_json::Value::Object(mut m) = serde_json::to_value(&summary).expect("summary serialises") else {
        unreachable!("a summary is an object")
    };
    m.insert("drive".into(), cfg.drive.id.clone().into());
    m.insert("workload".into(), cfg.workload.id.into());
    // A replay's commands come from its trace, not the named workload.
    if let Some(t) = cfg.phases.iter().flat_map(|p| &p.jobs).find_map(|j| j.trace.as_ref()) {
        m.insert("workload".into(), "replay".into());
        m.insert("trace".into(), t.name.clone().into());
    }
    m.insert("span".into(), cfg.span.into());
    m.insert("seed".into(), cfg.seed.into());
    // An array reports every member's NAND and endurance together.
    let drives = cfg.drives() as u64;
    m.insert("raw_bytes".into(), (cfg.drive.geometry.raw_bytes() * drives).into());
    if let Some(r) = &cfg.raid {
        m.insert("raid".into(), serde_json::to_value(r).expect("raid serialises"));
    }
    let cuts = bench.power_cuts();
    if !cuts.is_empty() {
        let lost: u64 = cuts.iter().map(|c| c.acknowledged_writes_lost).sum();
        m.insert("acknowledged_writes_lost".into(), lost.into());
        m.insert("rebuild_ms".into(), cuts.iter().map(|c| c.rebuild_ms).sum::<f64>().into());
        m.insert("power_cuts".into(), power_cuts_json(cuts));
    }
    m.insert("rated_tbw_bytes".into(), (cfg.drive.rated_tbw_bytes() * drives).into());
    let e = &cfg.drive.endurance;
    let nand_tbw = e.nand_limited_tbw_bytes(cfg.drive.geometry.raw_bytes(), summary.steady_write_amplification);
    m.insert("nand_limited_tbw_bytes_at_steady_wa".into(), (nand_tbw * drives).into());
    let last = samples.last();
    // The summary's rule for a last second the run covered in part (see `Summary`).
    if let Some(covered) = last.map(|s| s.second_covered).filter(|&c| c < 1.0) {
        m.insert("last_second_covered".into(), covered.into());
    }
    m.insert("erase_count_min".into(), last.map_or(0, |s| s.erase_count_min).into());
    m.insert("erase_count_max".into(), last.map_or(0, |s| s.erase_count_max).into());
    m.insert("retired_blocks".into(), last.map_or(0, |s| s.retired_blocks).into());
    m.insert("read_only".into(), last.is_some_and(|s| s.read_only).into());
    if let (Some(app), Some(c)) = (&cfg.app, bench.app_counters()) {
        // What the app asked of the drive, apart from a store's cleaning.
        m.insert("app".into(), app.kind.name().into());
        m.insert("app_tagged".into(), app.tagged.into());
        let fields = [
            ("app_soc_write_bytes", c.soc_write_bytes),
            ("app_loc_write_bytes", c.loc_write_bytes),
            ("app_loc_evictions", c.evictions),
            ("app_put_bytes", c.put_bytes),
            ("app_flush_write_bytes", c.flush_write_bytes),
            ("app_compaction_write_bytes", c.compaction_write_bytes),
            ("app_compaction_read_bytes", c.compaction_read_bytes),
        ];
        for (name, value) in fields {
            m.insert(name.into(), value.into());
        }
        if c.put_bytes > 0 {
            m.insert("lsm_write_amplification".into(), c.lsm_write_amplification().into());
        }
    }
    if let Some(z) = &cfg.zone_store {
        // The host's cleaning beside the drive's: (app + cleaner) / app writes, and host x device.
        let host_wa = |s: &[Sample]| {
            let app: f64 = s.iter().map(|x| x.app_mb_s).sum();
            let all = app + s.iter().map(|x| x.cleaner_mb_s).sum::<f64>();
            if app == 0.0 {
                1.0
            } else {
                all / app
            }
        };
        let steady = &samples[(steady_from_s as usize).min(samples.len())..];
        let (wa, steady_wa) = (host_wa(samples), host_wa(steady));
        m.insert("zone_store_utilisation".into(), z.utilisation.into());
        m.insert("host_write_amplification".into(), wa.into());
        m.insert("steady_host_write_amplification".into(), steady_wa.into());
        m.insert("total_write_amplification".into(), (wa * summary.write_amplification).into());
        m.insert("steady_total_write_amplification".into(), (steady_wa * summary.steady_write_amplification).into());
    }
    m
}

/// The default start of steady state for a run of `seconds`: the articles read the S3700's
/// steady state from 1400 s of 2000, 70 % of the run; shorter runs scale with it.
pub fn default_steady_from_s(seconds: u32) -> u32 {
    seconds * 7 / 10
}
