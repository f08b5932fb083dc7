//! The simulation loop. A closed-loop host keeps `queue_depth` commands outstanding; the drive
//! spreads them over the drive's queues, each holding at most `host.max_queue_depth` (SATA: one
//! NCQ queue of 32); the rest wait in the host.
//! A write crosses the link and the controller, waits for room in the write buffer, and is
//! acknowledged; buffered units are programmed a multi-plane page at a time, striped over the
//! dies, and each host page earns its die a share of garbage collection on the same dies.
//! A write that covers only part of a 4 KiB unit merges with the unit's current data: in the
//! buffer if it is still there, otherwise read from NAND first (read-modify-write).
//! A read crosses the link and the controller, reads its pages from their dies, and its data
//! crosses the link back. A TRIM unmaps its units.
//!
//! Requests are processed in the order the host issues them. Every resource is a timeline
//! (see `nand.rs`), so contention comes out exactly without an event per operation. Completions
//! are counted in the second they happen; a second is final once the host's issue clock has
//! passed it, since nothing issued later can complete earlier.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use crate::config::{GcPacing, RunConfig, UNIT_BYTES};
use crate::ftl::{Ftl, Stream, NONE};
use crate::metrics::{Sample, SecondCounters, HOST_CPU_HZ};
use crate::mapping::{MapCost, MapScheme};
use crate::nand::{Calendar, Nand};
use crate::power::{self, CapacitorState, DurabilityLog, PowerCutReport};
use crate::rng::Rng;
use crate::workload::{Generator, Op, Request};

const NS_PER_S: u64 = 1_000_000_000;
/// A journal entry: the LPA and its new physical location.
const JOURNAL_ENTRY_BYTES: u64 = 8;
/// How many host requests are drawn ahead of use (for prefetching).
const LOOKAHEAD: usize = 32;

pub struct Simulation {
    cfg: RunConfig,
    ftl: Ftl,
    nand: Nand,
    rng: Rng,
    generator: Generator,
    span_units: u64,
    user_units: u32,
    /// 4 KiB units one map entry spans (`map.unit_bytes`).
    entry_units: u32,
    units_per_program: u32,
    slots_per_program: u32,
    slots_per_block: u64,
    /// A compressing controller's NAND slots per 4 KiB unit (1 without compression), and the
    /// mean slots a unit of this run's data takes, in 1/1024ths.
    slots_per_unit: u32,
    compressed_slots_1024: u32,
    /// Draws each unit's compressed size; separate from `rng` so the requests do not change.
    compression_rng: Rng,

    // Host and front end.
    /// When each of the host's queue slots can issue its next command.
    host_slots: BinaryHeap<Reverse<u64>>,
    /// When each of the drive's command slots frees; used only when the host queues more
    /// commands than the drive accepts.
    drive_slots: BinaryHeap<Reverse<u64>>,
    /// The host keeps more commands outstanding than the drive accepts.
    host_waits: bool,
    link: Calendar,
    controller_free_ns: u64,
    /// Link time per byte of payload, picoseconds.
    link_ps_per_byte: u64,

    // Write buffer.
    buffer_capacity_units: u64,
    buffer_used_units: u64,
    /// When the last unit entered the buffer.
    buffer_admitted_ns: u64,
    /// Host programs whose data still occupies the buffer: (completion time, units).
    programs_in_flight: BinaryHeap<Reverse<(u64, u32)>>,
    /// Logical units of the page being assembled in the buffer (NONE: trimmed while there),
    /// with the slots each takes, and the slots they add up to.
    page: Vec<(u32, u32)>,
    page_slots: u32,
    /// When the page's data is all in the buffer (a read-modify-write may still be reading).
    page_ready_ns: u64,
    /// Writing through: the page's program, booked when its first unit came (die, start,
    /// completion). Commands arriving before it starts join it (group commit).
    group: Option<(u32, u64, u64)>,
    /// Channel transfer and array time of one host program, ns.
    program_time_ns: u64,
    /// Only when requests can cover part of a unit: units whose program is under way, with its
    /// completion time; their data is still in the buffer to merge with.
    recent_programs: Option<VecDeque<(u32, u64)>>,
    /// Their sequence numbers in the durability log (only while one is kept).
    page_seqs: Vec<u64>,

    // Power-loss protection.
    capacitors: CapacitorState,
    /// Kept only when power cuts are scheduled: recent writes with ack and durable times.
    durability: Option<DurabilityLog>,
    /// Scheduled power cuts still to come, ns.
    cuts_ns: VecDeque<u64>,
    cut_reports: Vec<PowerCutReport>,
    /// What map lookups and updates cost under the drive's mapping scheme.
    map_cost: MapCost,
    /// Mapping updates not yet written to the NAND journal, bytes (8 per update).
    journal_dirty_bytes: u64,

    /// Requests drawn ahead of use, a ring read at `upcoming_pos`.
    upcoming: [Request; LOOKAHEAD],
    upcoming_pos: usize,
    /// Die that receives the next host page.
    next_die: u32,

    // Garbage collection pacing, per die.
    gc_credit: Vec<u64>,
    gc_stripe_cost: Vec<u64>,
    /// The drive is refilling its free pool (see `GcConfig::boost_percent`).
    gc_boost: bool,

    // Accounting.
    /// The second being accumulated; `bins[0]` counts it, `bins[i]` the i-th after it.
    second: u32,
    second_end_ns: u64,
    bins: VecDeque<SecondCounters>,
    host_write_bytes_total: u64,
    nand_write_bytes_total: u64,
}

impl Simulation {
    /// Builds the drive, secure-erased, and fills the tested span sequentially (the articles'
    /// preconditioning; it takes no simulated time, the test phase starts at t = 0 after it).
    pub fn new(cfg: RunConfig) -> Result<Self, crate::config::ConfigError> {
        cfg.validate()?;
        let d = &cfg.drive;
        let g = &d.geometry;
        let upp = g.units_per_program();
        let slots_per_unit = d.controller.slots_per_unit();
        let entry_bytes = d.map.unit_bytes;
        let partial_writes = (cfg.block_bytes as u64 % entry_bytes != 0 || cfg.align_bytes as u64 % entry_bytes != 0)
            && cfg.workload.read_percent < 100;
        let accepted = d.host.accepted_commands(cfg.queue_depth);
        let drive_slots = if cfg.queue_depth > accepted {
            (0..accepted).map(|_| Reverse(0)).collect()
        } else {
            BinaryHeap::new()
        };
        let first = Request::at(Op::Write, 0, UNIT_BYTES as u32);
        let mut sim = Simulation {
            ftl: Ftl::new(d),
            nand: Nand::new(g, &d.timing),
            rng: Rng::new(cfg.seed),
            generator: Generator::new(&cfg.workload, cfg.block_bytes, cfg.align_bytes, cfg.workload_units()),
            span_units: cfg.span_units(),
            user_units: d.user_units() as u32,
            entry_units: (d.map.unit_bytes / UNIT_BYTES) as u32,
            units_per_program: upp,
            slots_per_program: upp * slots_per_unit,
            slots_per_block: g.units_per_block() as u64 * slots_per_unit as u64,
            slots_per_unit,
            compressed_slots_1024: ((1.0 - cfg.compressibility) * slots_per_unit as f64 * 1024.0).round() as u32,
            compression_rng: Rng::new(cfg.seed ^ 0x636f_6d70_7265_7373),
            host_slots: (0..cfg.queue_depth).map(|_| Reverse(0)).collect(),
            host_waits: cfg.queue_depth > accepted,
            drive_slots,
            link: Calendar::default(),
            controller_free_ns: 0,
            link_ps_per_byte: (1_000_000 + d.host.link_mb_s / 2) / d.host.link_mb_s,
            buffer_capacity_units: d.controller.write_buffer_bytes / UNIT_BYTES,
            buffer_used_units: 0,
            buffer_admitted_ns: 0,
            programs_in_flight: BinaryHeap::new(),
            page: Vec::with_capacity(upp as usize * slots_per_unit as usize),
            page_slots: 0,
            page_ready_ns: 0,
            group: None,
            program_time_ns: d.timing.program_ns + upp as u64 * (UNIT_BYTES * 1000 / d.timing.channel_mb_s),
            recent_programs: partial_writes.then(VecDeque::new),
            page_seqs: Vec::with_capacity(upp as usize),
            capacitors: CapacitorState::initial(&d.power),
            durability: if cfg.power_cuts_ns.is_empty() { None } else { Some(DurabilityLog::default()) },
            cuts_ns: cfg.power_cuts_ns.iter().copied().collect(),
            cut_reports: Vec::new(),
            journal_dirty_bytes: 0,
            map_cost: MapCost::new(&d.map, d.user_units(), g.page_bytes),
            upcoming: [first; LOOKAHEAD],
            upcoming_pos: 0,
            next_die: 0,
            gc_credit: vec![0; g.dies as usize],
            gc_stripe_cost: vec![0; g.dies as usize],
            gc_boost: false,
            second: 0,
            second_end_ns: NS_PER_S,
            bins: VecDeque::new(),
            host_write_bytes_total: 0,
            nand_write_bytes_total: 0,
            cfg,
        };
        sim.sequential_fill();
        for i in 0..LOOKAHEAD {
            sim.upcoming[i] = sim.generator.next(&mut sim.rng);
        }
        Ok(sim)
    }

    /// Fills the span, then TRIMs its last `trim_fraction` (the article's other way to make
    /// spare area: create a partition there, format it so the OS TRIMs it, delete it [002]).
    fn sequential_fill(&mut self) {
        let dies = self.cfg.drive.geometry.dies;
        let (mut die, mut used) = (0, 0);
        for lpa in 0..self.span_units {
            let len = self.compressed_slots();
            if used + len > self.slots_per_program {
                self.ftl.pad_to_program(die, Stream::Host);
                die = (die + 1) % dies;
                used = 0;
            }
            self.ftl.write(die, Stream::Host, lpa as u32, len);
            used += len;
        }
        self.ftl.pad_to_program(die, Stream::Host);
        for lpa in self.cfg.workload_units()..self.span_units {
            self.ftl.trim(lpa as u32);
        }
    }

    pub fn config(&self) -> &RunConfig {
        &self.cfg
    }

    pub fn seconds_done(&self) -> u32 {
        self.second
    }

    pub fn finished(&self) -> bool {
        self.second >= self.cfg.seconds
    }

    pub fn ftl(&self) -> &Ftl {
        &self.ftl
    }

    /// What each power cut so far did.
    pub fn power_cuts(&self) -> &[PowerCutReport] {
        &self.cut_reports
    }

    pub fn capacitors(&self) -> CapacitorState {
        self.capacitors
    }

    /// Bytes held by the model (mapping tables dominate).
    pub fn memory_bytes(&self) -> u64 {
        self.ftl.memory_bytes() + self.map_cost.memory_bytes() + self.nand.memory_bytes() + self.cfg.drive.geometry.dies as u64 * 16
    }

    /// Runs until `max_ios` more host IOs have been issued or the run is finished; appends every
    /// second completed meanwhile to `out`. Returns the number of IOs processed.
    pub fn advance(&mut self, max_ios: u64, out: &mut Vec<Sample>) -> u64 {
        let mut done = 0;
        while done < max_ios && !self.finished() {
            self.host_request(out);
            done += 1;
        }
        done
    }

    /// Runs to the end, returning every sample.
    pub fn run_to_end(&mut self) -> Vec<Sample> {
        let mut out = Vec::with_capacity(self.cfg.seconds as usize);
        while !self.finished() {
            self.advance(u64::MAX, &mut out);
        }
        out
    }

    #[inline]
    fn host_request(&mut self, out: &mut Vec<Sample>) {
        let mut issue_ns = self.host_slots.peek().expect("queue depth >= 1").0;
        while let Some(&at_ns) = self.cuts_ns.front() {
            if issue_ns < at_ns {
                break;
            }
            self.cuts_ns.pop_front();
            self.cut_seconds(at_ns, out);
            self.power_cut(at_ns);
            issue_ns = self.host_slots.peek().expect("queue depth >= 1").0;
        }
        if self.cfg.idle_s > 0 {
            issue_ns = self.rest_if_idle(issue_ns);
        }
        self.cut_seconds(issue_ns, out);
        if self.finished() {
            return;
        }
        if let Some(log) = self.durability.as_mut() {
            log.forget_durable_before(issue_ns);
        }
        self.nand.set_now(issue_ns);
        let req = self.next_request();
        let mut t = issue_ns;
        if let Some(Reverse(slot_free_ns)) = self.drive_slots.pop() {
            t = t.max(slot_free_ns); // waits in the host for a drive command slot
        }
        // A worn-out drive is read-only: it fails writes without storing them.
        let rejected = req.op == Op::Write && self.ftl.worn_out();
        let done_ns = match req.op {
            Op::Write if rejected => self.reject_write(t, issue_ns),
            Op::Write => self.write(req, t, issue_ns),
            Op::Read => self.read(req, t, issue_ns),
            Op::Trim => self.trim(req, t, issue_ns),
        };
        *self.host_slots.peek_mut().expect("queue depth >= 1") = Reverse(done_ns);
        if self.host_waits {
            self.drive_slots.push(Reverse(done_ns));
        }
        if rejected {
            return;
        }
        let bin = self.bin(done_ns);
        let payload = if req.op == Op::Trim { 0 } else { req.bytes as u64 };
        bin.complete_io(payload, done_ns - issue_ns);
        if req.op == Op::Write {
            bin.host_write_bytes += req.bytes as u64;
        }
    }

    /// The counters of the second in which `t_ns` falls (not before the current second).
    #[inline]
    fn bin(&mut self, t_ns: u64) -> &mut SecondCounters {
        let index = (t_ns / NS_PER_S).saturating_sub(self.second as u64) as usize;
        while self.bins.len() <= index {
            self.bins.push_back(SecondCounters::default());
        }
        &mut self.bins[index]
    }

    /// Link time for `bytes` of payload.
    #[inline]
    fn payload_ns(&self, bytes: u32) -> u64 {
        bytes as u64 * self.link_ps_per_byte / 1000
    }

    /// The unit's slots after compression: 1 per unit without it; otherwise the run's mean
    /// compressed size, rounded up or down at random so the mean is kept (at least one slot).
    #[inline]
    fn compressed_slots(&mut self) -> u32 {
        if self.slots_per_unit == 1 {
            return 1;
        }
        let (whole, part) = (self.compressed_slots_1024 / 1024, self.compressed_slots_1024 % 1024);
        let up = part > 0 && self.compression_rng.below(1024) < part as u64;
        (whole + up as u32).clamp(1, self.slots_per_unit)
    }

    /// Whether unit `lpa`'s current data is still in the write buffer at `t`: in the page being
    /// assembled, or in a page whose program has not finished.
    fn buffered(&mut self, lpa: u32, t: u64) -> bool {
        if self.page.iter().any(|&(l, _)| l == lpa) {
            return true;
        }
        let Some(recent) = self.recent_programs.as_mut() else { return false };
        while recent.len() as u64 > self.buffer_capacity_units || matches!(recent.front(), Some(&(_, done)) if done <= t) {
            recent.pop_front();
        }
        recent.iter().any(|&(l, done)| l == lpa && done > t)
    }

    /// A write: command and data over the link, controller, then each unit into the write buffer
    /// (waiting for programs to free space). With protected (or volatile) buffering it is
    /// acknowledged once all of it is buffered; writing through, once its pages are programmed.
    #[inline]
    fn write(&mut self, req: Request, ready_ns: u64, now_ns: u64) -> u64 {
        let len = self.cfg.drive.host.link_overhead_ns + self.payload_ns(req.bytes);
        let mut t = self.link.book(ready_ns, len, now_ns) + len;
        t = t.max(self.controller_free_ns) + self.cfg.drive.controller.write_overhead_ns;
        self.controller_free_ns = t;
        let mut seqs = self.durability.as_ref().map(|_| Vec::with_capacity(req.units as usize));
        if self.map_cost.scheme() != MapScheme::Flat {
            t = self.map_access(req, true, t);
        }
        let mut programmed_ns = 0;
        let mut merged_ns = 0;
        let write_through = !self.capacitors.buffers_writes(&self.cfg.drive.power);
        // The buffer admits in command order: space another command waited for is not free
        // any earlier for this one.
        t = t.max(self.buffer_admitted_ns);
        let (first, end) = req.entry_span(self.entry_units, self.user_units);
        for lpa in first..end {
            if matches!(self.group, Some((_, start, _)) if t > start || !write_through) {
                self.close_group(); // its program has started: later data waits for the next
            }
            if !req.covers(lpa) {
                // Part of a unit, or of a map entry: the rest comes from its current data.
                if self.page.iter().any(|&(l, _)| l == lpa) {
                    // Merged into the page being assembled: no new unit.
                    programmed_ns = programmed_ns.max(self.joined_page(lpa, &mut seqs));
                    continue;
                }
                let ppa = self.ftl.ppa_of(lpa);
                if ppa != NONE && !self.buffered(lpa, t) {
                    // Read-modify-write: the old unit is read from its die before the merge;
                    // the command and the page wait for it, other commands do not.
                    let read_ns = self.nand.read(self.ftl.die_of_ppa(ppa), t, 1);
                    merged_ns = merged_ns.max(read_ns);
                    self.current().rmw_reads += 1;
                }
            }
            while self.buffer_used_units >= self.buffer_capacity_units {
                // Wait for the oldest program to finish and release its buffer space.
                let Reverse((freed_ns, units)) =
                    self.programs_in_flight.pop().expect("a full buffer has programs in flight");
                t = t.max(freed_ns);
                self.buffer_used_units -= units as u64;
            }
            self.buffer_used_units += 1;
            self.buffer_admitted_ns = t;
            let slots = self.compressed_slots();
            if self.page_slots + slots > self.slots_per_program || matches!(self.group, Some((_, start, _)) if merged_ns > start) {
                // It does not fit in this page (or, writing through, its data would come too
                // late for the page's program): the page goes padded, the unit starts the next.
                if write_through {
                    self.close_group();
                } else {
                    programmed_ns = programmed_ns.max(self.program_host_page(t));
                }
            }
            if write_through && self.group.is_none() && !self.open_group(t.max(merged_ns)) {
                continue; // the drive went read-only: the unit is not stored
            }
            self.page.push((lpa, slots));
            self.page_slots += slots;
            self.page_ready_ns = self.page_ready_ns.max(merged_ns);
            programmed_ns = programmed_ns.max(self.joined_page(lpa, &mut seqs));
            if self.page_slots == self.slots_per_program {
                if write_through {
                    self.close_group();
                } else {
                    programmed_ns = programmed_ns.max(self.program_host_page(t));
                }
            }
        }
        self.host_write_bytes_total += req.bytes as u64;
        t = t.max(merged_ns);
        // Writing through, the command is done when the programs of its pages are.
        let ack_ns = if write_through { t.max(programmed_ns) } else { t };
        if let (Some(log), Some(seqs)) = (self.durability.as_mut(), seqs) {
            for seq in seqs {
                log.acknowledged(seq, ack_ns);
            }
        }
        ack_ns
    }

    /// Unit `lpa`'s data has joined the page being assembled: records the write in the
    /// durability log (when one is kept) and returns when the page's program completes if it is
    /// already booked (writing through: the write is done then), else 0.
    #[inline]
    fn joined_page(&mut self, lpa: u32, seqs: &mut Option<Vec<u64>>) -> u64 {
        if let (Some(log), Some(seqs)) = (self.durability.as_mut(), seqs.as_mut()) {
            let seq = log.written(lpa);
            self.page_seqs.push(seq);
            seqs.push(seq);
        }
        self.group.map_or(0, |(_, _, done)| done)
    }

    /// A write refused by a read-only drive: the command crosses the link and the controller
    /// fails it (at least 1 us, so a host hammering a dead drive still moves the clock).
    #[cold]
    fn reject_write(&mut self, ready_ns: u64, now_ns: u64) -> u64 {
        let cmd = self.cfg.drive.host.link_overhead_ns;
        let mut t = self.link.book(ready_ns, cmd, now_ns) + cmd;
        t = t.max(self.controller_free_ns) + self.cfg.drive.controller.write_overhead_ns;
        self.controller_free_ns = t;
        t.max(now_ns + 1_000)
    }

    /// A TRIM: the command crosses the link and the controller unmaps each unit it wholly covers
    /// (a unit in the page being assembled is dropped from it, and its slots go unwritten).
    fn trim(&mut self, req: Request, ready_ns: u64, now_ns: u64) -> u64 {
        let cmd = self.cfg.drive.host.link_overhead_ns;
        let mut t = self.link.book(ready_ns, cmd, now_ns) + cmd;
        t = t.max(self.controller_free_ns) + self.cfg.drive.controller.write_overhead_ns;
        self.controller_free_ns = t;
        let m = self.entry_units;
        for lpa in req.lpa..req.lpa + req.units {
            // Only whole map entries can be unmapped.
            let entry_start = lpa / m * m;
            if !(entry_start..entry_start + m).all(|u| req.covers(u)) {
                continue;
            }
            for entry in self.page.iter_mut().filter(|e| e.0 == lpa) {
                entry.0 = NONE;
            }
            self.ftl.trim(lpa);
        }
        t
    }

    /// A read: command over the link, controller, a NAND read for each page it touches (data
    /// never written reads as zeros without one), then the data back over the link.
    #[inline]
    fn read(&mut self, req: Request, ready_ns: u64, now_ns: u64) -> u64 {
        let ctl = &self.cfg.drive.controller;
        let (read_overhead_ns, read_latency_ns) = (ctl.read_overhead_ns, ctl.read_latency_ns);
        let cmd = self.cfg.drive.host.link_overhead_ns;
        let mut t = self.link.book(ready_ns, cmd, now_ns) + cmd;
        t = t.max(self.controller_free_ns) + read_overhead_ns;
        self.controller_free_ns = t;
        if self.map_cost.scheme() != MapScheme::Flat {
            t = self.map_access(req, false, t);
        }
        let started = t;
        let mut data_ready = t;
        let mut lpa = req.lpa;
        let end = req.lpa + req.units;
        while lpa < end {
            let ppa = self.ftl.ppa_of(lpa);
            let mut n = 1;
            if ppa != NONE {
                // Consecutive units stored in one multi-plane page come from one read.
                let stripe = self.ftl.stripe_of_ppa(ppa);
                while lpa + n < end && self.ftl.ppa_of(lpa + n) != NONE && self.ftl.stripe_of_ppa(self.ftl.ppa_of(lpa + n)) == stripe {
                    n += 1;
                }
                let die = self.ftl.die_of_ppa(ppa);
                data_ready = data_ready.max(self.nand.read(die, started, n));
            }
            lpa += n;
        }
        let data = self.payload_ns(req.bytes);
        self.link.book(data_ready + read_latency_ns, data, now_ns) + data
    }

    /// The next request. Requests are drawn `LOOKAHEAD` ahead of use, so their map entries and
    /// block metadata can be loaded into cache meanwhile; the sequence is unchanged.
    #[inline]
    fn next_request(&mut self) -> Request {
        let i = self.upcoming_pos;
        let req = self.upcoming[i];
        let drawn = self.generator.next(&mut self.rng);
        self.ftl.prefetch_mapping(drawn.lpa);
        self.upcoming[i] = drawn;
        self.upcoming_pos = (i + 1) % LOOKAHEAD;
        self.ftl.prefetch_old_block(self.upcoming[(i + LOOKAHEAD / 2) % LOOKAHEAD].lpa);
        req
    }

    /// Emits a sample for every second that ends at or before `now_ns`.
    #[inline]
    fn cut_seconds(&mut self, now_ns: u64, out: &mut Vec<Sample>) {
        while now_ns >= self.second_end_ns && !self.finished() {
            let c = self.bins.pop_front().unwrap_or_default();
            let (erase_count_min, erase_count_max) = self.ftl.erase_count_range();
            out.push(Sample {
                second: self.second,
                iops: c.ios,
                mb_s: c.bytes as f64 / 1e6,
                mean_latency_us: if c.ios == 0 { 0.0 } else { c.latency_sum_ns as f64 / c.ios as f64 / 1e3 },
                max_latency_us: c.latency_max_ns as f64 / 1e3,
                gc_moves: c.gc_moves,
                erases: c.erases,
                free_blocks: self.ftl.free_blocks() as u32,
                host_writes: c.host_write_bytes as f64 / UNIT_BYTES as f64,
                nand_writes: c.nand_write_bytes as f64 / UNIT_BYTES as f64,
                rmw_reads: c.rmw_reads,
                write_amplification: if self.host_write_bytes_total == 0 {
                    0.0
                } else {
                    self.nand_write_bytes_total as f64 / self.host_write_bytes_total as f64
                },
                host_cpu_cores: c.ios as f64 * self.cfg.drive.host.host_cpu_cycles_per_io as f64 / HOST_CPU_HZ,
                buffer_units: self.buffer_occupancy(self.second_end_ns),
                write_buffering: self.capacitors.buffers_writes(&self.cfg.drive.power) as u32,
                capacitors_healthy: (self.capacitors == CapacitorState::Healthy) as u32,
                smart_flag: self.capacitors.smart_flag() as u32,
                acknowledged_writes_lost: c.acknowledged_writes_lost,
                map_hit_rate: if c.map_lookups == 0 { 1.0 } else { 1.0 - c.map_misses as f64 / c.map_lookups as f64 },
                gc_active_dies: (0..self.cfg.drive.geometry.dies).filter(|&d| self.ftl.has_victim(d)).count() as u32,
                gc_boost: self.gc_boost as u32,
                erase_count_min,
                erase_count_max,
                retired_blocks: self.ftl.retired_blocks() as u32,
                read_only: self.ftl.worn_out(),
            });
            self.second += 1;
            self.second_end_ns += NS_PER_S;
            self.capacitor_events();
        }
    }

    /// Programs the buffered page (padding it if it is not full) on the next die in the stripe;
    /// returns when the program completes.
    /// Looks up (or updates) the map entries of a request under the drive's mapping scheme:
    /// a missing map page is read from NAND first; write-backs and tree clean-ups cost NAND
    /// programs, and a clean-up holds the controller. Returns when the request may proceed.
    fn map_access(&mut self, req: Request, update: bool, mut t: u64) -> u64 {
        let dies = self.cfg.drive.geometry.dies;
        let page_units = self.cfg.drive.geometry.units_per_page();
        for lpa in req.lpa..req.lpa + req.units {
            let work = self.map_cost.access(lpa, update);
            let c = self.current();
            c.map_lookups += 1;
            c.map_misses += work.miss as u32;
            if work.controller_ns > 0 {
                t = t.max(self.controller_free_ns) + work.controller_ns;
                self.controller_free_ns = t;
            }
            if let Some(page) = work.read_page {
                // Map pages are spread over the dies like data.
                t = self.nand.read(page % dies, t, page_units);
            }
            for _ in 0..work.write_pages {
                let die = self.next_die;
                self.next_die = (self.next_die + 1) % dies;
                self.nand.program(die, t, self.units_per_program);
                self.count_nand_programs(1);
            }
        }
        t
    }

    /// If `issue_ns` falls in one of the host's idle periods, the host waits for the next burst;
    /// meanwhile the drive collects in the background. Returns the new issue time.
    fn rest_if_idle(&mut self, issue_ns: u64) -> u64 {
        let burst_ns = self.cfg.burst_s as u64 * NS_PER_S;
        let period_ns = burst_ns + self.cfg.idle_s as u64 * NS_PER_S;
        let into_period = issue_ns % period_ns;
        if into_period < burst_ns {
            return issue_ns;
        }
        let idle_from = issue_ns - into_period + burst_ns;
        let idle_until = issue_ns - into_period + period_ns;
        self.background_gc(idle_from, idle_until);
        let wake = |h: &BinaryHeap<Reverse<u64>>| h.iter().map(|&Reverse(t)| Reverse(t.max(idle_until))).collect();
        self.host_slots = wake(&self.host_slots);
        self.drive_slots = wake(&self.drive_slots);
        idle_until
    }

    /// Idle-time collection: each die scans victims while it has time before `until_ns` and
    /// fewer than `gc.background_free_blocks` free blocks.
    fn background_gc(&mut self, from_ns: u64, until_ns: u64) {
        let target = self.cfg.drive.gc.background_free_blocks;
        if target == 0 {
            return;
        }
        for die in 0..self.cfg.drive.geometry.dies {
            while self.ftl.die_free_blocks(die) < target || self.ftl.has_victim(die) {
                let start = self.nand.die_free_ns(die).max(from_ns);
                if start >= until_ns || (!self.ftl.has_victim(die) && !self.ftl.pick_victim(die)) {
                    break;
                }
                self.scan_stripe(die, start);
            }
        }
    }

    /// Units in the write buffer at `t_ns`: admitted and not yet programmed.
    fn buffer_occupancy(&self, t_ns: u64) -> u32 {
        let freed: u64 = self.programs_in_flight.iter().filter(|&&Reverse((done, _))| done <= t_ns).map(|&Reverse((_, u))| u as u64).sum();
        self.buffer_used_units.saturating_sub(freed) as u32
    }

    /// The capacitor bank fails when configured to; the drive notices at its next self-test.
    fn capacitor_events(&mut self) {
        let p = &self.cfg.drive.power;
        if self.capacitors == CapacitorState::Healthy && p.capacitor_fails_at_s > 0 && self.second >= p.capacitor_fails_at_s {
            self.capacitors = CapacitorState::FailedUnnoticed;
        }
        if self.capacitors == CapacitorState::FailedUnnoticed && self.second % p.self_test_interval_s == 0 {
            self.capacitors = CapacitorState::Failed;
        }
    }

    fn program_host_page(&mut self, ready_ns: u64) -> u64 {
        let ready_ns = ready_ns.max(std::mem::take(&mut self.page_ready_ns));
        let Some((die, done)) = self.book_host_program(ready_ns) else { return ready_ns };
        self.store_page(die, ready_ns, done);
        self.pace_gc(die, ready_ns);
        done
    }

    /// Writing through: books the program of a new page whose first unit is ready at `ready_ns`,
    /// so commands arriving before it starts can join it. False if the drive went read-only.
    fn open_group(&mut self, ready_ns: u64) -> bool {
        match self.book_host_program(ready_ns) {
            Some((die, done)) => {
                self.group = Some((die, done - self.program_time_ns, done));
                self.pace_gc(die, ready_ns);
                true
            }
            None => false,
        }
    }

    /// Writing through: the group's program has started; its page is stored as it stands.
    fn close_group(&mut self) {
        if let Some((die, start, done)) = self.group.take() {
            self.page_ready_ns = 0;
            self.store_page(die, start, done);
        }
    }

    /// Books the next host page's program: the die is the next in the stripe; returns it and
    /// when the program completes, or None if the drive has gone read-only (the page in the
    /// buffer is then dropped: its old copies stay mapped, and later writes are refused).
    fn book_host_program(&mut self, ready_ns: u64) -> Option<(u32, u64)> {
        // Host pages stripe across dies round-robin, so every die receives the same share of
        // data and its own GC keeps pace with it (picking the least busy die instead lets a die
        // that is behind on GC receive less data, and a lazy die fill up with valid data).
        let die = self.next_die;
        self.next_die = (self.next_die + 1) % self.cfg.drive.geometry.dies;
        self.collect_until_block_available(die, ready_ns);
        if !self.ftl.worn_out() && self.ftl.needs_block(die, Stream::Host, self.slots_per_program) && self.ftl.die_free_blocks(die) == 0 {
            self.ftl.set_worn_out();
        }
        if self.ftl.worn_out() {
            self.page.clear();
            self.page_slots = 0;
            self.page_seqs.clear();
            return None;
        }
        let done = self.nand.program(die, ready_ns, self.units_per_program);
        self.count_nand_programs(1);
        Some((die, done))
    }

    /// Consistency-first pacing: each host page earns its die a share of GC work.
    fn pace_gc(&mut self, die: u32, ready_ns: u64) {
        if self.cfg.drive.gc.pacing == GcPacing::ConsistencyFirst {
            self.paced_gc(die, ready_ns);
        }
    }

    /// Maps the page's units to `die`'s host stream (padding the rest of the page) and hands
    /// their buffer space to the program completing at `done`.
    fn store_page(&mut self, die: u32, ready_ns: u64, done: u64) {
        let units = self.page.len() as u32;
        for i in 0..self.page.len() {
            let (lpa, slots) = self.page[i];
            if lpa != NONE {
                self.ftl.write(die, Stream::Host, lpa, slots);
            }
        }
        if self.page_slots < self.slots_per_program {
            self.ftl.pad_to_program(die, Stream::Host);
        }
        if let Some(recent) = self.recent_programs.as_mut() {
            recent.extend(self.page.iter().map(|&(lpa, _)| (lpa, done)));
        }
        self.page.clear();
        self.page_slots = 0;
        self.programs_in_flight.push(Reverse((done, units)));
        if let Some(log) = self.durability.as_mut() {
            for &seq in &self.page_seqs {
                log.programmed(seq, done);
            }
            self.page_seqs.clear();
        }
        self.journal_map_updates(die, ready_ns, units);
    }

    /// The map lives in NAND, cached in DRAM [000]: each update is journalled (8 bytes: LPA and
    /// new location) and a full journal page is programmed to a metadata area outside the user
    /// blocks. Its programs compete for the dies like any other.
    fn journal_map_updates(&mut self, die: u32, ready_ns: u64, updates: u32) {
        self.journal_dirty_bytes += updates as u64 * JOURNAL_ENTRY_BYTES;
        let page_bytes = self.units_per_program as u64 * UNIT_BYTES;
        if self.journal_dirty_bytes >= page_bytes {
            self.journal_dirty_bytes -= page_bytes;
            self.nand.program(die, ready_ns, self.units_per_program);
            self.count_nand_programs(1);
        }
    }

    /// Power fails at `at_ns`: the capacitor bank flushes what its energy allows, the rest of what
    /// the host was told is lost; the drive powers on again after rebuilding its mapping table.
    fn power_cut(&mut self, at_ns: u64) {
        self.close_group();
        let d = &self.cfg.drive;
        let g = &d.geometry;
        let upp = self.units_per_program as u64;
        let unit_transfer_ns = UNIT_BYTES * 1000 / d.timing.channel_mb_s;
        let page_program_ns = d.timing.program_ns + upp * unit_transfer_ns;
        let journal_pages = (self.journal_dirty_bytes > 0) as u64;
        let log = self.durability.get_or_insert_with(DurabilityLog::default);
        let mut report = power::cut(
            log,
            at_ns,
            self.capacitors.energy_uj(&d.power),
            d.power.flush_power_mw,
            upp,
            g.dies as u64,
            page_program_ns,
            journal_pages,
        );
        // Power-on: load the map from NAND (all dies reading in parallel); after an unsafe
        // shutdown also read every block's summary to find what the journal missed.
        let page_read_ns = d.timing.read_ns + upp * unit_transfer_ns;
        let table_pages = (d.user_units() * 4).div_ceil(upp * UNIT_BYTES);
        let mut rebuild_ns = table_pages.div_ceil(g.dies as u64) * page_read_ns;
        let journal_saved = report.energy_stored_uj >= report.energy_needed_uj || journal_pages == 0;
        if report.acknowledged_writes_lost > 0 || !journal_saved {
            rebuild_ns += g.total_blocks().div_ceil(g.dies as u64) * d.timing.read_ns;
        }
        report.rebuild_ms = rebuild_ns as f64 / 1e6;

        // What was still in the page buffer: flushed data is written, lost data never reaches
        // the map (those LPAs keep their previous data).
        let all_saved = report.acknowledged_writes_lost == 0;
        if all_saved && !self.page.is_empty() {
            self.program_host_page(at_ns);
        }
        self.page.clear();
        self.page_slots = 0;
        self.page_seqs.clear();
        self.programs_in_flight.clear();
        if let Some(recent) = self.recent_programs.as_mut() {
            recent.clear();
        }
        self.buffer_used_units = 0;
        self.buffer_admitted_ns = at_ns;
        self.journal_dirty_bytes = 0;
        if let Some(log) = self.durability.as_mut() {
            log.clear();
        }
        let resume_ns = at_ns + rebuild_ns;
        self.nand.stall_until(resume_ns);
        self.controller_free_ns = self.controller_free_ns.max(resume_ns);
        let wake = |h: &BinaryHeap<Reverse<u64>>| h.iter().map(|&Reverse(t)| Reverse(t.max(resume_ns))).collect();
        self.host_slots = wake(&self.host_slots);
        self.drive_slots = wake(&self.drive_slots);
        self.bin(at_ns).acknowledged_writes_lost += report.acknowledged_writes_lost as u32;
        self.cut_reports.push(report);
    }

    /// NAND programs (each a multi-plane page) and GC work count in the second the host's clock
    /// is in.
    #[inline]
    fn count_nand_programs(&mut self, programs: u32) {
        let bytes = programs as u64 * self.units_per_program as u64 * UNIT_BYTES;
        self.current().nand_write_bytes += bytes;
        self.nand_write_bytes_total += bytes;
    }

    #[inline]
    fn current(&mut self) -> &mut SecondCounters {
        if self.bins.is_empty() {
            self.bins.push_back(SecondCounters::default());
        }
        &mut self.bins[0]
    }

    /// Foreground collection: if opening a block would eat into the reserve, the die collects
    /// whole victims now, and the host page waits behind that work on the die.
    /// A lazy drive, once there, cleans in bulk: until the die is back at `start_free_blocks`.
    fn collect_until_block_available(&mut self, die: u32, now_ns: u64) {
        let gc = &self.cfg.drive.gc;
        let reserve = gc.min_free_blocks;
        let target = if gc.pacing == GcPacing::Lazy { gc.start_free_blocks } else { reserve };
        if !(self.ftl.needs_block(die, Stream::Host, self.slots_per_program) && self.ftl.die_free_blocks(die) <= reserve) {
            return;
        }
        // Every victim with free space gains the die a block; a die that collects more victims
        // than it has blocks without getting there is only reshuffling full blocks (retirement
        // has left no spare area): the drive is worn out.
        let mut victims = 0;
        while self.ftl.die_free_blocks(die) <= target && !self.ftl.worn_out() {
            if !self.ftl.has_victim(die) && !self.ftl.pick_victim(die) {
                return; // nothing to collect: validation keeps spare area, so this is unreachable
            }
            victims += 1;
            if victims > self.cfg.drive.geometry.blocks_per_die() {
                self.ftl.set_worn_out();
                return;
            }
            while self.ftl.has_victim(die) && !self.ftl.worn_out() {
                self.scan_stripe(die, now_ns);
            }
        }
    }

    /// Consistency-first pacing: each host page programmed on a die lets that die scan victim
    /// stripes in proportion to the rate that frees a block exactly as fast as the host fills one
    /// (stripes per host page = slots_per_block / (slots_per_block - victim_valid)), times
    /// `paced_percent`, or `boost_percent` while the drive-wide free pool is being refilled.
    fn paced_gc(&mut self, die: u32, now_ns: u64) {
        if self.ftl.worn_out() {
            return;
        }
        let gc = &self.cfg.drive.gc;
        let start = gc.start_free_blocks;
        let dies = self.cfg.drive.geometry.dies as u64;
        let average_free = self.ftl.free_blocks() / dies;
        if average_free <= gc.boost_below_free_blocks as u64 {
            self.gc_boost = true;
        } else if average_free >= gc.boost_until_free_blocks as u64 {
            self.gc_boost = false;
        }
        let percent = if self.gc_boost { gc.boost_percent } else { gc.paced_percent } as u64;
        let d = die as usize;
        let free = self.ftl.die_free_blocks(die);
        if !self.ftl.has_victim(die) && free > start {
            self.gc_credit[d] = 0;
            return;
        }
        // Far below the threshold this die has fallen behind the rest: pay double to catch up.
        let urgency = if free <= gc.boost_below_free_blocks / 2 { 2 } else { 1 };
        self.gc_credit[d] += self.slots_per_block * percent * urgency;
        loop {
            if !self.ftl.has_victim(die) {
                if self.ftl.die_free_blocks(die) > start || !self.ftl.pick_victim(die) {
                    self.gc_credit[d] = 0;
                    return;
                }
                // Pace on a running average of victims' free space, not on this victim alone,
                // so a cold, nearly full victim (cost-benefit, FIFO) does not stall its die
                // while the dies around it run ahead.
                let valid = self.ftl.victim_valid(die).unwrap_or(0) as u64;
                let cost = (self.slots_per_block - valid).max(1) * 100;
                let avg = &mut self.gc_stripe_cost[d];
                *avg = if *avg == 0 { cost } else { (*avg * 7 + cost) / 8 };
            }
            if self.gc_credit[d] < self.gc_stripe_cost[d] || self.ftl.worn_out() {
                return;
            }
            self.gc_credit[d] -= self.gc_stripe_cost[d];
            self.scan_stripe(die, now_ns);
        }
    }

    /// Scans one stripe of the die's victim and books the NAND work it needs.
    fn scan_stripe(&mut self, die: u32, now_ns: u64) {
        let scan = self.ftl.scan_victim_stripe(die);
        if scan.moved > 0 {
            let read_done = self.nand.read(die, now_ns, scan.moved_slots.div_ceil(self.slots_per_unit));
            for _ in 0..scan.programs_due {
                self.nand.program(die, read_done, self.units_per_program);
            }
            self.current().gc_moves += scan.moved;
            self.count_nand_programs(scan.programs_due);
        }
        if scan.erased {
            self.nand.erase(die, now_ns);
            self.current().erases += 1;
        }
    }
}
