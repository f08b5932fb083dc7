//! The published figures as they bear on one run: for a run of a preset, each calibration target
//! of that drive (calibration.toml, the same data `ssdlab calibrate` runs), whether the run was
//! made under the figure's conditions (and if not, which differ), and what this run gives for
//! the figure's measure once its window is complete. The page draws them on its chart.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use super::calibrate::{measure_columns, targets, Columns, Target};
use crate::config::{parameter_values, DriveConfig, Precondition, RunConfig};

/// One figure beside one run.
#[derive(Debug, Clone, Serialize)]
pub struct Evidence {
    #[serde(flatten)]
    pub target: Target,
    /// The target as text ("29,000 to 35,000").
    pub expected: String,
    /// The works the source cites ([000]: AnandTech's S3700 review), and what it says without
    /// them ("min 29,150").
    pub cites: Vec<&'static str>,
    pub says: String,
    /// The figure's window: from this second to the run's end (`seconds`).
    pub window_from_s: u32,
    pub seconds: u32,
    /// Why this run cannot be compared with the figure: the conditions that differ ("spare
    /// area: the figure's run tests 100 % of the drive, this one tests 50 % of the drive"). None: it can.
    pub not_comparable: Option<String>,
    /// This run's value of the figure's measure: None until the run has all its seconds (or
    /// when it is not comparable).
    pub simulated: Option<f64>,
    /// Whether `simulated` is within the target's tolerance or bounds.
    pub holds: Option<bool>,
}

/// Every figure published for `run`'s drive (by preset id), with its verdict from `columns`
/// (the run's seconds so far; empty before it has any).
pub fn evidence(run: &RunConfig, columns: Columns) -> Vec<Evidence> {
    targets()
        .into_iter()
        .filter(|t| t.drive == run.drive.id)
        .filter_map(|t| {
            // The figure's run as the article made it (a scaled target's steady state is that
            // of the full-size drive, which a page run is).
            let figure = t.unscaled_config().ok()?;
            let not_comparable = match &t.experiment {
                // An experiment's figure (a whole-drive fill) is measured on the experiment's run.
                Some(id) => Some(format!("method: the figure comes from the {} experiment, not a live run", id)),
                // A ratio of two runs' latencies (HMB off over on) is not one run's.
                None if t.compare_run.is_some() => Some("method: the figure compares two runs, not one".to_string()),
                None => differences(run, &figure),
            };
            let complete = columns.iops.len() >= figure.seconds as usize;
            let simulated = (not_comparable.is_none() && complete).then(|| measure_columns(&t, columns).ok()).flatten();
            Some(Evidence::new(t, &figure, not_comparable, simulated))
        })
        .collect()
}

impl Evidence {
    /// Target `t` (whose run is `figure`) beside a run or table: why it cannot be compared, or
    /// the value of its measure there (None until known).
    pub fn new(t: Target, figure: &RunConfig, not_comparable: Option<String>, simulated: Option<f64>) -> Evidence {
        let (cites, says) = cited(&t.source);
        Evidence {
            expected: t.expected(),
            cites,
            says: says.to_string(),
            window_from_s: t.from_s.unwrap_or(figure.seconds * 7 / 10),
            seconds: figure.seconds,
            not_comparable,
            holds: simulated.map(|v| t.holds(v)),
            simulated,
            target: t,
        }
    }
}

/// The conditions in which `run` differs from the figure's run, in words; None when it has
/// them all (the seed aside: the figure is of the drive, not of one random sequence).
fn differences(run: &RunConfig, figure: &RunConfig) -> Option<String> {
    let mut out = drive_differences(run, figure, "this one");
    let mut differ = |what: &str, figure: String, run: String| {
        out.push(format!("{}: the figure's run {}, this one {}", what, figure, run));
    };
    if run.workload.id != figure.workload.id || run.phases != figure.phases {
        let name = |c: &RunConfig| match c.phases.len() {
            0 => format!("runs {}", c.workload.id),
            n => format!("runs a job file of {} phase{}", n, if n == 1 { "" } else { "s" }),
        };
        differ("workload", name(figure), name(run));
    }
    if run.block_bytes != figure.block_bytes {
        let size = |c: &RunConfig| format!("moves {} per request", kib(c.block_bytes));
        differ("block size", size(figure), size(run));
    }
    if run.queue_depth != figure.queue_depth || run.threads != figure.threads {
        let qd = |c: &RunConfig| match c.threads {
            1 => format!("is at queue depth {}", c.queue_depth),
            t => format!("is {} jobs at queue depth {}", t, c.queue_depth),
        };
        differ("queue depth", qd(figure), qd(run));
    }
    if run.seconds != figure.seconds {
        differ("duration", format!("lasts {} s", figure.seconds), format!("lasts {} s", run.seconds));
    }
    if run.precondition != figure.precondition {
        let pre = |c: &RunConfig| match c.precondition {
            Precondition::Fill => "starts from a sequential fill".to_string(),
            Precondition::None => "starts from an empty drive".to_string(),
            Precondition::Random { passes } => format!("starts after {} passes of random writes", passes),
        };
        differ("precondition", pre(figure), pre(run));
    }
    if run.align_bytes != figure.align_bytes && run.block_bytes == figure.block_bytes {
        let align = |c: &RunConfig| format!("aligns requests to {}", kib(c.align_bytes));
        differ("alignment", align(figure), align(run));
    }
    (!out.is_empty()).then(|| out.join("; "))
}

/// How the drive `run` tests differs from the figure's, apart from the work and its start (the
/// design, the share of it tested, the array, the data, TRIM, rests and power cuts); `this`
/// names the run in the words ("this one", "this experiment").
pub(super) fn drive_differences(run: &RunConfig, figure: &RunConfig, this: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    if run.drive != figure.drive {
        let changed = changed_parameters(&figure.drive, &run.drive);
        out.push(format!("design: the figure's run uses the preset as it is, {} changes its {}", this, list(&changed)));
    }
    let mut differ = |what: &str, figure: String, run: String| {
        out.push(format!("{}: the figure's run {}, {} {}", what, figure, this, run));
    };
    if run.span != figure.span {
        let span = |c: &RunConfig| format!("tests {} % of the drive", (c.span * 100.0).round());
        differ("spare area", span(figure), span(run));
    }
    if run.raid != figure.raid {
        let raid =
            |c: &RunConfig| c.raid.as_ref().map_or("is one drive".into(), |r| format!("is RAID 0 of {}", r.drives));
        differ("array", raid(figure), raid(run));
    }
    if run.compressibility != figure.compressibility {
        let c = |c: &RunConfig| format!("writes data that compresses by {} %", (c.compressibility * 100.0).round());
        differ("data", c(figure), c(run));
    }
    if run.trim_fraction != figure.trim_fraction {
        let t = |c: &RunConfig| format!("trims {} % first", (c.trim_fraction * 100.0).round());
        differ("TRIM", t(figure), t(run));
    }
    if (run.burst_s, run.idle_s) != (figure.burst_s, figure.idle_s) {
        let b = |c: &RunConfig| match c.idle_s {
            0 => "never rests".to_string(),
            idle => format!("rests {} s after every {} s", idle, c.burst_s),
        };
        differ("idle time", b(figure), b(run));
    }
    if run.power_cuts_ns != figure.power_cuts_ns {
        let cuts = |c: &RunConfig| match c.power_cuts_ns.len() {
            0 => "has none".to_string(),
            n => format!("has {}", n),
        };
        differ("power cuts", cuts(figure), cuts(run));
    }
    out
}

/// The articles the targets cite as [000] to [004] (the project's five source articles).
pub const REFERENCES: [(&str, &str); 5] = [
    ("000", "AnandTech's review of the Intel SSD DC S3700 200GB (2012)"),
    ("001", "a first look at the Intel SSD DC S3700, with Intel's spec table (2012)"),
    ("002", "AnandTech's Intel SSD DC S3500 performance consistency (2013)"),
    ("003", "AnandTech's review of the Intel SSD DC P3700 (2014)"),
    ("004", "Tom's Hardware's 24 Intel SSD DC S3700 in RAID 0 (2013)"),
];

/// A source's leading references ("[000, 001] 2,700 IOPS") as the works they name, and the rest
/// of its words; a source without them ("Micron datasheet 3,300 MB/s") cites nothing by number.
pub fn cited(source: &str) -> (Vec<&'static str>, &str) {
    let Some(rest) = source.strip_prefix('[') else { return (Vec::new(), source) };
    let Some((ids, says)) = rest.split_once(']') else { return (Vec::new(), source) };
    let works = ids
        .split(',')
        .filter_map(|id| REFERENCES.iter().find(|(r, _)| *r == id.trim()).map(|(_, title)| *title))
        .collect();
    (works, says.trim())
}

pub(super) fn kib(bytes: u32) -> String {
    if bytes.is_multiple_of(1024) {
        format!("{} KiB", bytes / 1024)
    } else {
        format!("{} B", bytes)
    }
}

/// "a, b and c" (at most four, then "and N more").
fn list(items: &[String]) -> String {
    const SHOWN: usize = 4;
    let mut shown: Vec<String> = items.iter().take(SHOWN).cloned().collect();
    if items.len() > SHOWN {
        shown.push(format!("{} more", items.len() - SHOWN));
    }
    match shown.split_last() {
        None => "settings".into(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {}", rest.join(", "), last),
    }
}

/// The drive parameters (dotted paths, as `ssdlab params` lists them) whose values differ.
fn changed_parameters(figure: &DriveConfig, run: &DriveConfig) -> Vec<String> {
    let theirs: BTreeMap<String, Value> = parameter_values(figure).into_iter().collect();
    let ours: BTreeMap<String, Value> = parameter_values(run).into_iter().collect();
    let mut paths: Vec<String> =
        ours.iter().filter(|(p, v)| theirs.get(*p) != Some(v)).map(|(p, _)| p.clone()).collect();
    paths.extend(theirs.keys().filter(|p| !ours.contains_key(*p)).cloned());
    paths
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::RunRequest;

    fn config(json: &str) -> RunConfig {
        RunRequest::from_json(json).unwrap().resolve().unwrap()
    }

    fn s3700_band(e: &[Evidence]) -> Vec<&Evidence> {
        e.iter().filter(|e| e.target.measure == "min" || e.target.measure == "max").collect()
    }

    #[test]
    fn the_default_s3700_run_is_comparable_with_its_article_and_gets_verdicts_when_complete() {
        let run = config(r#"{"drive":"s3700-200","seconds":2000}"#);
        let partial = vec![30_000.0; 1999];
        let before = evidence(&run, Columns { iops: &partial, ..Columns::default() });
        let article: Vec<&Evidence> = before.iter().filter(|e| e.seconds == 2000).collect();
        assert!(article.len() >= 3 && article.iter().all(|e| e.not_comparable.is_none()), "{:?}", article);
        assert_eq!(s3700_band(&before).len(), 2);
        assert!(before.iter().all(|e| e.simulated.is_none()), "no verdict before the run's last second");

        // Seconds 1400-1999 between 30,000 and 34,000, one slow second at 28,000.
        let mut iops: Vec<f64> = (0..2000).map(|s| 30_000.0 + (s % 5) as f64 * 1000.0).collect();
        iops[1500] = 28_000.0;
        let after = evidence(&run, Columns { iops: &iops, ..Columns::default() });
        let band = s3700_band(&after);
        let min = band.iter().find(|e| e.target.measure == "min").unwrap();
        let max = band.iter().find(|e| e.target.measure == "max").unwrap();
        assert_eq!((min.simulated, min.holds), (Some(28_000.0), Some(false)));
        assert_eq!((max.simulated, max.holds), (Some(34_000.0), Some(true)));
        assert_eq!(min.window_from_s, 1400);
    }

    #[test]
    fn a_run_under_other_conditions_says_which_differ() {
        let run = config(r#"{"drive":"s3700-200","seconds":300,"span":0.5,"set":{"gc.start_free_blocks":40}}"#);
        let e = evidence(&run, Columns::default());
        let min = s3700_band(&e)[0];
        let why = min.not_comparable.as_deref().unwrap();
        assert!(
            why.contains("spare area: the figure's run tests 100 % of the drive, this one tests 50 % of the drive"),
            "{}",
            why
        );
        assert!(why.contains("duration: the figure's run lasts 2000 s, this one lasts 300 s"), "{}", why);
        assert!(
            why.contains(
                "design: the figure's run uses the preset as it is, this one changes its gc.start_free_blocks"
            ),
            "{}",
            why
        );
        assert_eq!(min.simulated, None);
    }

    #[test]
    fn a_source_names_the_articles_it_cites() {
        assert_eq!(cited("[000, 001] 2,700 IOPS"), (vec![REFERENCES[0].1, REFERENCES[1].1], "2,700 IOPS"));
        assert_eq!(cited("Micron datasheet 3,300 MB/s"), (vec![], "Micron datasheet 3,300 MB/s"));
        for t in targets() {
            let (works, says) = cited(&t.source);
            assert_eq!(t.source.starts_with('['), !works.is_empty(), "{}: an unknown reference", t.source);
            assert!(!says.is_empty(), "{}", t.source);
        }
    }

    #[test]
    fn a_drive_without_figures_has_none() {
        let mut run = config(r#"{"drive":"s3700-200"}"#);
        run.drive.id = "no-such-drive".into();
        assert!(evidence(&run, Columns::default()).is_empty());
    }
}
