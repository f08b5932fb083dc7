//! `ssdlab sweep EXPERIMENT`: one of the articles' methods as a table (CSV, or JSON), from the
//! same definitions the page runs through the wasm shell.

use std::io::Write;
use std::time::Instant;

use ssdlab_core::experiment::{ExperimentRequest, Runner, EXPERIMENTS};
use ssdlab_core::ConfigError;

use crate::args::{add_override, number, SweepArgs};

pub fn sweep(args: SweepArgs) -> Result<(), String> {
    if args.list {
        for e in &EXPERIMENTS {
            println!("{:<16} {}\n{:<16} {}\n{:<16} {}\n", e.id, e.title, "", e.article, "", e.about);
        }
        return Ok(());
    }
    let request = request(args.experiment.clone(), &args).map_err(|e| e.to_string())?;
    let json = args.json;
    let start = Instant::now();
    let mut runner = Runner::new(&request).map_err(|e| e.to_string())?;
    let mut shown = 0;
    while !runner.finished() {
        runner.advance(5_000_000).map_err(|e| e.to_string())?;
        let p = runner.progress();
        if p.points_done > shown || runner.finished() {
            shown = p.points_done;
            eprintln!(
                "{}: {} of {} runs done, {:.1} s",
                request.experiment,
                shown,
                p.points,
                start.elapsed().as_secs_f64()
            );
        }
    }
    let table = runner.table();
    let text = if json {
        serde_json::to_string_pretty(&serde_json::json!({ "request": request, "table": table }))
            .map_err(|e| e.to_string())?
            + "\n"
    } else {
        table.csv()
    };
    std::io::stdout().write_all(text.as_bytes()).map_err(|e| e.to_string())
}

fn list<T: std::str::FromStr>(field: &str, text: &str) -> Result<Vec<T>, ConfigError> {
    text.split(',').map(|v| number(field, v.trim())).collect()
}

fn request(experiment: Option<String>, a: &SweepArgs) -> Result<ExperimentRequest, ConfigError> {
    let experiment = experiment.ok_or_else(|| {
        let ids: Vec<&str> = EXPERIMENTS.iter().map(|e| e.id).collect();
        ConfigError::new("experiment", format!("is required (one of: {}; see ssdlab sweep --list)", ids.join(", ")))
    })?;
    let drive = a.drive.clone().ok_or_else(|| ConfigError::new("drive", "is required (see `ssdlab presets`)"))?;
    let mut r =
        ExperimentRequest::from_json(&serde_json::json!({ "experiment": experiment, "drive": drive }).to_string())?;
    r.seconds = a.seconds.as_deref().map(|v| number("seconds", v)).transpose()?;
    r.ramp_seconds = a.ramp_seconds.as_deref().map(|v| number("ramp_seconds", v)).transpose()?;
    r.queue_depths = a.queue_depths.as_deref().map(|v| list("queue_depths", v)).transpose()?;
    r.spans = a.spans.as_deref().map(|v| list("spans", v)).transpose()?;
    if let Some(v) = &a.span {
        r.span = number("span", v)?;
    }
    if let Some(v) = &a.seed {
        r.seed = number("seed", v)?;
    }
    if let Some(v) = &a.precondition {
        r.precondition = v.clone();
    }
    for s in &a.set {
        add_override(&mut r.set, s)?;
    }
    Ok(r)
}
