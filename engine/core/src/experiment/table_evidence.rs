//! The published figures beside an experiment's table: a figure whose run is one of the
//! experiment's measured phases (a queue-depth sweep's 4 KB random reads at QD8 on the figure's
//! drive) sits at that row, with the row's value as this experiment's verdict; the drive's other
//! figures say why no row can be compared with them. The page marks them on the QD charts.
//!
//! A phase is measured under a figure's conditions when it runs the same jobs on the same drive
//! (design, share tested, array, data, TRIM, rests, cuts), from the same start, over a window the
//! figure's measure allows:
//! - reads find the span written either way, after a sequential fill or random writes (the
//!   P3700's QD1 random reads: 9,172.5 IOPS after the fill, 9,172.6 after the article's
//!   full-span random write);
//! - writes measured in the steady state of random writes (the figure's run starts after random
//!   passes) need the point's own random preconditioning and a ramp at least as long as the
//!   figure's first second;
//! - other writes change the state they measure (a fill's GC, an SLC cache filling): the phase
//!   must be the first of its point to write and its window inside the figure's.
//!
//! The measure must be one a row gives: a mean (IOPS), MB/s or mean latency over the phase.

use std::collections::BTreeMap;

use serde::Serialize;

use super::calibrate::{measure_columns, targets, Columns, Target};
use super::evidence::{drive_differences, kib, Evidence};
use super::{Measure, Point, Table, Value};
use crate::config::{JobSpec, Phase, Precondition, RunConfig};
use crate::units::{NS_PER_S, UNIT_BYTES};

/// One figure beside an experiment's table.
#[derive(Debug, Clone, Serialize)]
pub struct TableEvidence {
    /// The figure, its verdict from the row (`simulated`, `holds`: None until the row is in
    /// the table) or why no row can be compared with it.
    #[serde(flatten)]
    pub figure: Evidence,
    /// The row's labels (`corner`, `queue_depth`, ...) and the column the figure's measure
    /// reads; None when it is not comparable.
    pub row: Option<BTreeMap<&'static str, Value>>,
    pub column: Option<&'static str>,
    /// The figure's request size: an IOPS figure drawn as MB/s, or MB/s as IOPS.
    pub block_bytes: u32,
}

/// The table column each row-level measure reads.
fn column_of(measure: &str) -> Option<&'static str> {
    match measure {
        "mean" => Some("iops"),
        "mb_s" => Some("mb_s"),
        "latency_mean_us" => Some("latency_mean_us"),
        _ => None,
    }
}

/// Every figure published for the drive of `points` with where it sits in `table` (`finished`:
/// the table has all its rows, which a measure over an experiment's seconds needs).
pub fn table_evidence(points: &[Point], table: &Table, finished: bool) -> Vec<TableEvidence> {
    let Some(drive) = points.first().map(|p| p.cfg.drive.id.clone()) else { return Vec::new() };
    targets()
        .into_iter()
        .filter(|t| t.drive == drive)
        .filter_map(|t| {
            let figure = t.unscaled_config().ok()?;
            let column = column_of(&t.measure).filter(|c| table.columns.iter().any(|x| x == c));
            // Where the figure sits (a row's labels; none: the table's seconds) and its value.
            let placed: Result<(BTreeMap<&'static str, Value>, Option<f64>), String> = match (&t.experiment, column) {
                (Some(id), _) => same_experiment(points, id, table, &figure).map(|()| {
                    let value = finished.then(|| measure_columns(&t, seconds_of(table, points).columns())).and_then(Result::ok);
                    (BTreeMap::new(), value)
                }),
                (None, Some(c)) => place(points, &t, &figure).map(|labels| {
                    let value = cell(table, &labels, c);
                    (labels, value)
                }),
                (None, None) => Err(format!(
                    "method: the figure is measured from a run's seconds (its {}), a row of this table is one point's mean",
                    t.measure
                )),
            };
            let (row, simulated, not_comparable) = match placed {
                Ok((labels, value)) => (Some(labels), value, None),
                Err(why) => (None, None, Some(why)),
            };
            Some(TableEvidence {
                column: if t.experiment.is_none() { row.as_ref().and(column) } else { None },
                row,
                block_bytes: figure.block_bytes,
                figure: Evidence::new(t, &figure, not_comparable, simulated),
            })
        })
        .collect()
}

/// Whether the table is the figure's experiment run as the figure's run was (one point of per-second
/// rows: the drive as the preset is, the same phases), or why not.
fn same_experiment(points: &[Point], id: &str, table: &Table, figure: &RunConfig) -> Result<(), String> {
    let [point] = points else { return Err(format!("method: the figure comes from one run of the {} experiment", id)) };
    if table.experiment != id {
        return Err(format!("method: the figure comes from the {} experiment", id));
    }
    if !matches!(point.measure, Measure::Seconds) {
        return Err(format!(
            "method: the figure is measured over its run's seconds; this table gives the run's measuring \
             write as one row, the row to read beside it ({} does not keep the seconds)",
            id
        ));
    }
    let mut why = drive_differences(&point.cfg, figure, "this experiment");
    if point.cfg.phases != figure.phases {
        let qd = |c: &RunConfig| c.phases.first().and_then(|p| p.jobs.first()).map_or(0, |j| j.queue_depth);
        why.push(if qd(&point.cfg) != qd(figure) {
            format!(
                "queue depth: the figure's run is at queue depth {}, this experiment at {}",
                qd(figure),
                qd(&point.cfg)
            )
        } else {
            "workload: the figure's run writes other phases".to_string()
        });
    }
    if why.is_empty() {
        Ok(())
    } else {
        Err(why.join("; "))
    }
}

/// An experiment's per-second rows as the columns the measures read: IOPS from MB/s at the
/// point's request size where the table has no IOPS (a fill writes one size), host writes from
/// the GB written by each second's end.
struct SecondsColumns {
    iops: Vec<f64>,
    mb_s: Vec<f64>,
    mean_latency_us: Vec<f64>,
    host_writes: Vec<f64>,
    throttle_step: Vec<f64>,
}

impl SecondsColumns {
    fn columns(&self) -> Columns<'_> {
        Columns {
            iops: &self.iops,
            mb_s: &self.mb_s,
            mean_latency_us: &self.mean_latency_us,
            host_writes: &self.host_writes,
            throttle_step: &self.throttle_step,
            // A table keeps no shares: its last second counts whole.
            covered: &[],
        }
    }
}

fn seconds_of(table: &Table, points: &[Point]) -> SecondsColumns {
    let column = |name: &str| -> Option<Vec<f64>> {
        let at = table.columns.iter().position(|c| c == name)?;
        Some(table.rows.iter().map(|r| r.get(at).and_then(Value::as_f64).unwrap_or(0.0)).collect())
    };
    let mb_s = column("mb_s").unwrap_or_default();
    let bytes = points
        .first()
        .and_then(|p| p.cfg.phases.iter().flat_map(|ph| &ph.jobs).map(|j| j.write_sizes.largest()).next())
        .unwrap_or(UNIT_BYTES as u32) as f64;
    let iops = column("iops").unwrap_or_else(|| mb_s.iter().map(|m| m * 1e6 / bytes).collect());
    let gb = column("gb_written").unwrap_or_default();
    let host_writes = gb.iter().scan(0.0, |before, &g| {
        let units = (g - *before) * 1e9 / UNIT_BYTES as f64;
        *before = g;
        Some(units)
    });
    SecondsColumns {
        host_writes: host_writes.collect(),
        mean_latency_us: column("latency_mean_us").unwrap_or_default(),
        throttle_step: column("throttle_step").unwrap_or_default(),
        iops,
        mb_s,
    }
}

/// The labels of the first measured phase run under the figure's conditions, or why none is.
fn place(points: &[Point], t: &Target, figure: &RunConfig) -> Result<BTreeMap<&'static str, Value>, String> {
    let plan = figure.plan();
    let [figure_phase] = plan.as_slice() else {
        return Err("workload: the figure's run is a job file of several phases".into());
    };
    let mut first_reason: Option<String> = None;
    for point in points {
        let Measure::Phases(listed) = &point.measure else { continue };
        for (index, labels) in listed {
            let phase = &point.cfg.phases[*index];
            if !same_work(&phase.jobs, &figure_phase.jobs) {
                continue;
            }
            let mut why = drive_differences(&point.cfg, figure, "this experiment");
            why.extend(start_and_window(point, *index, t, figure));
            if why.is_empty() {
                let mut row: BTreeMap<&'static str, Value> = point.labels.iter().cloned().collect();
                row.extend(labels.iter().cloned());
                return Ok(row);
            }
            first_reason.get_or_insert(why.join("; "));
        }
    }
    Err(first_reason.unwrap_or_else(|| {
        format!("workload: no point of this experiment runs the figure's {}", work_words(figure, figure_phase))
    }))
}

/// The same commands: the jobs alike but for their names (and the alignment of sequential ones,
/// which start where the last ended).
fn same_work(a: &[JobSpec], b: &[JobSpec]) -> bool {
    let key = |j: &JobSpec| JobSpec {
        name: String::new(),
        align_bytes: if j.random_percent == 0 { 0 } else { j.align_bytes },
        ..j.clone()
    };
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| key(x) == key(y))
}

/// How the drive stands when a phase starts, as far as a figure's run can differ.
#[derive(PartialEq, Clone, Copy)]
enum Start {
    Empty,
    Filled,
    RandomlyWritten,
}

fn start_of(cfg: &RunConfig, before: &[Phase]) -> Start {
    // The article's preconditioning: an untimed phase that writes at random positions.
    let random_writes =
        |p: &Phase| p.runtime_ns == 0 && p.jobs.iter().any(|j| j.read_percent < 100 && j.random_percent > 0);
    match cfg.precondition {
        Precondition::Random { .. } => Start::RandomlyWritten,
        _ if before.iter().any(random_writes) => Start::RandomlyWritten,
        Precondition::Fill => Start::Filled,
        Precondition::None => Start::Empty,
    }
}

fn start_words(s: Start) -> &'static str {
    match s {
        Start::Empty => "starts from an empty drive",
        Start::Filled => "starts from a sequential fill",
        Start::RandomlyWritten => "starts after random writes over the span",
    }
}

/// Why phase `index` of `point` does not start as the figure's run does or is measured over
/// another window (see the module's comment).
fn start_and_window(point: &Point, index: usize, t: &Target, figure: &RunConfig) -> Vec<String> {
    let phases = &point.cfg.phases;
    let phase = &phases[index];
    let start = start_of(&point.cfg, &phases[..index]);
    let figure_start = start_of(figure, &[]);
    let reads_only = phase.jobs.iter().all(|j| j.read_percent == 100);
    let from_s = t.from_s.unwrap_or(figure.seconds * 7 / 10) as u64;
    let (ramp_s, end_s) = (phase.ramp_ns / NS_PER_S, phase.runtime_ns / NS_PER_S);
    let mut why = Vec::new();
    let starts =
        if reads_only { (start == Start::Empty) == (figure_start == Start::Empty) } else { start == figure_start };
    if !starts {
        why.push(format!(
            "precondition: the figure's run {}, this point {}",
            start_words(figure_start),
            start_words(start)
        ));
    }
    if reads_only {
        return why;
    }
    let window = |from: u64, to: u64| format!("seconds {} to {}", from, to);
    if figure_start == Start::RandomlyWritten {
        if ramp_s < from_s {
            why.push(format!(
                "duration: the figure is measured from second {} of its run, this point from second {}",
                from_s, ramp_s
            ));
        }
        return why;
    }
    let wrote_before = phases[..index].iter().any(|p| p.jobs.iter().any(|j| j.read_percent < 100));
    if wrote_before || ramp_s < from_s || end_s > figure.seconds as u64 {
        why.push(format!(
            "duration: the figure is measured over {} of a run that wrote nothing before, this point over {}{}",
            window(from_s, figure.seconds as u64),
            window(ramp_s, end_s),
            if wrote_before { " after the sweep's earlier writes" } else { "" }
        ));
    }
    why
}

/// "random-read, 4 KiB at queue depth 8" (with the number of jobs when there are several).
fn work_words(figure: &RunConfig, phase: &Phase) -> String {
    let jobs = match phase.jobs.len() {
        1 => String::new(),
        n => format!("{} jobs of ", n),
    };
    format!("{}{}, {} at queue depth {}", jobs, figure.workload.id, kib(figure.block_bytes), figure.queue_depth)
}

/// The number in `column` of the row with these labels, once the table has it.
fn cell(table: &Table, labels: &BTreeMap<&'static str, Value>, column: &str) -> Option<f64> {
    let index = |name: &str| table.columns.iter().position(|c| c == name);
    let at = index(column)?;
    let keys: Vec<(usize, &Value)> = labels.iter().map(|(k, v)| Some((index(k)?, v))).collect::<Option<_>>()?;
    table.rows.iter().find(|row| keys.iter().all(|(i, v)| row.get(*i) == Some(*v)))?.get(at)?.as_f64()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::ExperimentRequest;

    fn plan(json: &str) -> (Vec<Point>, Table) {
        let (def, points) = ExperimentRequest::from_json(json).unwrap().plan().unwrap();
        let columns = def.columns.iter().map(|c| c.to_string()).collect();
        (points, Table { experiment: def.id.into(), columns, rows: Vec::new() })
    }

    /// A row of `table` with these cells (the others empty).
    fn row(table: &Table, cells: &[(&str, Value)]) -> Vec<Value> {
        table
            .columns
            .iter()
            .map(|c| cells.iter().find(|(n, _)| n == c).map_or(Value::Null, |(_, v)| v.clone()))
            .collect()
    }

    fn figure<'a>(all: &'a [TableEvidence], name: &str) -> &'a TableEvidence {
        all.iter().find(|f| f.figure.target.figure == name).unwrap_or_else(|| panic!("no figure '{}'", name))
    }

    fn at(corner: &str, qd: u32) -> Option<BTreeMap<&'static str, Value>> {
        Some(BTreeMap::from([("corner", Value::from(corner)), ("queue_depth", Value::from(qd))]))
    }

    #[test]
    fn the_p3700_sweep_in_the_articles_manner_places_its_qd_figures_and_judges_them_by_the_row() {
        let (points, mut table) = plan(r#"{"experiment":"four-corners","queue_depths":[1,8,128]}"#);
        let before = table_evidence(&points, &table, false);
        let qd8 = figure(&before, "4 KB random read QD8");
        assert_eq!((&qd8.row, qd8.column), (&at("random-read", 8), Some("iops")));
        assert_eq!((qd8.figure.simulated, qd8.figure.holds), (None, None), "no row yet");
        let steady = figure(&before, "4 KB random write steady state");
        assert_eq!(steady.row, at("random-write", 128), "{:?}", steady.figure.not_comparable);
        let latency = figure(&before, "4 KB random write QD128, average latency (us)");
        assert_eq!((&latency.row, latency.column), (&at("random-write", 128), Some("latency_mean_us")));
        // The 128 KB write figures are of seconds 5 to 10 of a fresh run: the sweep's points
        // last 60 s after a 10 s ramp, and QD4 follows QD1's writes.
        let write = figure(&before, "128 KB sequential write QD1");
        let why = write.figure.not_comparable.as_deref().unwrap();
        assert!(why.starts_with("duration: the figure is measured over seconds 5 to 10"), "{}", why);
        assert!(why.contains("this point over seconds 10 to 60"), "{}", why);

        // The rows: the random-read QD8 row (77,000 ± 15 % published) and a slow QD128 write.
        let cells = |corner: &str, qd: u32, iops: f64, latency: f64| {
            row(
                &table,
                &[
                    ("corner", corner.into()),
                    ("queue_depth", qd.into()),
                    ("iops", iops.into()),
                    ("latency_mean_us", latency.into()),
                ],
            )
        };
        let rows = [cells("random-read", 8, 72_000.0, 110.0), cells("random-write", 128, 90_000.0, 1_400.0)];
        table.rows.extend(rows);
        let after = table_evidence(&points, &table, false);
        let qd8 = figure(&after, "4 KB random read QD8");
        assert_eq!((qd8.figure.simulated, qd8.figure.holds), (Some(72_000.0), Some(true)));
        let steady = figure(&after, "4 KB random write steady state");
        assert_eq!((steady.figure.simulated, steady.figure.holds), (Some(90_000.0), Some(false)));
        let latency = figure(&after, "4 KB random write QD128, average latency (us)");
        assert_eq!((latency.figure.simulated, latency.figure.holds), (Some(1_400.0), Some(false)));
        assert_eq!(figure(&after, "4 KB random read QD1").figure.simulated, None, "its row is not in the table");
    }

    #[test]
    fn reads_compare_after_either_precondition_steady_writes_only_after_random_ones() {
        let (points, table) = plan(r#"{"experiment":"four-corners","queue_depths":[1,128],"precondition":"fill"}"#);
        let all = table_evidence(&points, &table, false);
        assert_eq!(figure(&all, "4 KB random read QD1").row, at("random-read", 1));
        let steady = figure(&all, "4 KB random write steady state");
        assert_eq!(steady.row, None);
        let why = steady.figure.not_comparable.as_deref().unwrap();
        assert!(
            why.contains("precondition: the figure's run starts after random writes over the span, this point starts from a sequential fill"),
            "{}",
            why
        );
    }

    #[test]
    fn a_sweep_over_half_the_drive_or_a_changed_design_compares_with_nothing_and_says_why() {
        let (points, table) = plan(
            r#"{"experiment":"four-corners","drive":"s3700-200","queue_depths":[1,8],"span":0.5,"set":{"gc.start_free_blocks":40}}"#,
        );
        let all = table_evidence(&points, &table, false);
        assert!(!all.is_empty() && all.iter().all(|f| f.row.is_none() && f.column.is_none()));
        let why = figure(&all, "4 KB random read QD1").figure.not_comparable.as_deref().unwrap();
        assert!(
            why.contains(
                "spare area: the figure's run tests 100 % of the drive, this experiment tests 50 % of the drive"
            ),
            "{}",
            why
        );
        assert!(
            why.contains(
                "design: the figure's run uses the preset as it is, this experiment changes its gc.start_free_blocks"
            ),
            "{}",
            why
        );
        let steady = figure(&all, "IO consistency from t = 1400 s: slowest second").figure.not_comparable.as_deref();
        assert!(
            steady.unwrap().starts_with("method: the figure is measured from a run's seconds (its min)"),
            "{:?}",
            steady
        );
    }

    #[test]
    fn a_figure_no_point_runs_names_its_work_and_an_array_figure_finds_its_array() {
        let (points, table) = plan(r#"{"experiment":"four-corners","drive":"s3700-200","queue_depths":[4]}"#);
        let qd1 = figure(&table_evidence(&points, &table, false), "4 KB random read QD1").figure.clone();
        assert_eq!(
            qd1.not_comparable.as_deref(),
            Some("workload: no point of this experiment runs the figure's random-read, 4 KiB at queue depth 1")
        );

        let (points, table) = plan(r#"{"experiment":"raid-scaling","drive_counts":[4,8]}"#);
        let raid =
            figure(&table_evidence(&points, &table, false), "RAID 0 of 4, 4 KB random read, 32 threads x QD32").clone();
        let expected = BTreeMap::from([
            ("drives", Value::from(4)),
            ("corner", Value::from("random-read")),
            ("queue_depth", Value::from(32)),
        ]);
        assert_eq!(raid.row, Some(expected), "{:?}", raid.figure.not_comparable);
    }

    #[test]
    fn a_whole_drive_fill_is_judged_from_its_seconds_once_it_is_done() {
        let (points, mut table) = plan(r#"{"experiment":"whole-drive-fill","drive":"980pro-1000"}"#);
        // 30 s at 4,000 MB/s (120 GB), then 1,500 MB/s.
        let (mut gb, mut put) = (0.0, Vec::new());
        for second in 0..130 {
            let mb_s: f64 = if second < 30 { 4000.0 } else { 1500.0 };
            gb += mb_s / 1e3;
            put.push((second, mb_s, gb));
        }
        for (second, mb_s, gb) in put {
            let cells = row(&table, &[("second", second.into()), ("mb_s", mb_s.into()), ("gb_written", gb.into())]);
            table.rows.push(cells);
        }
        let running = table_evidence(&points, &table, false);
        let speed = figure(&running, "TPU fill: SLC-cache speed");
        assert_eq!((speed.row.as_ref().map(|r| r.len()), speed.column), (Some(0), None), "the table's seconds");
        assert_eq!(speed.figure.simulated, None, "no verdict before the fill ends");

        let done = table_evidence(&points, &table, true);
        let speed = figure(&done, "TPU fill: SLC-cache speed");
        assert_eq!((speed.figure.simulated, speed.figure.holds), (Some(4000.0), Some(true)));
        let end = figure(&done, "TPU fill: end of the SLC cache");
        assert_eq!((end.figure.simulated, end.figure.holds), (Some(120.0), Some(true)));
        let at = figure(&done, "AT fill: SLC-cache speed at QD32");
        assert_eq!(
            at.figure.not_comparable.as_deref(),
            Some("queue depth: the figure's run is at queue depth 32, this experiment at 1")
        );
        // A dirty-recovery run of the figure's one state gives a row, not the figure's seconds.
        let (points, table) =
            plan(r#"{"experiment":"dirty-recovery","dirty_seconds":1800,"states":["trimmed"],"rest_seconds":[1800]}"#);
        let trimmed = table_evidence(&points, &table, true);
        let why = figure(&trimmed, "after TRIM and 30 min idle: sequential write").figure.not_comparable.clone();
        assert!(why.unwrap().starts_with("method: the figure is measured over its run's seconds; this table"));
        // A four-corners sweep of the same drive is not the fill the figure comes from.
        let (points, table) = plan(r#"{"experiment":"four-corners","drive":"980pro-1000","queue_depths":[1]}"#);
        let other = table_evidence(&points, &table, true);
        assert_eq!(
            figure(&other, "TPU fill: SLC-cache speed").figure.not_comparable.as_deref(),
            Some("method: the figure comes from one run of the whole-drive-fill experiment")
        );
    }
}
