//! The file's jobs made into phases: each `stonewall` starts the next phase (and reporting
//! group, as `new_group` does); the jobs of a phase run together, share one runtime and ramp
//! and are judged together, and the run has one compressibility. Where that differs from what
//! fio would do, the line that asked for it is reported.

use super::job::Job;
use super::sections::Opt;
use super::{FioJob, Notes};
use crate::config::Phase;

/// The phases to run, what fio reports about each job (`[phase][job]`) and the data's
/// compressibility (`buffer_compress_percentage`, as a fraction).
pub(super) struct Phased {
    pub phases: Vec<Phase>,
    pub jobs: Vec<Vec<FioJob>>,
    pub compressibility: Option<f64>,
}

/// Makes `jobs` (in the file's order) into phases; `link_mb_s` is the drive's link rate (0: not
/// known).
pub(super) fn phases(jobs: Vec<Job>, link_mb_s: u64, notes: &mut Notes) -> Phased {
    let compressibility = compressibility(&jobs, notes);
    let mut phases = Vec::new();
    let mut metas = Vec::new();
    for jobs in grouped(jobs) {
        let runtime_ns = jobs.iter().map(|j| j.limit_ns).max().unwrap_or(0);
        let ramp_ns = jobs.iter().map(|j| j.ramp_ns).max().unwrap_or(0);
        check(&jobs, runtime_ns, ramp_ns, notes);
        if runtime_ns == 0 {
            ramp_within_bytes(&jobs, ramp_ns, link_mb_s, notes);
        }
        phases.push(Phase {
            name: jobs[0].meta[0].name.clone(),
            jobs: jobs.iter().flat_map(|j| j.specs.iter().cloned()).collect(),
            runtime_ns,
            ramp_ns,
        });
        metas.push(jobs.into_iter().flat_map(|j| j.meta).collect());
    }
    Phased { phases, jobs: metas, compressibility }
}

/// The jobs of each phase, numbered by reporting group: each stonewall starts the next phase;
/// reporting groups also start at new_group.
fn grouped(jobs: Vec<Job>) -> Vec<Vec<Job>> {
    let mut grouped: Vec<Vec<Job>> = Vec::new();
    let mut group = 0;
    for (i, mut job) in jobs.into_iter().enumerate() {
        if i > 0 && (job.stonewall || job.new_group) {
            group += 1;
        }
        for m in &mut job.meta {
            m.group = group;
        }
        match grouped.last_mut() {
            Some(phase) if !job.stonewall => phase.push(job),
            _ => grouped.push(vec![job]),
        }
    }
    grouped
}

/// What a phase's jobs asked for that running them together changes.
fn check(jobs: &[Job], runtime_ns: u64, ramp_ns: u64, notes: &mut Notes) {
    if runtime_ns > 0 && jobs.iter().any(|j| j.limit_ns != runtime_ns) {
        if let Some(o) = jobs.iter().find_map(|j| j.runtime_line.as_ref()) {
            notes.unsupported(
                o,
                &format!(
                    "jobs that run together end together: this phase runs {} s (fio stops each job at its own \
                     runtime or size)",
                    runtime_ns as f64 / 1e9
                ),
            );
        }
    }
    if jobs.iter().map(|j| j.specs.len()).sum::<usize>() > 1 {
        if let Some(o) = jobs.iter().find_map(|j| j.alone_ss_line.as_ref()) {
            notes.unsupported(
                o,
                "the phase's jobs are judged together and stop together (fio judges each job alone unless \
                 group_reporting is set)",
            );
        }
    }
    if jobs.iter().any(|j| j.ramp_ns != ramp_ns) {
        if let Some(o) = jobs.iter().find_map(|j| j.ramp_line.as_ref()) {
            notes.unsupported(o, "jobs that run together share one ramp: the longest applies to all");
        }
    }
}

/// A phase that ends with its bytes (no runtime) may move them all within its ramp: fio counts
/// no I/O until ramp_time is over (io_u.c, should_account), so it would measure nothing. With a
/// runtime fio adds the ramp ahead of it (HOWTO, ramp_time: "lead in time"), so only this case
/// can end inside the ramp; said when even the drive's link moves the bytes within it.
fn ramp_within_bytes(jobs: &[Job], ramp_ns: u64, link_mb_s: u64, notes: &mut Notes) {
    let Some(o) = jobs.iter().find_map(|j| j.ramp_line.as_ref()) else { return };
    let bytes: u64 = jobs.iter().flat_map(|j| &j.specs).map(|s| s.io_limit_bytes).sum();
    if link_mb_s == 0 || ramp_ns == 0 || bytes == 0 {
        return;
    }
    // MB/s is bytes per microsecond.
    let least_ns = (bytes as u128 * 1000 / link_mb_s as u128) as u64;
    if least_ns < ramp_ns {
        notes.note(
            o,
            &format!(
                "the phase ends after its {:.1} MB, which the drive's link moves in as little as {:.2} s: if they \
                 are done within the {} s ramp, nothing is measured (fio counts no I/O during ramp_time; keep it \
                 below the time the bytes take, or give time_based and a runtime)",
                bytes as f64 / 1e6,
                least_ns as f64 / 1e9,
                ramp_ns as f64 / 1e9
            ),
        );
    }
}

/// The run's compressibility: the first job's that sets one, at most 90 %.
fn compressibility(jobs: &[Job], notes: &mut Notes) -> Option<f64> {
    let mut first: Option<&(u32, Opt)> = None;
    for j in jobs {
        match (first, &j.compress) {
            (None, Some(c)) => first = Some(c),
            (Some((first, _)), Some((pct, o))) if pct != first => notes.unsupported(
                o,
                &format!("the drive's data has one compressibility per run: {}% applies to every job", first),
            ),
            _ => {}
        }
    }
    first.map(|(pct, o)| {
        if *pct > 90 {
            notes.note(o, "the model compresses data by at most 90 %");
        }
        (*pct).min(90) as f64 / 100.0
    })
}

#[cfg(test)]
mod tests {
    use crate::host::fio::testing::{notes_of, SPAN};
    use crate::host::fio::{import, import_for, Device};

    #[test]
    fn stonewalls_start_phases_and_new_group_reporting_groups() {
        let f = import(
            "[a]\nbuffer_compress_percentage=95\n[b]\nnew_group\nbuffer_compress_percentage=50\n\
             [c]\nstonewall\n[d]\nwait_for_previous\n",
            SPAN,
        )
        .unwrap();
        assert_eq!(f.phases.iter().map(|p| p.jobs.len()).collect::<Vec<_>>(), [2, 1, 1]);
        let groups: Vec<u32> = f.jobs.iter().flatten().map(|m| m.group).collect();
        assert_eq!(groups, [0, 1, 2, 3]);
        assert_eq!((f.phases[0].name.as_str(), f.phases[2].name.as_str()), ("a", "d"));
        assert_eq!(f.compressibility, Some(0.9));
        assert_eq!(notes_of(&f.report.unsupported), vec![(5, "buffer_compress_percentage=50")]);
        assert_eq!(notes_of(&f.report.notes), vec![(2, "buffer_compress_percentage=95")]);
    }

    // The shape of fio jobs that pair ramp_time with a size and no runtime (e.g. a 30 s ramp
    // before a 1 GB sequential fill): the bytes may be gone before the ramp is.
    #[test]
    fn a_ramp_longer_than_the_bytes_can_take_is_said() {
        let device = Device { span_bytes: SPAN, link_mb_s: 500, ..Device::default() };
        let notes = |text: &str| import_for(text, &device).unwrap().report.notes;
        // 1 GB at 500 MB/s: 2 s at the least, within a 30 s ramp.
        let n = notes("[a]\nrw=write\nbs=1m\nsize=1000m\nramp_time=30\n");
        assert_eq!(notes_of(&n), vec![(5, "ramp_time=30")]);
        assert!(
            n[0].message.contains("1048.6 MB, which the drive's link moves in as little as 2.10 s"),
            "{}",
            n[0].message
        );
        // Longer than the ramp at the link's rate, or time-based: no note.
        assert!(notes("[a]\nrw=write\nbs=1m\nsize=20g\nramp_time=30\n").is_empty());
        assert!(notes("[a]\nrw=write\nsize=1m\nruntime=10\ntime_based\nramp_time=30\n").is_empty());
        assert!(notes("[a]\nrw=write\nsize=1m\nruntime=10\nramp_time=30\n").is_empty());
    }
}
