//! `ssdlab sweep EXPERIMENT`: one of the articles' methods as a table (CSV, or JSON), from the
//! same definitions the page runs through the wasm shell; and `ssdlab calibrate`.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use ssdlab_core::experiment::calibrate::{self, Outcome};
use ssdlab_core::experiment::calibrated;
use ssdlab_core::experiment::{ArticleDrive, ExperimentRequest, Runner, EXPERIMENTS};
use ssdlab_core::ConfigError;

use crate::args::{add_override, number, SweepArgs};

pub fn sweep(args: SweepArgs) -> Result<(), String> {
    if args.list {
        for e in &EXPERIMENTS {
            let drive = match e.drive {
                ArticleDrive::One { preset, source } => format!("drive: {} by default ({})", preset, source),
                ArticleDrive::Several(why) => format!("drive: --drive is required: {}", why),
            };
            println!(
                "{:<16} {}\n{:<16} {}\n{:<16} {}\n{:<16} {}\n",
                e.id, e.title, "", e.article, "", drive, "", e.about
            );
        }
        return Ok(());
    }
    let mut request = request(args.experiment.clone(), &args).map_err(|e| e.to_string())?;
    if let Some(source) = request.default_drive().map_err(|e| e.to_string())? {
        eprintln!("drive: {} (the article's drive: {}; --drive to change)", request.drive, source);
    }
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
    let figures = runner.figures();
    // The published figures the table can be compared with, beside it (all of them in JSON).
    for f in figures.iter().filter(|f| f.row.is_some()) {
        let e = &f.figure;
        let at: Vec<String> = f.row.iter().flatten().map(|(k, v)| format!("{}={}", k, v)).collect();
        let at = if at.is_empty() { "its seconds".to_string() } else { at.join(" ") };
        let verdict = match (e.simulated, e.holds) {
            (Some(v), Some(holds)) => format!("{:.1} ({})", v, if holds { "holds" } else { "misses" }),
            _ => "no row yet".into(),
        };
        eprintln!(
            "published: {} ({}): {}; this experiment at {}: {}",
            e.target.figure, e.target.source, e.expected, at, verdict
        );
    }
    let text = if json {
        serde_json::to_string_pretty(&serde_json::json!({ "request": request, "table": table, "figures": figures }))
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
    let drive = a.drive.clone().unwrap_or_default();
    let mut r =
        ExperimentRequest::from_json(&serde_json::json!({ "experiment": experiment, "drive": drive }).to_string())?;
    r.seconds = a.seconds.as_deref().map(|v| number("seconds", v)).transpose()?;
    r.ramp_seconds = a.ramp_seconds.as_deref().map(|v| number("ramp_seconds", v)).transpose()?;
    r.queue_depths = a.queue_depths.as_deref().map(|v| list("queue_depths", v)).transpose()?;
    r.drive_counts = a.drive_counts.as_deref().map(|v| list("drive_counts", v)).transpose()?;
    r.spans = a.spans.as_deref().map(|v| list("spans", v)).transpose()?;
    r.write_gb = a.write_gb.as_deref().map(|v| number("write_gb", v)).transpose()?;
    r.rest_seconds = a.rest_seconds.as_deref().map(|v| list("rest_seconds", v)).transpose()?;
    r.then_gb = a.then_gb.as_deref().map(|v| number("then_gb", v)).transpose()?;
    r.dirty_seconds = a.dirty_seconds.as_deref().map(|v| number("dirty_seconds", v)).transpose()?;
    let names = |v: &str| v.split(',').map(|s| s.trim().to_string()).collect();
    r.states = a.states.as_deref().map(names);
    r.hosts = a.hosts.as_deref().map(names);
    r.layouts = a.layouts.as_deref().map(names);
    r.op_percents = a.op_percents.as_deref().map(|v| list("op_percents", v)).transpose()?;
    r.drive_writes = a.drive_writes.as_deref().map(|v| number("drive_writes", v)).transpose()?;
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

/// How `ssdlab calibrate` prints its outcomes: a line each (default), JSON or a Markdown table.
pub struct Print {
    pub json: bool,
    pub markdown: bool,
}

fn outcome_line(o: &Outcome) -> String {
    format!(
        "{} {:<12} {:<58} target {:<22} simulated {:<12} {}",
        match (o.holds, &o.target.miss) {
            (true, _) => "ok  ",
            (false, Some(_)) => "miss",
            (false, None) => "MISS",
        },
        o.target.drive,
        o.target.figure,
        o.expected,
        format!("{:.2}", o.simulated),
        o.target.source
    )
}

fn read_saved(path: &Path) -> Result<Vec<Outcome>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {}", path.display(), e))?;
    calibrated::parse(&text).map_err(|e| format!("{}: {}", path.display(), e))
}

/// Runs the targets of `drives` (all when empty), or reads them from `from`; prints them as
/// `print` says; with `save`, writes them into that file beside its other saved outcomes.
pub fn calibrate(drives: &[String], print: Print, save: Option<&Path>, from: Option<&Path>) -> Result<(), String> {
    for d in drives {
        ssdlab_core::presets::by_id(d).map_err(|e| e.to_string())?;
    }
    let start = Instant::now();
    let only = |t: &calibrate::Target| drives.is_empty() || drives.contains(&t.drive);
    let outcomes = match from {
        Some(path) => read_saved(path)?.into_iter().filter(|o| only(&o.target)).collect(),
        None => calibrate::calibrate(&only, &mut |o: &Outcome| {
            if !print.json && !print.markdown {
                println!("{}", outcome_line(o));
            } else {
                eprintln!(
                    "{} {}: {:.2} ({:.0} s)",
                    o.target.drive,
                    o.target.figure,
                    o.simulated,
                    start.elapsed().as_secs_f64()
                );
            }
        })
        .map_err(|e| e.to_string())?,
    };
    let held = outcomes.iter().filter(|o| o.holds).count();
    if print.json {
        print!("{}", calibrated::to_json(&outcomes));
    } else if print.markdown {
        print!("{}", calibrated::markdown(&outcomes));
    } else if from.is_some() {
        outcomes.iter().for_each(|o| println!("{}", outcome_line(o)));
    }
    eprintln!("{} of {} targets hold ({:.0} s)", held, outcomes.len(), start.elapsed().as_secs_f64());
    if let Some(path) = save {
        let saved = if path.exists() { read_saved(path)? } else { Vec::new() };
        let merged = calibrated::merge(saved, outcomes);
        std::fs::write(path, calibrated::to_json(&merged)).map_err(|e| format!("{}: {}", path.display(), e))?;
        let left = calibrated::differences(&merged);
        eprintln!(
            "saved {} outcomes to {}{}",
            merged.len(),
            path.display(),
            if left.is_empty() { "" } else { "; still to run:" }
        );
        left.iter().for_each(|l| eprintln!("  {}", l));
    }
    Ok(())
}
