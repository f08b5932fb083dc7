//! One SSD. It takes commands and gives back when each completes; it knows nothing of
//! workloads or of other drives. Its parts, each a module:
//!
//! - `interface/`: the host link and the protocol's command slots (SATA NCQ, SAS tags, NVMe queue pairs);
//! - `firmware`: the controller's processor, one command (or GC relocation) at a time;
//! - `data_path`: the controller's write data path, at `controller.write_mb_s`;
//! - `write/`: the write buffer and the pages assembled in it (group commit, read-modify-write);
//! - `flash`: everything that books NAND work: the FTL (`ftl/`: map, blocks, victim policies,
//!   wear), what the map costs (`mapping/`), the map journal, the NAND timelines (`nand`);
//! - `gc/`: when and how much to collect (consistency-first or lazy pacing);
//! - `power/`: capacitors, the log of writes at risk, what a cut does;
//! - `compression`: how many NAND slots a unit takes.
//!
//! Every resource is a timeline, so contention comes out exactly without an event per operation.

mod compression;
mod data_path;
mod firmware;
pub mod flash;
pub mod ftl;
mod gc;
mod interface;
pub mod mapping;
pub mod nand;
pub mod power;
mod precondition;
mod slc_cache;
mod thermal;
mod write;
pub mod zoned;

use crate::command::{Completion, Op, Request, Status as CommandStatus};
use crate::config::{DriveConfig, RunConfig};
use crate::units::ConfigError;

use data_path::DataPath;
pub use flash::Counters;
use flash::Flash;
use ftl::{Ftl, Stream};
use gc::Gc;
pub use interface::accepted_commands;
use interface::Interface;
use power::{CapacitorState, Flush, PowerCutReport};
use slc_cache::SlcCache;
use thermal::Thermal;
use write::WritePath;
use zoned::Zones;

/// What the drive's state looks like at the end of a second (for the per-second samples).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Status {
    pub free_blocks: u64,
    pub erase_count_min: u32,
    pub erase_count_max: u32,
    pub retired_blocks: u64,
    pub read_only: bool,
    /// Host writes in the write buffer, 4 KiB units.
    pub buffer_units: u32,
    pub write_buffering: bool,
    pub capacitors: CapacitorState,
    /// Dies with a victim being collected, and whether the drive-wide clean-up runs.
    pub gc_active_dies: u32,
    pub gc_boost: bool,
    /// The SLC cache: units host writes could still take in SLC mode, valid units in SLC-mode
    /// blocks, and blocks in SLC mode (0 without a cache).
    pub slc_free_units: u64,
    pub slc_data_units: u64,
    pub slc_blocks: u32,
    /// Heat: the temperature, °C, and the throttle step (0: none); both 0 without `[thermal]`.
    pub temperature_c: f64,
    pub throttle_step: u32,
    /// Zones open, active (open or closed) and full; 0 on a conventional drive.
    pub open_zones: u32,
    pub active_zones: u32,
    pub full_zones: u32,
}

pub struct Drive {
    cfg: DriveConfig,
    interface: Interface,
    data_path: Option<DataPath>,
    writes: WritePath,
    flash: Flash,
    gc: Gc,
    capacitors: CapacitorState,
    thermal: Option<Box<Thermal>>,
    /// The zone layer of a zoned drive (`[zoned]`).
    zones: Option<Box<Zones>>,
}

impl Drive {
    /// A secure-erased drive for the run `cfg` (the run's queue depth sizes the interface's
    /// command slots; its seed feeds compression and randomised policies).
    pub fn new(cfg: &RunConfig) -> Result<Self, ConfigError> {
        let d = &cfg.drive;
        let g = &d.geometry;
        let slots_per_unit = d.controller.slots_per_unit();
        Ok(Drive {
            interface: Interface::new(&d.host, cfg.max_outstanding()),
            data_path: DataPath::new(d.controller.write_mb_s),
            writes: WritePath::new(cfg),
            flash: Flash::new(d, cfg.seed)?,
            gc: Gc::new(
                &d.gc,
                g.dies,
                d.blocks_in_service_per_die(),
                g.units_per_block() as u64 * slots_per_unit as u64,
                g.units_per_program() * slots_per_unit,
                d.slc_cache.as_ref().map(|c| SlcCache::new(c, d)),
                if d.zoned.is_some() { gc::Moves::Never } else { gc::Moves::Data },
            ),
            capacitors: CapacitorState::initial(&d.power),
            thermal: d.thermal.as_ref().map(|t| Box::new(Thermal::new(t))),
            zones: d.zoned.as_ref().map(|z| Box::new(Zones::new(z, d))),
            cfg: d.clone(),
        })
    }

    pub fn config(&self) -> &DriveConfig {
        &self.cfg
    }

    pub fn ftl(&self) -> &Ftl {
        &self.flash.ftl
    }

    pub fn capacitors(&self) -> CapacitorState {
        self.capacitors
    }

    /// Cumulative counts of NAND and host work since the test phase began.
    pub fn counters(&self) -> Counters {
        Counters { die_busy_ns: self.flash.nand.total_busy_ns(), ..self.flash.counters }
    }

    /// Time each die has been booked for each kind of work so far, ns (per die, in
    /// `nand::Work`'s order: host read, host program, GC read, GC program, erase, map).
    pub fn die_busy_ns(&self) -> &[[u64; nand::WORK_KINDS]] {
        self.flash.nand.busy_ns()
    }

    /// Bytes held by the model (mapping tables dominate).
    pub fn memory_bytes(&self) -> u64 {
        self.flash.memory_bytes()
            + self.writes.memory_bytes()
            + self.interface.memory_bytes()
            + self.cfg.geometry.dies as u64 * 16
            + self.zones.as_ref().map_or(0, |z| z.memory_bytes())
    }

    /// Fills logical units `0..span_units` in order, a multi-plane page at a time striped over
    /// the dies, then TRIMs units `keep_units..span_units` (the article's other way to make spare
    /// area: create a partition there, format it so the OS TRIMs it, delete it [002]). Takes no
    /// simulated time: it is the preconditioning before the test.
    pub fn fill_sequential(&mut self, span_units: u64, keep_units: u64) {
        let dies = self.cfg.geometry.dies;
        let slots_per_program = self.cfg.geometry.units_per_program() * self.cfg.controller.slots_per_unit();
        let ftl = &mut self.flash.ftl;
        if ftl.slots_per_unit() == 1 {
            ftl.fill_sequential(span_units as u32);
            for lpa in keep_units..span_units {
                ftl.trim(lpa as u32);
            }
            return;
        }
        // A compressing drive: each unit takes as many slots as its data compresses to.
        let (mut die, mut used) = (0, 0);
        for lpa in 0..span_units {
            let len = self.writes.unit_slots();
            if used + len > slots_per_program {
                ftl.pad_to_program(die, Stream::Host);
                die = (die + 1) % dies;
                used = 0;
            }
            ftl.write(die, Stream::Host, lpa as u32, len);
            used += len;
        }
        ftl.pad_to_program(die, Stream::Host);
        for lpa in keep_units..span_units {
            ftl.trim(lpa as u32);
        }
    }

    /// Load hints for a group of commands coming, as (unit whose map entry to load, unit whose
    /// old block to load; its map entry was loaded earlier): every map entry first, then every
    /// old block, so the loads of each stage are independent and their misses overlap.
    #[inline]
    pub fn prefetch_group(&self, group: &[(u32, u32)]) {
        for &(next, _) in group {
            self.flash.ftl.prefetch_mapping(next);
        }
        for &(_, later) in group {
            self.flash.ftl.prefetch_old_block(later);
        }
    }

    /// The host issues `req` at `issue_ns`; returns when it completes, and how (a worn-out
    /// drive is read-only: it fails writes without storing them; a zoned drive fails writes that
    /// break its zones' rules). (Always inlined: the bench's step calls it for every command,
    /// and an array's members are a second call site.)
    #[inline(always)]
    pub fn submit(&mut self, req: Request, issue_ns: u64) -> (u64, Completion) {
        if self.zones.is_some() {
            return self.submit_zoned(req, issue_ns);
        }
        self.execute(req, issue_ns)
    }

    /// A command as the block interface takes it (on a zoned drive, once its zone took it).
    #[inline(always)]
    fn execute(&mut self, req: Request, issue_ns: u64) -> (u64, Completion) {
        if let Some(log) = self.writes.log.as_mut() {
            log.forget_durable_before(issue_ns);
        }
        self.flash.set_now(issue_ns);
        let t = self.interface.admit(issue_ns);
        let rejected = req.op == Op::Write && self.flash.ftl.worn_out();
        let (done_ns, completion) = match req.op {
            Op::Write if rejected => (self.reject_write(t, issue_ns), Completion::ReadOnly),
            Op::Write => (self.write(req, t, issue_ns), Completion::Done),
            Op::Read => (self.read(req, t, issue_ns), Completion::Done),
            Op::Trim => (self.trim(req, t, issue_ns), Completion::Done),
            // Zoned commands on a conventional drive.
            Op::Append | Op::ZoneReset | Op::ZoneFinish | Op::ZoneOpen | Op::ZoneClose => {
                (self.reject_write(t, issue_ns), Completion::Failed(CommandStatus::InvalidOpcode))
            }
        };
        self.interface.complete(done_ns);
        (done_ns, completion)
    }

    /// A write: command and data over the link, the controller, the map, then the write path.
    #[inline]
    fn write(&mut self, req: Request, ready_ns: u64, now_ns: u64) -> u64 {
        let arrived = self.interface.send_command(ready_ns, req.bytes, now_ns);
        let mut t = self.flash.firmware.run(arrived, self.cfg.controller.write_overhead_ns);
        if let Some(p) = self.data_path.as_mut() {
            t = t.max(p.pass(arrived - self.interface.arrival_ns(req.bytes), req.bytes));
        }
        if self.flash.map_costs() {
            t = self.flash.map_access(req, true, t);
        }
        let write_through = !self.capacitors.buffers_writes(&self.cfg.power);
        self.writes.write(req, t, write_through, &mut self.flash, &mut self.gc)
    }

    /// A read: command over the link, controller, a NAND read for each page it touches, then
    /// the data back over the link.
    #[inline]
    fn read(&mut self, req: Request, ready_ns: u64, now_ns: u64) -> u64 {
        let mut t = self.interface.send_command(ready_ns, 0, now_ns);
        t = self.flash.firmware.run(t, self.cfg.controller.read_overhead_ns);
        if self.flash.map_costs() {
            t = self.flash.map_access(req, false, t);
        }
        let data_ready = self.flash.read(req, t);
        self.interface.return_data(data_ready + self.cfg.controller.read_latency_ns, req.bytes, now_ns)
    }

    /// A TRIM: the command crosses the link and the controller unmaps each unit it wholly covers
    /// (a unit in the page being assembled is dropped from it, and its slots go unwritten).
    fn trim(&mut self, req: Request, ready_ns: u64, now_ns: u64) -> u64 {
        let t = self.interface.send_command(ready_ns, 0, now_ns);
        let t = self.flash.firmware.run(t, self.cfg.controller.write_overhead_ns);
        let m = (self.cfg.map.unit_bytes / crate::units::UNIT_BYTES) as u32;
        for lpa in req.lpa..req.lpa + req.units {
            // Only whole map entries can be unmapped.
            let entry_start = lpa / m * m;
            if !(entry_start..entry_start + m).all(|u| req.covers(u)) {
                continue;
            }
            self.writes.drop_from_page(lpa);
            self.flash.ftl.trim(lpa);
        }
        t
    }

    /// A write refused by a read-only drive: the command crosses the link and the controller
    /// fails it (at least 1 us, so a host hammering a dead drive still moves the clock).
    #[cold]
    fn reject_write(&mut self, ready_ns: u64, now_ns: u64) -> u64 {
        let t = self.interface.send_command(ready_ns, 0, now_ns);
        let t = self.flash.firmware.run(t, self.cfg.controller.write_overhead_ns);
        t.max(now_ns + 1_000)
    }

    /// The host is idle from `from_ns` to `until_ns`: the drive collects in the background.
    pub fn idle(&mut self, from_ns: u64, until_ns: u64) {
        self.gc.background(from_ns, until_ns, &mut self.flash);
        self.interface.stall_until(until_ns);
    }

    /// The host closes the drive at `at_ns` (its workload is done): the drive programs every page
    /// waiting in its write buffer, padded, as it does on a flush or at shutdown.
    pub fn flush_buffer(&mut self, at_ns: u64) {
        self.writes.program_waiting(at_ns, true, &mut self.flash, &mut self.gc);
    }

    /// Power fails at `at_ns`: the capacitor bank flushes what its energy allows, the rest of
    /// what the host was told is lost; the drive powers on again after rebuilding its mapping
    /// table. Returns what happened and when the drive takes commands again.
    pub fn power_cut(&mut self, at_ns: u64) -> (PowerCutReport, u64) {
        self.writes.power_failing(&mut self.flash);
        let d = &self.cfg;
        let upp = d.geometry.units_per_program() as u64;
        let journal_pages = self.flash.journal_dirty_pages();
        let flush = Flush {
            energy_uj: self.capacitors.energy_uj(&d.power),
            power_mw: d.power.flush_power_mw,
            units_per_page: upp,
            dies: d.geometry.dies as u64,
            page_program_ns: d.timing.program_ns + upp * d.timing.unit_transfer_ns(),
            journal_pages,
        };
        let log = self.writes.log.get_or_insert_with(Default::default);
        let mut report = power::cut(log, at_ns, &flush);
        let rebuild_ns = power::rebuild_ns(d, &report, journal_pages);
        report.rebuild_ms = rebuild_ns as f64 / 1e6;
        let all_saved = report.acknowledged_writes_lost == 0;
        self.writes.power_lost(at_ns, all_saved, &mut self.flash, &mut self.gc);
        self.flash.journal_saved();
        let resume_ns = at_ns + rebuild_ns;
        self.flash.nand.stall_until(resume_ns);
        self.flash.firmware.stall_until(resume_ns);
        if let Some(p) = self.data_path.as_mut() {
            p.stall_until(resume_ns);
        }
        self.interface.stall_until(resume_ns);
        (report, resume_ns)
    }

    /// A second has ended: its work heats the drive, which throttles the host link from now on
    /// while it is too hot.
    pub fn second_ended(&mut self) {
        if let Some(thermal) = self.thermal.as_mut() {
            let cap = thermal.second_ended(&self.flash.nand.total_busy_ns());
            self.interface.set_throttle_mb_s(cap);
        }
    }

    /// Second `second` has begun: the capacitor bank fails when configured to, and the drive
    /// notices at its next self-test.
    pub fn second_began(&mut self, second: u32) {
        let p = &self.cfg.power;
        if self.capacitors == CapacitorState::Healthy && p.capacitor_fails_at_s > 0 && second >= p.capacitor_fails_at_s
        {
            self.capacitors = CapacitorState::FailedUnnoticed;
        }
        if self.capacitors == CapacitorState::FailedUnnoticed && second.is_multiple_of(p.self_test_interval_s) {
            self.capacitors = CapacitorState::Failed;
        }
    }

    /// Keeps the log of writes at risk (acknowledged, not yet durable) from `now_ns` on (see
    /// `WritePath::start_log`). Returns None if it was kept already, else when the programs
    /// booked before now complete.
    pub fn watch_durability(&mut self, now_ns: u64) -> Option<u64> {
        self.writes.start_log(now_ns)
    }

    /// The capacitor bank fails (noticed at the next self-test) or is replaced by a healthy one;
    /// a drive without capacitors has none to change.
    pub fn set_capacitors_healthy(&mut self, healthy: bool) {
        self.capacitors = match (self.capacitors, healthy) {
            (CapacitorState::Absent, _) => CapacitorState::Absent,
            (CapacitorState::Healthy, false) => CapacitorState::FailedUnnoticed,
            (_, true) => CapacitorState::Healthy,
            (state, false) => state,
        };
    }

    /// The drive's state at `t_ns` (a second's end).
    pub fn status(&self, t_ns: u64) -> Status {
        let ftl = &self.flash.ftl;
        let (erase_count_min, erase_count_max) = ftl.erase_count_range();
        let dies = 0..self.cfg.geometry.dies;
        Status {
            free_blocks: ftl.free_blocks(),
            erase_count_min,
            erase_count_max,
            retired_blocks: ftl.retired_blocks(),
            read_only: ftl.worn_out(),
            buffer_units: self.writes.buffer_occupancy(t_ns),
            write_buffering: self.capacitors.buffers_writes(&self.cfg.power),
            capacitors: self.capacitors,
            gc_active_dies: (0..self.cfg.geometry.dies).filter(|&d| ftl.has_victim(d)).count() as u32,
            gc_boost: self.gc.boosting(),
            slc_free_units: self.gc.cache().map_or(0, |c| dies.clone().map(|d| c.free_slots(d, ftl)).sum()),
            slc_data_units: self.gc.cache().map_or(0, |_| ftl.slc_data_slots()),
            slc_blocks: dies.map(|d| ftl.slc_blocks(d)).sum(),
            temperature_c: self.thermal.as_ref().map_or(0.0, |t| t.temperature_c()),
            throttle_step: self.thermal.as_ref().map_or(0, |t| t.step()),
            open_zones: self.zones().map_or(0, |z| z.open_zones()),
            active_zones: self.zones().map_or(0, |z| z.active_zones()),
            full_zones: self.zones().map_or(0, |z| z.full_zones()),
        }
    }
}
