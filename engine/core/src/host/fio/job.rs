//! One job section read into jobs ready to run: the `[global]` options before it and its own,
//! each read by the part of the job it sets (`rw.rs`, `positions.rs`, `pace.rs`, `limits.rs`,
//! `logs.rs`, `zones.rs`, `fdp.rs`), then made into a `JobSpec` and a `FioJob` per clone
//! (`numjobs`).

use super::fdp::DataPlacement;
use super::limits::Limits;
use super::logs::Reporting;
use super::options::{self, Class};
use super::pace::Pace;
use super::positions::Positions;
use super::rw::Commands;
use super::sections::{Opt, Section, Seen};
use super::values;
use super::zones::{self, ZoneOptions};
use super::{Device, FioJob, Notes};
use crate::config::JobSpec;
use crate::units::{ConfigError, MAX_JOBS};

/// One job of the file with its clones, ready to run.
pub(super) struct Job {
    pub specs: Vec<JobSpec>,
    pub meta: Vec<FioJob>,
    pub stonewall: bool,
    pub new_group: bool,
    /// Ends this long after its phase starts (ramp included), ns; 0: no time limit.
    pub limit_ns: u64,
    pub ramp_ns: u64,
    pub compress: Option<(u32, Opt)>,
    /// The lines of runtime and ramp_time, for notes about the phase.
    pub runtime_line: Option<Opt>,
    pub ramp_line: Option<Opt>,
    /// The steadystate line when the job judges its steady state alone (no group_reporting).
    pub alone_ss_line: Option<Opt>,
    /// The create_only line when it is set: the job runs no I/O.
    pub create_only: Option<Opt>,
}

/// The jobs of the file, in order. Each job reads the global options before it, then its
/// own; errors name the line.
pub(super) fn jobs(sections: Vec<Section>, device: &Device, notes: &mut Notes) -> Result<Vec<Job>, ConfigError> {
    let mut global: Vec<Opt> = Vec::new();
    let mut jobs: Vec<Job> = Vec::new();
    let mut number = 0;
    // A job left out (create_only) passes its stonewall and new_group to the next: fio starts
    // the jobs after it with it.
    let (mut stonewall, mut new_group) = (false, false);
    let mut create_only = None;
    for section in sections {
        if section.is_global() {
            global.extend(section.options);
            continue;
        }
        let mut build = Build::new(&section.name);
        let honoured = honoured(&global, &section.options, notes);
        // kb_base changes how every size reads, wherever it stands.
        for o in honoured.iter().filter(|o| o.key == "kb_base").chain(honoured.iter().filter(|o| o.key != "kb_base")) {
            build.apply(o, notes)?;
        }
        let mut job = build.finish(section.written(), device, number, notes)?;
        number += job.specs.len() as u32;
        if let Some(o) = job.create_only.take() {
            notes.note(&o, "fio only lays out the job's files and runs none of its I/O: the job is left out");
            (stonewall, new_group) = (stonewall || job.stonewall, new_group || job.new_group);
            create_only.get_or_insert(o);
            continue;
        }
        job.stonewall |= std::mem::take(&mut stonewall);
        job.new_group |= std::mem::take(&mut new_group);
        jobs.push(job);
    }
    match create_only {
        Some(o) if jobs.is_empty() => {
            Err(o.error("every job only lays out its files (fio runs no I/O): there is nothing to run"))
        }
        _ => Ok(jobs),
    }
}

/// The options a job reads, in order: the honoured ones whose value fio would not have to
/// expand or evaluate first.
fn honoured<'a>(global: &'a [Opt], own: &'a [Opt], notes: &mut Notes) -> Vec<&'a Opt> {
    global
        .iter()
        .chain(own)
        .filter(|o| options::class(&o.key) == Some(Class::Honoured))
        .filter(|o| {
            let evaluate = values::needs_evaluation(&o.value);
            if evaluate {
                notes.unsupported(
                    o,
                    "fio would expand or evaluate this value; the simulator cannot: fio's default applies",
                );
            }
            !evaluate
        })
        .collect()
}

/// The job as its options set it, before clones and the span are applied.
#[derive(Debug, Clone)]
struct Build {
    /// Every option read, in order (for notes about the line that set something).
    seen: Seen,
    name: String,
    numjobs: u32,
    kb_base: u64,
    compress: Option<u32>,
    commands: Commands,
    positions: Positions,
    pace: Pace,
    limits: Limits,
    reporting: Reporting,
    zones: ZoneOptions,
    placement: DataPlacement,
}

impl Build {
    fn new(name: &str) -> Self {
        Build {
            seen: Seen::default(),
            name: name.to_string(),
            numjobs: 1,
            kb_base: 1024,
            compress: None,
            commands: Commands::default(),
            positions: Positions::default(),
            pace: Pace::default(),
            limits: Limits::default(),
            reporting: Reporting::default(),
            zones: ZoneOptions::default(),
            placement: DataPlacement::default(),
        }
    }

    /// Reads one honoured option; `notes` collects what needs saying about it.
    fn apply(&mut self, o: &Opt, notes: &mut Notes) -> Result<(), ConfigError> {
        self.seen.push(o);
        let v = o.value.as_str();
        let kb = self.kb_base;
        let err = |m: String| o.error(m);
        match o.key.as_str() {
            "name" => self.name = v.to_string(),
            "numjobs" => {
                let n = values::int(v).map_err(err)?;
                if !(1..=MAX_JOBS as u64).contains(&n) {
                    return Err(err(format!("must be between 1 and {}", MAX_JOBS)));
                }
                self.numjobs = n as u32;
            }
            "kb_base" => {
                self.kb_base = match values::int(v).map_err(err)? {
                    b @ (1000 | 1024) => b,
                    _ => return Err(err("allowed: 1024 (fio's default) or 1000".into())),
                }
            }
            "buffer_compress_percentage" => self.compress = Some(values::percent(v).map_err(err)?),
            other => {
                let read = self.commands.apply(o, kb, notes)?
                    || self.positions.apply(o, kb, notes)?
                    || self.pace.apply(o, kb, notes)?
                    || self.limits.apply(o, kb)?
                    || self.reporting.apply(o)?
                    || self.zones.apply(o, kb)?
                    || self.placement.apply(o)?;
                if !read {
                    return Err(err(format!("the import has no reader for '{}' (a bug: please report it)", other)));
                }
            }
        }
        Ok(())
    }

    /// The job with its clones on `device` (its tested span, zones and placement handles);
    /// `number` counts the file's jobs before it.
    fn finish(
        mut self,
        options: Vec<(String, String)>,
        device: &Device,
        number: u32,
        notes: &mut Notes,
    ) -> Result<Job, ConfigError> {
        let span_bytes = device.span_bytes;
        let zone_bytes = self.zones.zone_bytes(device);
        self.positions.in_zones(zone_bytes, &self.seen)?;
        self.limits.in_zones(zone_bytes, &self.seen)?;
        let seen = &self.seen;
        let mut mix = self.commands.finish(seen, notes);
        let queue_depth = self.pace.queue_depth(seen, notes);
        let thinktime_ns = self.pace.think_ns(queue_depth, seen, notes);
        let rate_iops = self.pace.rate(&mut mix, seen, notes);
        let placed = self.positions.finish(&mix, span_bytes, seen, notes);
        self.limits.check(seen, notes);
        let (steadystate, logs) = self.reporting.finish(&self.name, seen, notes);
        let zone_mode = self.zones.finish(&mix, device, seen, notes)?;
        let placement = self.placement.finish(device, seen, notes)?;

        let mut specs = Vec::new();
        let mut meta = Vec::new();
        for clone in 0..self.numjobs {
            let (mut start, mut range) = placed.range(clone, span_bytes, seen, notes);
            let mut sized = placed.size.is_some();
            if let Some(m) = &zone_mode {
                (start, range) = zones::align(m, start, range, seen, notes)?;
                sized = true;
            }
            specs.push(JobSpec {
                name: self.name.clone(),
                read_percent: mix.read_percent,
                trim_percent: mix.trim_percent,
                random_percent: placed.random_percent,
                read_sizes: mix.sizes[0].clone(),
                write_sizes: mix.sizes[1].clone(),
                align_bytes: mix.align_bytes as u32,
                queue_depth,
                offset_bytes: start,
                size_bytes: if sized { range } else { 0 },
                distribution: placed.distribution(range),
                random_map: placed.random_map,
                rate_iops,
                thinktime_ns,
                io_limit_bytes: self.limits.io_limit(range, span_bytes),
                trace: None,
                placement: placement.clone(),
                zones: zone_mode.clone(),
            });
            meta.push(FioJob {
                name: self.name.clone(),
                number: number + clone + 1,
                group: 0,
                group_reporting: self.reporting.group_reporting,
                options: options.clone(),
                iodepth: queue_depth,
                logs: logs.clone(),
                steadystate: steadystate.clone(),
                percentiles: self.reporting.percentiles.clone(),
                bw_avg_ms: self.reporting.avg_ms.0,
                iops_avg_ms: self.reporting.avg_ms.1,
            });
        }
        let alone_ss_line = steadystate.and(seen.line_of("steadystate").cloned());
        Ok(Job {
            specs,
            meta,
            stonewall: self.limits.stonewall,
            new_group: self.limits.new_group,
            limit_ns: self.limits.limit_ns(),
            ramp_ns: self.limits.ramp_ns,
            compress: self.compress.zip(seen.line_of("buffer_compress_percentage").cloned()),
            runtime_line: seen.line_of("runtime").cloned(),
            ramp_line: seen.line_of("ramp_time").cloned(),
            alone_ss_line: alone_ss_line.filter(|_| !self.reporting.group_reporting),
            create_only: seen.line_of("create_only").filter(|_| self.limits.create_only).cloned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::host::fio::import;
    use crate::host::fio::testing::{notes_of, SPAN};

    #[test]
    fn clones_number_on_and_global_options_come_first() {
        let f = import(
            "[global]\nbs=4KiB\nkb_base=1000\n[a]\nnumjobs=3\noffset_increment=1g\nname=w\nbs=${BS}\n[b]\nbs=8KiB\n",
            SPAN,
        )
        .unwrap();
        let jobs = &f.phases[0].jobs;
        assert_eq!(jobs.iter().map(|j| j.offset_bytes).collect::<Vec<_>>(), [0, 1_000_000_000, 2_000_000_000, 0]);
        let names: Vec<(&str, u32)> = f.jobs[0].iter().map(|m| (m.name.as_str(), m.number)).collect();
        assert_eq!(names, [("w", 1), ("w", 2), ("w", 3), ("b", 4)]);
        // kb_base applies wherever it stands (4KiB is 4096 bytes with kb_base=1000); a value fio
        // would expand keeps what was set before.
        assert_eq!((jobs[0].read_sizes.entries[0].0, jobs[3].read_sizes.entries[0].0), (4096, 8192));
        assert_eq!(notes_of(&f.report.unsupported), vec![(8, "bs=${BS}")]);
        assert_eq!(f.jobs[0][0].options[0], ("numjobs".into(), "3".into()));
        assert_eq!(f.global_options[1], ("kb_base".into(), "1000".into()));
    }

    // The shape of a Weka benchmark job file (fio_4k_mixed_70_30 after a [fio-createfiles-00]
    // job with create_only=1 and numjobs=200 in [global]): fio lays out the first job's files and
    // runs no I/O for it, so only the stonewalled job runs.
    #[test]
    fn a_create_only_job_runs_no_io_and_passes_on_its_stonewall() {
        let f = import(
            "[global]\nnumjobs=2\ntime_based=1\nruntime=180\n[create]\nbs=4k\ncreate_only=1\n\
             [mixed]\nstonewall\nrw=randrw\n",
            SPAN,
        )
        .unwrap();
        assert_eq!(f.phases.iter().map(|p| (p.name.as_str(), p.jobs.len())).collect::<Vec<_>>(), [("mixed", 2)]);
        assert_eq!(notes_of(&f.report.notes), vec![(7, "create_only=1")]);
        // Its stonewall still starts a phase for the jobs after it; create_only=0 runs.
        let f =
            import("[a]\nrw=write\n[b]\nstonewall\ncreate_only=1\n[c]\nrw=read\n[d]\ncreate_only=0\n", SPAN).unwrap();
        let names: Vec<Vec<&str>> = f.phases.iter().map(|p| p.jobs.iter().map(|j| j.name.as_str()).collect()).collect();
        assert_eq!(names, [vec!["a"], vec!["c", "d"]]);
        assert_eq!(
            import("[a]\ncreate_only=1\n", SPAN).unwrap_err().message,
            "line 2: create_only=1: every job only lays out its files (fio runs no I/O): there is nothing to run"
        );
    }

    #[test]
    fn malformed_values_are_errors_naming_the_line() {
        let err = |text: &str| import(text, SPAN).unwrap_err().message;
        assert!(err("[a]\nnumjobs=0\n").starts_with("line 2: numjobs=0: must be between 1 and"));
        assert!(err("[a]\nkb_base=512\n").contains("allowed: 1024 (fio's default) or 1000"));
    }
}
