//! `ssdlab endurance`: JESD218 arithmetic [001]: the rated host writes, and the host writes the
//! NAND's P/E limit allows at a write amplification (greedy theory by default, a number, or
//! measured by running the IO-consistency test for 2000 s).

use ssdlab_core::bench::default_steady_from_s;
use ssdlab_core::drive::ftl::victim::greedy_wa_theory;
use ssdlab_core::{Bench, RunRequest, Summary};

use crate::args::{add_override, EnduranceArgs};

pub fn endurance(args: EnduranceArgs) -> Result<(), String> {
    let drive = args.drive.ok_or("drive: is required (see `ssdlab presets`)")?;
    let mut request =
        RunRequest::from_json(&serde_json::json!({ "drive": drive }).to_string()).map_err(|e| e.to_string())?;
    for s in &args.set {
        add_override(&mut request.set, s).map_err(|e| e.to_string())?;
    }
    let cfg = request.resolve().map_err(|e| e.to_string())?;
    let d = &cfg.drive;
    let raw = d.geometry.raw_bytes();
    let (wa, source) = match args.wa.as_str() {
        "theory" => (
            greedy_wa_theory(d.user_bytes as f64 / raw as f64),
            "greedy GC on uniform random writes, large-system theory".to_string(),
        ),
        "measured" => {
            let mut bench = Bench::new(cfg.clone()).map_err(|e| e.to_string())?;
            let samples = bench.run_to_end();
            let s = Summary::from_samples(&samples, default_steady_from_s(cfg.seconds));
            (
                s.steady_write_amplification,
                format!("measured: steady state of a {} s {} run", cfg.seconds, cfg.workload.id),
            )
        }
        text => match text.parse::<f64>() {
            Ok(w) if (1.0..=100.0).contains(&w) => (w, "given".to_string()),
            _ => return Err(format!("wa: must be a number between 1 and 100, theory or measured (got '{}')", text)),
        },
    };
    let e = &d.endurance;
    let pb = |bytes: u64| bytes as f64 / 1e15;
    let rated = d.rated_tbw_bytes();
    let nand = e.nand_limited_tbw_bytes(raw, wa);
    let cell = serde_json::to_value(d.nand.cell).map_err(|e| e.to_string())?;
    println!("{} ({}), {} NAND", d.name, d.id, cell.as_str().unwrap_or("?"));
    println!(
        "  rated (JESD218): {} drive writes/day x 365 x {} years x {} GB = {:.3} PB ({} bytes)",
        e.drive_writes_per_day,
        e.warranty_years,
        d.advertised_bytes as f64 / 1e9,
        pb(rated),
        rated
    );
    println!(
        "  NAND: {:.1} GiB raw x {} P/E cycles = {:.3} PB of NAND writes",
        raw as f64 / (1u64 << 30) as f64,
        e.pe_cycles,
        pb(raw.saturating_mul(e.pe_cycles as u64))
    );
    println!(
        "  at write amplification {:.3} ({}): {:.3} PB of host writes, {:.2} x the rating",
        wa,
        source,
        pb(nand),
        nand as f64 / rated.max(1) as f64
    );
    Ok(())
}
