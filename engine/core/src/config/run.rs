//! One run: a drive, a workload, how long, and what happens to it (power cuts, idle periods).

use super::{
    AppConfig, Distribution, DriveConfig, JobSpec, Phase, Placement, RaidConfig, WorkloadSpec, ZoneStoreConfig,
};
use crate::command::Op;
use crate::units::{range, real_range, ConfigError, MAX_JOBS, MAX_SECONDS, NS_PER_S, SECTOR_BYTES, UNIT_BYTES};

/// One run: a drive, a workload and how long.
#[derive(Debug, Clone, PartialEq)]
pub struct RunConfig {
    pub drive: DriveConfig,
    pub workload: WorkloadSpec,
    /// Bytes per request (a multiple of 512).
    pub block_bytes: u32,
    /// Random requests start at multiples of this many bytes (a multiple of 512).
    pub align_bytes: u32,
    /// How much the written data shrinks under compression: 0 (random data, the articles'
    /// tests) to 0.9. Matters only to a compressing controller.
    pub compressibility: f64,
    /// Simulated seconds to run.
    pub seconds: u32,
    /// Fraction of the user LBA span that is filled and tested; the rest stays unwritten and
    /// so acts as extra spare area (the articles' partition trick).
    pub span: f64,
    /// Host queue depth (outstanding commands the host keeps issued).
    pub queue_depth: u32,
    pub seed: u64,
    /// Moments at which power is cut, ns since the test began, ascending.
    pub power_cuts_ns: Vec<u64>,
    /// Fraction of the filled span TRIMmed after the fill (the workload runs over the rest).
    pub trim_fraction: f64,
    /// The host alternates `burst_s` seconds of work with `idle_s` seconds of nothing
    /// (idle_s = 0: it never rests).
    pub burst_s: u32,
    pub idle_s: u32,
    /// Identical jobs running the workload together, each at `queue_depth` (threads x QD [004]).
    pub threads: u32,
    /// The workload as phases of jobs (fio's vocabulary). Empty: one phase of `threads` jobs
    /// of the named workload at `block_bytes`, `align_bytes` and `queue_depth` for `seconds`.
    pub phases: Vec<Phase>,
    /// A RAID 0 array of `drive`s instead of one [004]; None: one drive, directly attached.
    pub raid: Option<RaidConfig>,
    /// What each drive holds when the test begins.
    pub precondition: Precondition,
    /// The workload's one job is an app writing through a host log-structured store on the
    /// zoned drive (None: the jobs' commands go to the drive as they are).
    pub zone_store: Option<ZoneStoreConfig>,
    /// The workload's one job runs a host app (a flash cache or an LSM tree) over the tested
    /// span, or through the zone store (None: the job's own commands).
    pub app: Option<AppConfig>,
}

/// What a drive holds when the test begins (after the secure erase).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Precondition {
    /// The tested span written once in order (the articles' preconditioning).
    Fill,
    /// Nothing: secure-erased only (reads of unwritten data return zeros without the NAND).
    None,
    /// The fill, then `passes` x the workload span of 4 KiB writes at random positions, applied
    /// to the FTL alone (no simulated time): garbage collection runs as it goes, so the test
    /// starts in the steady state of random writes without simulating the way there.
    Random { passes: f64 },
}

impl Precondition {
    pub const NAMES: &'static str = "fill, none or random";

    /// By name: "fill", "none" or "random" (with `passes`).
    pub fn by_name(name: &str, passes: f64) -> Result<Self, ConfigError> {
        match name {
            "fill" => Ok(Precondition::Fill),
            "none" => Ok(Precondition::None),
            "random" => Ok(Precondition::Random { passes }),
            _ => Err(ConfigError::new(
                "precondition",
                format!("unknown precondition '{}' (allowed: {})", name, Self::NAMES),
            )),
        }
    }
}

/// The smallest share of the user LBA span a run may fill.
pub const MIN_SPAN: f64 = 0.01;

impl RunConfig {
    /// `workload` on `drive` with the workload's own block size and queue depth, over the whole
    /// span, seed 1, for `seconds`; nothing else happens to the drive.
    pub fn new(drive: DriveConfig, workload: WorkloadSpec, seconds: u32) -> Self {
        RunConfig {
            drive,
            block_bytes: workload.block_bytes,
            align_bytes: workload.block_bytes,
            queue_depth: workload.queue_depth,
            workload,
            compressibility: 0.0,
            seconds,
            span: 1.0,
            seed: 1,
            power_cuts_ns: Vec::new(),
            trim_fraction: 0.0,
            burst_s: 0,
            idle_s: 0,
            threads: 1,
            phases: Vec::new(),
            raid: None,
            precondition: Precondition::Fill,
            zone_store: None,
            app: None,
        }
    }

    /// Member drives (1 without an array).
    pub fn drives(&self) -> u32 {
        self.raid.map_or(1, |r| r.drives)
    }

    /// Logical 4 KiB units the host's workload runs over: the drive's workload span, or in an
    /// array each member's, in whole stripe rows, times the members (one member: its span).
    pub fn host_units(&self) -> u64 {
        if let (Some(store), Some(zoned)) = (&self.zone_store, &self.drive.zoned) {
            // The app's span, which the store maps onto the zones.
            return store.app_units(zoned, &self.drive);
        }
        match self.raid {
            Some(r) if r.drives > 1 => {
                let rows = (self.workload_units() / r.stripe_units()).max(1);
                rows * r.stripe_units() * r.drives as u64
            }
            _ => self.workload_units(),
        }
    }

    /// The workload as the host runs it: the explicit phases, or the one-phase shorthand.
    pub fn plan(&self) -> Vec<Phase> {
        if !self.phases.is_empty() {
            return self.phases.clone();
        }
        let job = JobSpec::named(&self.workload, self.block_bytes, self.align_bytes, self.queue_depth);
        vec![Phase {
            name: self.workload.id.to_string(),
            jobs: vec![job; self.threads.max(1) as usize],
            runtime_ns: self.seconds as u64 * NS_PER_S,
            ramp_ns: 0,
        }]
    }

    /// The most commands the host keeps outstanding at once, over all phases.
    pub fn max_outstanding(&self) -> u32 {
        if self.phases.is_empty() {
            return self.queue_depth.saturating_mul(self.threads.max(1));
        }
        self.phases.iter().map(|p| p.jobs.iter().map(|j| j.queue_depth).sum::<u32>()).max().unwrap_or(1)
    }

    pub fn validate(&self) -> Result<(), ConfigError> {
        self.drive.validate()?;
        if self.workload.is_model() && self.phases.is_empty() {
            return Err(ConfigError::new(
                "workload",
                format!(
                    "'{}' is a model of a trace, made of phases: resolve it through a run request (ssdlab run --workload {})",
                    self.workload.id, self.workload.id
                ),
            ));
        }
        if let Some(r) = &self.raid {
            r.check()?;
            if r.drives > 1 && self.workload_units() < r.stripe_units() {
                return Err(ConfigError::new(
                    "raid.stripe_kib",
                    format!(
                        "must be at most each member's tested span ({} KiB) (got {})",
                        self.workload_units() * 4,
                        r.stripe_kib
                    ),
                ));
            }
        }
        if let Precondition::Random { passes } = self.precondition {
            real_range("precondition_passes", passes, 0.01, 20.0, "0.01 and 20 passes over the span")?;
        }
        range("seconds", self.seconds as u64, 1, MAX_SECONDS as u64)?;
        real_range("span", self.span, MIN_SPAN, 1.0, &format!("{} and 1.0", MIN_SPAN))?;
        range("queue_depth", self.queue_depth as u64, 1, 65536)?;
        range("threads", self.threads as u64, 1, 1024)?;
        range("threads x queue_depth", self.max_outstanding() as u64, 1, 1 << 20)?;
        self.check_app()?;
        self.check_zone_store()?;
        self.check_phases()?;
        self.check_power_cuts()?;
        self.check_zoned()?;
        range("idle_s", self.idle_s as u64, 0, MAX_SECONDS as u64)?;
        real_range("trim_fraction", self.trim_fraction, 0.0, 0.99, "0 and 0.99")?;
        if self.idle_s > 0 {
            range("burst_s", self.burst_s as u64, 1, MAX_SECONDS as u64)?;
        }
        for (field, value) in [("block_bytes", self.block_bytes), ("align_bytes", self.align_bytes)] {
            if value % SECTOR_BYTES != 0 {
                return Err(ConfigError::new(field, format!("must be a multiple of 512 (got {})", value)));
            }
        }
        let span_bytes = self.host_units() * UNIT_BYTES;
        range("block_bytes", self.block_bytes as u64, SECTOR_BYTES as u64, span_bytes.min(1 << 20))?;
        range("align_bytes", self.align_bytes as u64, SECTOR_BYTES as u64, span_bytes)?;
        real_range("compressibility", self.compressibility, 0.0, 0.9, "0 (incompressible) and 0.9")
    }

    /// A phase without jobs is a rest: the host issues nothing for its runtime and the drive is
    /// idle. It lasts a set time, and a phase follows it (the drive's idle work is booked when
    /// the host issues again); the run's bursts (`idle_s`) are its other way to rest.
    fn check_rest(&self, i: usize, phase: &Phase) -> Result<(), ConfigError> {
        let field = format!("phases[{}].jobs", i);
        if phase.runtime_ns == 0 {
            return Err(ConfigError::new(&field, "is empty: a rest phase needs a runtime"));
        }
        if i + 1 == self.phases.len() {
            return Err(ConfigError::new(&field, "is empty: a rest phase must have a phase after it"));
        }
        if self.idle_s > 0 {
            return Err(ConfigError::new(&field, "is empty: a rest phase cannot be combined with idle_s"));
        }
        Ok(())
    }

    fn check_phases(&self) -> Result<(), ConfigError> {
        let span_bytes = self.host_units() * UNIT_BYTES;
        for (i, phase) in self.phases.iter().enumerate() {
            if phase.jobs.is_empty() {
                self.check_rest(i, phase)?;
            }
            range(&format!("phases[{}].jobs", i), phase.jobs.len() as u64, 0, MAX_JOBS as u64)?;
            for (j, job) in phase.jobs.iter().enumerate() {
                let field = format!("phases[{}].jobs[{}] ({})", i, j, job.name);
                job.check(&field, span_bytes)?;
                if self.zone_store.is_none() {
                    self.check_placement(&field, job)?;
                }
                self.check_zone_mode(&field, job, span_bytes)?;
            }
        }
        Ok(())
    }

    /// A job's placement handles are ones the drive takes: the drive never sees an unknown tag.
    /// A list names at least one; tagging by zone needs a handle per zone of the distribution.
    fn check_placement(&self, field: &str, job: &JobSpec) -> Result<(), ConfigError> {
        let field = format!("{}.placement", field);
        if job.placement == Placement::Untagged {
            return Ok(());
        }
        Self::check_placement_lists(&field, job)?;
        let handles = job.placement.handles();
        let d = &self.drive;
        let Some(p) = &d.placement else {
            return Err(ConfigError::new(
                field,
                format!(
                    "drive {} takes no placement handles: it has no [placement] section (got handle {})",
                    d.id,
                    handles.first().copied().unwrap_or(0)
                ),
            ));
        };
        match handles.iter().find(|&&h| h as u32 >= p.handles) {
            Some(handle) => Err(ConfigError::new(
                field,
                format!(
                    "handle {} is not one of this drive's {} placement handles (0 to {})",
                    handle,
                    p.handles,
                    p.handles - 1
                ),
            )),
            None => Ok(()),
        }
    }

    /// A job writing zones (fio's `zonemode=zbd`) shares the host's zones with every other such
    /// job of the run, so they agree on them; its range is whole zones and each write fits a
    /// zone; zones the drive keeps are the drive's.
    fn check_zone_mode(&self, field: &str, job: &JobSpec, span_bytes: u64) -> Result<(), ConfigError> {
        let Some(m) = &job.zones else { return Ok(()) };
        let field = format!("{}.zones", field);
        let first = self.phases.iter().flat_map(|p| &p.jobs).find_map(|j| j.zones.as_ref());
        if first.is_some_and(|f| {
            (f.zone_bytes, f.capacity_bytes, f.device, f.max_open)
                != (m.zone_bytes, m.capacity_bytes, m.device, m.max_open)
        }) {
            return Err(ConfigError::new(
                field,
                "every job writing zones shares the run's zones: zone size, capacity and max_open must be the same in each",
            ));
        }
        if self.raid.is_some() {
            return Err(ConfigError::new(field, "zones are written on one drive, not an array (remove raid)"));
        }
        range(&format!("{}.zone_bytes", field), m.zone_bytes, SECTOR_BYTES as u64, span_bytes)?;
        let largest = job.write_sizes.largest().max(job.read_sizes.smallest()) as u64;
        range(&format!("{}.capacity_bytes", field), m.capacity_bytes, largest, m.zone_bytes)?;
        let range_bytes = job.range_bytes(span_bytes);
        if !job.offset_bytes.is_multiple_of(m.zone_bytes) || range_bytes < m.zone_bytes {
            return Err(ConfigError::new(
                format!("{}.offset", field),
                format!(
                    "a job writing zones starts at a zone's start and covers at least one zone of {} bytes (got offset {}, {} bytes)",
                    m.zone_bytes, job.offset_bytes, range_bytes
                ),
            ));
        }
        if m.device && job.write_sizes.entries.iter().any(|e| !(e.0 as u64).is_multiple_of(UNIT_BYTES)) {
            return Err(ConfigError::new(
                format!("{}.write_sizes", field),
                "a zoned drive's logical block is 4 KiB: every write size a multiple of 4096",
            ));
        }
        match &self.drive.zoned {
            Some(z) if m.device && z.zone_bytes == m.zone_bytes && z.zone_capacity_bytes == m.capacity_bytes => Ok(()),
            Some(z) => Err(ConfigError::new(
                format!("{}.zone_bytes", field),
                format!(
                    "drive {} has zones of {} bytes, {} writable: a job writing zones on it uses them (got {} bytes, {} writable)",
                    self.drive.id, z.zone_bytes, z.zone_capacity_bytes, m.zone_bytes, m.capacity_bytes
                ),
            )),
            None if m.device => Err(ConfigError::new(
                format!("{}.device", field),
                format!("drive {} has no zones ([zoned]): its zones can only be emulated by the host", self.drive.id),
            )),
            None => Ok(()),
        }
    }

    /// A zone store runs one job, its app, whose tags are the store's classes (a zoned drive
    /// takes no placement handles); the store checks the rest.
    fn check_zone_store(&self) -> Result<(), ConfigError> {
        let Some(store) = &self.zone_store else { return Ok(()) };
        if self.raid.is_some() {
            return Err(ConfigError::new("zone_store", "runs on one zoned drive, not on an array (raid)"));
        }
        let plan = self.plan();
        let jobs: Vec<&JobSpec> = plan.iter().flat_map(|p| &p.jobs).collect();
        let [job] = jobs[..] else {
            return Err(ConfigError::new(
                "zone_store",
                format!("runs one job, its app, in one phase (got {} jobs in {} phases)", jobs.len(), plan.len()),
            ));
        };
        let field = format!("phases[0].jobs[0] ({})", job.name);
        if let Some(app) = &self.app {
            // The app's tags are its classes; the job only gives the queue depth.
            let open = self.drive.zoned.as_ref().map_or(0, |z| z.max_open_zones);
            return store.check(&self.drive, None, "app.tagged", app.tags(open.saturating_sub(1)));
        }
        Self::check_placement_lists(&format!("{}.placement", field), job)?;
        let classes = job.placement.handles().iter().map(|&h| h as u32 + 1).max().unwrap_or(1);
        store.check(&self.drive, Some(job), &field, classes)
    }

    /// An app runs as the one job of one phase, on one drive: over the tested span of a block
    /// drive, or through a zone store on a zoned one; tagged, it needs the handles (or the
    /// store's open zones) for its tags.
    fn check_app(&self) -> Result<(), ConfigError> {
        let Some(app) = &self.app else { return Ok(()) };
        if self.raid.is_some() {
            return Err(ConfigError::new("app", "runs on one drive, not on an array (raid)"));
        }
        let plan = self.plan();
        let jobs = plan.iter().map(|p| p.jobs.len()).sum::<usize>();
        if jobs != 1 {
            return Err(ConfigError::new(
                "app",
                format!("runs as one job, in one phase (got {} jobs in {} phases)", jobs, plan.len()),
            ));
        }
        let d = &self.drive;
        if let (Some(z), None) = (&d.zoned, &self.zone_store) {
            return Err(ConfigError::new(
                "app",
                format!(
                    "drive {} is zoned ([zoned]): an app writes it through a zone store (zone_store), its zones only sequentially (got {} bytes a zone)",
                    d.id, z.zone_bytes
                ),
            ));
        }
        app.check(self.host_units() * UNIT_BYTES)?;
        let needed = app.tags_needed();
        if needed == 1 || self.zone_store.is_some() {
            // A store's classes are checked with the store.
            return Ok(());
        }
        let kind = app.kind.name();
        match &d.placement {
            None => Err(ConfigError::new(
                "app.tagged",
                format!(
                    "drive {} takes no placement handles: it has no [placement] section (a tagged {} uses handles 0 to {})",
                    d.id,
                    kind,
                    needed - 1
                ),
            )),
            Some(p) if p.handles < needed => Err(ConfigError::new(
                "app.tagged",
                format!(
                    "a tagged {} uses handles 0 to {}: drive {} has {} placement handles (0 to {})",
                    kind,
                    needed - 1,
                    d.id,
                    p.handles,
                    p.handles - 1
                ),
            )),
            Some(_) => Ok(()),
        }
    }

    /// A list of handles names at least one; tagging by zone needs one per zone of the job's
    /// distribution.
    fn check_placement_lists(field: &str, job: &JobSpec) -> Result<(), ConfigError> {
        let handles = job.placement.handles();
        match &job.placement {
            Placement::Untagged | Placement::Handle(_) => Ok(()),
            Placement::RoundRobin(_) | Placement::Random(_) if handles.is_empty() => {
                Err(ConfigError::new(field, "needs at least one handle to choose from (got none)"))
            }
            Placement::RoundRobin(_) | Placement::Random(_) => Ok(()),
            Placement::ByZone(_) => {
                let Distribution::Zoned(zones) = &job.distribution else {
                    return Err(ConfigError::new(
                        field,
                        "tags writes by zone of a zoned distribution (hot and cold data), and this job's is not zoned",
                    ));
                };
                if zones.len() != handles.len() {
                    return Err(ConfigError::new(
                        field,
                        format!(
                            "needs a handle per zone of the job's distribution: {} (got {})",
                            zones.len(),
                            handles.len()
                        ),
                    ));
                }
                Ok(())
            }
        }
    }

    /// A zoned drive starts with every zone empty, and its zones' write pointers across a power
    /// cut are not modelled.
    fn check_zoned(&self) -> Result<(), ConfigError> {
        if self.drive.zoned.is_none() {
            return Ok(());
        }
        // The drive would refuse each such write (0 IOPS and nothing said): name the job instead.
        if self.zone_store.is_none() {
            for (i, phase) in self.plan().iter().enumerate() {
                for (j, job) in phase.jobs.iter().enumerate() {
                    // A trace's commands land where the trace put them (wrapped into the span),
                    // not at write pointers: the drive would refuse each write as silently.
                    if let Some(trace) = &job.trace {
                        let writes = trace.records.iter().filter(|r| r.op != Op::Read).count();
                        if writes > 0 {
                            return Err(ConfigError::new(
                                "trace",
                                format!(
                                    "{} holds {} writes or TRIMs of its {} commands and drive {} is zoned: it takes writes only at each zone's write pointer, and a trace's land where the trace puts them; replay it on a conventional drive (only a trace of reads replays on a zoned one)",
                                    trace.name,
                                    writes,
                                    trace.records.len(),
                                    self.drive.id
                                ),
                            ));
                        }
                    } else if job.read_percent < 100 && job.zones.is_none() {
                        return Err(ConfigError::new(
                            format!("phases[{}].jobs[{}] ({})", i, j, job.name),
                            format!(
                                "writes without zones: drive {} is zoned and takes writes only at each zone's write pointer; \
                                 write through a host zone store (zone_store, ssdlab run --zone-store) or as fio's zonemode=zbd \
                                 (a job file), with precondition none",
                                self.drive.id
                            ),
                        ));
                    }
                }
            }
        }
        if !self.power_cuts_ns.is_empty() {
            return Err(ConfigError::new(
                "power_cuts_s",
                "a zoned drive ([zoned]) takes no scheduled power cuts in this version: its zones' state across a cut is not modelled",
            ));
        }
        if self.precondition != Precondition::None {
            return Err(ConfigError::new(
                "precondition",
                "a zoned drive ([zoned]) starts with every zone empty: only \"none\" (a fill would write past the zones' write pointers)",
            ));
        }
        Ok(())
    }

    fn check_power_cuts(&self) -> Result<(), ConfigError> {
        let end_ns = self.seconds as u64 * NS_PER_S;
        if let Some(&at) = self.power_cuts_ns.iter().find(|&&at| at == 0 || at >= end_ns) {
            return Err(ConfigError::new(
                "power_cuts_s",
                format!(
                    "each cut must fall inside the run, between 0 and {} s (got {} s)",
                    self.seconds,
                    at as f64 / 1e9
                ),
            ));
        }
        if self.power_cuts_ns.windows(2).any(|w| w[0] > w[1]) {
            return Err(ConfigError::new("power_cuts_s", "must be in ascending order"));
        }
        Ok(())
    }

    /// Logical 4 KiB units that are filled.
    pub fn span_units(&self) -> u64 {
        ((self.drive.user_units() as f64 * self.span).round() as u64).max(1)
    }

    /// Logical 4 KiB units the workload runs over: the filled span less what was trimmed.
    pub fn workload_units(&self) -> u64 {
        ((self.span_units() as f64 * (1.0 - self.trim_fraction)).round() as u64).max(1)
    }

    /// Whether some write can cover only part of a map entry (and so pay a read-modify-write).
    pub fn has_partial_writes(&self) -> bool {
        let entry_bytes = self.drive.map.unit_bytes;
        if !self.phases.is_empty() {
            // A job's writes start at multiples of its alignment (its smallest size if 0).
            let partial = |bytes: u64| !bytes.is_multiple_of(entry_bytes);
            return self.phases.iter().flat_map(|p| &p.jobs).any(|j| {
                let align = if j.align_bytes == 0 { j.write_sizes.smallest() } else { j.align_bytes };
                j.read_percent < 100
                    && (partial(align as u64) || j.write_sizes.entries.iter().any(|e| partial(e.0 as u64)))
            });
        }
        (!(self.block_bytes as u64).is_multiple_of(entry_bytes)
            || !(self.align_bytes as u64).is_multiple_of(entry_bytes))
            && self.workload.read_percent < 100
    }
}
