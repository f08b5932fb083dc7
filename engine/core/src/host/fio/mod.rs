//! fio job files as the simulator's workload: `[global]` and job sections become phases of jobs
//! (`stonewall` starts the next phase), each job a `JobSpec` (numjobs clones are separate jobs),
//! with what fio would report and log about it. Nothing is dropped silently: options that do
//! not change the drive's workload are listed as ignored, those the simulator cannot honour as
//! unsupported, each with its line; a malformed line is an error naming it.
//!
//! The file is read into sections (`sections.rs`); each job section into a job (`job.rs`), each
//! option by the part of the job it sets: what it issues (`rw.rs`), where (`positions.rs`), how
//! fast (`pace.rs`), for how long (`limits.rs`), in which zones (`zones.rs`), under which
//! placement handles (`fdp.rs`) and what is reported and logged about it (`logs.rs`); the jobs
//! into phases (`phases.rs`). The option table is `options.rs`, fio's
//! value syntax `values.rs`.

mod fdp;
mod job;
mod limits;
mod logs;
mod options;
mod pace;
mod phases;
mod positions;
mod rw;
mod sections;
mod values;
mod zones;

use std::collections::{BTreeMap, BTreeSet};

use crate::config::{BlockSizes, DriveConfig, JobSpec, Phase, PlacementConfig, ZonedConfig};
use crate::units::ConfigError;
pub use logs::{Logs, SteadyState, DEFAULT_PERCENTILES};
pub use options::{Class, OPTIONS};
pub use sections::{includes_of, MAX_INCLUDE_DEPTH};
use sections::{Opt, Section};

/// A job file read for a drive: the phases to run and what to report about each job.
#[derive(Debug, Clone, PartialEq)]
pub struct FioJobFile {
    pub phases: Vec<Phase>,
    /// What fio reports and logs about each job, `jobs[phase][job]` as in `phases`.
    pub jobs: Vec<Vec<FioJob>>,
    /// The `[global]` options as written (fio's JSON "global options").
    pub global_options: Vec<(String, String)>,
    /// From `buffer_compress_percentage`, as a fraction.
    pub compressibility: Option<f64>,
    pub report: ImportReport,
}

/// One job as fio reports it.
#[derive(Debug, Clone, PartialEq)]
pub struct FioJob {
    pub name: String,
    /// 1-based across the file, clones counted: the `x` of fio's `name_iops.x.log`.
    pub number: u32,
    /// Reporting group (a new one at each stonewall or new_group).
    pub group: u32,
    pub group_reporting: bool,
    /// The job section's own options as written (fio's JSON "job options").
    pub options: Vec<(String, String)>,
    /// Commands the job keeps outstanding, as it runs.
    pub iodepth: u32,
    pub logs: Logs,
    pub steadystate: Option<SteadyState>,
    pub percentiles: Vec<f64>,
    /// Windows for the bandwidth and IOPS samples (bw_min, iops_mean...), ms.
    pub bw_avg_ms: u64,
    pub iops_avg_ms: u64,
}

/// What the import could not take as written.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ImportReport {
    /// Options that do not change the workload the drive sees.
    pub ignored: Vec<Note>,
    /// Options the simulator cannot honour (the run goes on without them).
    pub unsupported: Vec<Note>,
    /// How an option was read where that is not obvious (fio's own rules).
    pub notes: Vec<Note>,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Note {
    pub line: usize,
    /// `key=value` as written.
    pub option: String,
    pub message: String,
}

impl ImportReport {
    /// One line per entry, for the command line.
    pub fn lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (kind, notes) in [("ignored", &self.ignored), ("unsupported", &self.unsupported), ("note", &self.notes)] {
            for n in notes {
                // Line 0: about the run request, not a line of the file.
                let at = if n.line == 0 { String::new() } else { format!("line {}: ", n.line) };
                out.push(format!("{}: {}{}: {}", kind, at, n.option, n.message));
            }
        }
        out
    }

    pub fn to_json(&self) -> serde_json::Value {
        let list = |notes: &[Note]| -> serde_json::Value {
            notes
                .iter()
                .map(|n| serde_json::json!({ "line": n.line, "option": n.option, "message": n.message }))
                .collect()
        };
        serde_json::json!({
            "ignored": list(&self.ignored),
            "unsupported": list(&self.unsupported),
            "notes": list(&self.notes),
        })
    }
}

impl FioJobFile {
    /// How long the phases run, if every phase has a runtime (ns).
    pub fn planned_ns(&self) -> Option<u64> {
        self.phases.iter().try_fold(0u64, |sum, p| (p.runtime_ns > 0).then(|| sum.saturating_add(p.runtime_ns)))
    }

    /// The import as JSON: the phases and jobs it made and the report.
    pub fn to_json(&self) -> serde_json::Value {
        let phases: Vec<serde_json::Value> = self
            .phases
            .iter()
            .zip(&self.jobs)
            .map(|(p, jobs)| {
                let jobs: Vec<serde_json::Value> = p.jobs.iter().zip(jobs).map(|(s, f)| job_json(s, f)).collect();
                serde_json::json!({
                    "name": p.name,
                    "runtime_s": p.runtime_ns as f64 / 1e9,
                    "ramp_s": p.ramp_ns as f64 / 1e9,
                    "jobs": jobs,
                })
            })
            .collect();
        let mut m = serde_json::json!({ "phases": phases, "compressibility": self.compressibility });
        if let (Some(obj), serde_json::Value::Object(report)) = (m.as_object_mut(), self.report.to_json()) {
            obj.extend(report);
        }
        m
    }
}

fn sizes_text(b: &BlockSizes) -> String {
    b.entries.iter().map(|(s, w)| format!("{}/{}", s, w)).collect::<Vec<_>>().join(":")
}

fn job_json(s: &JobSpec, f: &FioJob) -> serde_json::Value {
    serde_json::json!({
        "name": f.name,
        "number": f.number,
        "group": f.group,
        "read_percent": s.read_percent,
        "trim_percent": s.trim_percent,
        "random_percent": s.random_percent,
        "read_sizes": sizes_text(&s.read_sizes),
        "write_sizes": sizes_text(&s.write_sizes),
        "align_bytes": s.align_bytes,
        "queue_depth": s.queue_depth,
        "offset_bytes": s.offset_bytes,
        "size_bytes": s.size_bytes,
        "io_limit_bytes": s.io_limit_bytes,
        "distribution": format!("{:?}", s.distribution),
        "random_map": s.random_map,
        "rate_iops": s.rate_iops,
        "thinktime_us": s.thinktime_ns / 1000,
        "steadystate": f.steadystate.as_ref().map(|s| s.text.clone()),
    })
}

/// Notes gathered while reading options; a global option read for every job is noted once.
#[derive(Default)]
struct Notes {
    ignored: BTreeSet<Note>,
    unsupported: BTreeSet<Note>,
    notes: BTreeSet<Note>,
}

impl Notes {
    fn ignored(&mut self, o: &Opt, m: &str) {
        self.ignored.insert(o.note(m));
    }
    fn unsupported(&mut self, o: &Opt, m: &str) {
        self.unsupported.insert(o.note(m));
    }
    fn note(&mut self, o: &Opt, m: &str) {
        self.notes.insert(o.note(m));
    }
}

/// What the import needs of the drive the job file runs on.
#[derive(Debug, Clone, Default)]
pub struct Device {
    /// The tested span the jobs' positions fall in, bytes.
    pub span_bytes: u64,
    /// The drive's id, for messages.
    pub id: String,
    /// Its zones (fio's `zonemode=zbd` writes them), if it is zoned.
    pub zoned: Option<ZonedConfig>,
    /// Its placement handles (fio's `fdp`, `dataplacement`), if it has them.
    pub placement: Option<PlacementConfig>,
    /// Its host link's payload rate, MB/s (0: not known): the least time a job's bytes take.
    pub link_mb_s: u64,
}

impl Device {
    /// `drive` over a tested span of `span_bytes`.
    pub fn of(drive: &DriveConfig, span_bytes: u64) -> Self {
        Device {
            span_bytes,
            id: drive.id.clone(),
            zoned: drive.zoned.clone(),
            placement: drive.placement.clone(),
            link_mb_s: drive.host.link_mb_s,
        }
    }
}

/// Reads a job file for a conventional drive without placement handles whose tested span is
/// `span_bytes`.
pub fn import(text: &str, span_bytes: u64) -> Result<FioJobFile, ConfigError> {
    import_for(text, &Device { span_bytes, id: "the drive".into(), ..Device::default() })
}

/// Reads a job file for `device`: its zones and placement handles are what fio's zone and data
/// placement options use.
pub fn import_for(text: &str, device: &Device) -> Result<FioJobFile, ConfigError> {
    import_including(text, &BTreeMap::new(), device)
}

/// Reads a job file for `device` with the files it includes (`include NAME`), by name.
pub fn import_including(
    text: &str,
    includes: &BTreeMap<String, String>,
    device: &Device,
) -> Result<FioJobFile, ConfigError> {
    let mut report = ImportReport::default();
    let sections = sections::read(text, includes)?;
    classify(&sections, &mut report);
    for name in sections::unused_includes(text, includes) {
        let message = "given with the job file, but no include line names it: not read".to_string();
        report.notes.push(Note { line: 0, option: name.to_string(), message });
    }
    // The [global] options as written (fio's JSON "global options").
    let global_options = sections.iter().filter(|s| s.is_global()).flat_map(|s| s.written()).collect();
    let mut notes = Notes::default();
    // A header run onto the end of an option's line (`group_reporting=1[nvme0]`) hides its job.
    let glued = sections.iter().flat_map(|s| &s.options).find(|o| o.value.ends_with(']') && o.value.contains('['));
    let glued = glued.map(|o| {
        o.error("holds a section header at its end; a header such as [job1] starts a line of its own").message
    });
    let jobs = job::jobs(sections, device, &mut notes)?;
    if jobs.is_empty() {
        let hint = glued.map_or(String::new(), |g| format!(" ({})", g));
        return Err(ConfigError::new(
            "fio",
            format!("the job file has no job: add a section such as [job1] after [global]{}", hint),
        ));
    }
    let phased = phases::phases(jobs, device.link_mb_s, &mut notes);

    report.ignored.extend(notes.ignored);
    report.unsupported.extend(notes.unsupported);
    report.notes.extend(notes.notes);
    for list in [&mut report.ignored, &mut report.unsupported, &mut report.notes] {
        list.sort();
        list.dedup();
    }
    Ok(FioJobFile {
        phases: phased.phases,
        jobs: phased.jobs,
        global_options,
        compressibility: phased.compressibility,
        report,
    })
}

/// Every option as honoured, ignored (with why), unsupported (with what is missing) or not
/// fio's (with the nearest option's name).
fn classify(sections: &[Section], report: &mut ImportReport) {
    for o in sections.iter().flat_map(|s| &s.options) {
        match options::class(&o.key) {
            Some(Class::Honoured) => {}
            Some(Class::Ignored(why)) => report.ignored.push(o.note(why)),
            Some(Class::Unsupported(why)) => report.unsupported.push(o.note(why)),
            None => report.unsupported.push(o.note(match options::nearest(&o.key) {
                Some(near) => format!("not an option of fio 3.33 (did you mean {}?)", near),
                None => "not an option of fio 3.33".to_string(),
            })),
        }
    }
}

#[cfg(test)]
mod testing {
    use super::Note;

    /// A drive's tested span for the tests: 100 GiB.
    pub const SPAN: u64 = 100 << 30;

    /// Each entry's line and option.
    pub fn notes_of(list: &[Note]) -> Vec<(usize, &str)> {
        list.iter().map(|n| (n.line, n.option.as_str())).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::testing::{notes_of, SPAN};
    use super::*;
    use crate::config::Distribution;
    use crate::units::NS_PER_S;

    #[test]
    fn a_two_phase_file_becomes_phases_of_jobs() {
        let f = import(
            "; comment\n[global]\nioengine=libaio\ndirect=1\nbs=4k\nsize=1g\nruntime=30\ntime_based\n\n\
             [writes]\nrw=randwrite\niodepth=32\nnumjobs=2\nwrite_iops_log=w\nlog_avg_msec=1000\n\n\
             [reads]\nstonewall\nrw=randrw\nrwmixread=70\nbssplit=4k/50:64k/\noffset=10%\nramp_time=5\n",
            SPAN,
        )
        .unwrap();
        assert_eq!(f.phases.len(), 2);
        let w = &f.phases[0].jobs;
        assert_eq!(w.len(), 2);
        assert_eq!((w[0].read_percent, w[0].random_percent, w[0].queue_depth), (0, 100, 32));
        assert_eq!((w[0].size_bytes, w[0].io_limit_bytes), (1 << 30, 0));
        assert_eq!(f.phases[0].runtime_ns, 30 * NS_PER_S);
        let r = &f.phases[1].jobs[0];
        assert_eq!(r.read_percent, 70);
        assert_eq!(r.read_sizes.entries, vec![(4096, 50), (65536, 50)]);
        assert_eq!(r.offset_bytes, SPAN / 10);
        // psync is fio's default but libaio is set globally: queue depth 1 is the default.
        assert_eq!(r.queue_depth, 1);
        assert_eq!((f.phases[1].runtime_ns, f.phases[1].ramp_ns), (35 * NS_PER_S, 5 * NS_PER_S));
        let meta = &f.jobs[0][1];
        assert_eq!((meta.number, meta.group, meta.logs.avg_msec), (2, 0, 1000));
        assert_eq!(meta.logs.file_name(meta.logs.iops.as_deref().unwrap(), "iops", meta.number), "w_iops.2.log");
        assert_eq!((f.jobs[1][0].number, f.jobs[1][0].group), (3, 1));
        assert_eq!(notes_of(&f.report.ignored), vec![(3, "ioengine=libaio"), (4, "direct=1")]);
        assert!(f.report.unsupported.is_empty(), "{:?}", f.report.unsupported);
        assert_eq!(f.global_options[0], ("ioengine".into(), "libaio".into()));
    }

    #[test]
    fn what_cannot_be_honoured_is_reported_by_line() {
        let f = import(
            "[global]\nverify=crc32c\niodpeth=4\nbs=${BS}\n[a]\nrw=read:8k\nrandom_distribution=zipf:1.2:0.5\n\
             iodepth=8\nrate_iops=100,\n",
            SPAN,
        )
        .unwrap();
        let unsupported = notes_of(&f.report.unsupported);
        assert_eq!(
            unsupported,
            vec![
                (2, "verify=crc32c"),
                (3, "iodpeth=4"),
                (4, "bs=${BS}"),
                (6, "rw=read:8k"),
                (7, "random_distribution=zipf:1.2:0.5")
            ]
        );
        assert!(f.report.unsupported[1].message.contains("did you mean iodepth"));
        // psync by default: one command in flight, said on the iodepth line.
        assert_eq!(f.phases[0].jobs[0].queue_depth, 1);
        assert!(f.report.notes.iter().any(|n| n.line == 8 && n.message.contains("psync")), "{:?}", f.report.notes);
        assert_eq!(f.phases[0].jobs[0].distribution, Distribution::Zipf(1.2));
        // rate_iops=100, limits reads only; this is a read job so it applies.
        assert_eq!(f.phases[0].jobs[0].rate_iops, 100);
    }

    #[test]
    fn a_file_without_a_job_is_an_error() {
        let err = import("[global]\nbs=4k\n; [job1]\n", SPAN).unwrap_err();
        assert_eq!((err.field.as_str(), err.message.starts_with("the job file has no job")), ("fio", true));
        // IBM/ocp4-power-workload-tools scripts/run-fio.sh writes its job's header onto the
        // end of the last [global] line (`group_reporting=1[nvme0]`, then filename=...).
        let err = import("[global]\nbs=256k\ngroup_reporting=1[nvme0]\nfilename=/dev/x\n", SPAN).unwrap_err();
        assert_eq!(
            err.message,
            "the job file has no job: add a section such as [job1] after [global] (line 3: group_reporting=1[nvme0]: \
             holds a section header at its end; a header such as [job1] starts a line of its own)"
        );
    }
}
