//! The simulation loop: a closed-loop host keeps `queue_depth` commands issued; each command
//! crosses the link and the controller, waits for room in the write buffer, and is acknowledged.
//! Buffered units are programmed a multi-plane page at a time to the least busy die, and each
//! host page earns that die its share of garbage collection, which books the same dies.
//!
//! Every stage is a FIFO resource timeline, so acknowledgements come out in time order and the
//! per-second samples are cut as the acknowledgement clock crosses each second.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::config::{GcPacing, RunConfig, UNIT_BYTES};
use crate::ftl::{Ftl, Stream};
use crate::metrics::{Sample, SecondCounters};
use crate::nand::Nand;
use crate::rng::Rng;

const NS_PER_S: u64 = 1_000_000_000;
/// How many host LPAs are drawn ahead of use (for prefetching).
const LOOKAHEAD: usize = 32;

pub struct Simulation {
    cfg: RunConfig,
    ftl: Ftl,
    nand: Nand,
    rng: Rng,
    span_units: u64,
    units_per_program: u32,
    units_per_block: u64,

    // Host and front end.
    /// When each of the host's queue slots can issue its next command.
    slot_free_ns: BinaryHeap<Reverse<u64>>,
    link_free_ns: u64,
    controller_free_ns: u64,
    link_ns_per_write: u64,

    // Write buffer.
    buffer_capacity_units: u64,
    buffer_used_units: u64,
    /// Completion times of host programs whose data still occupies the buffer.
    programs_in_flight: BinaryHeap<Reverse<u64>>,
    /// Logical units of the page being assembled in the buffer.
    page: Vec<u32>,

    /// Host LPAs drawn ahead of use, a ring read at `upcoming_pos`.
    upcoming: [u32; LOOKAHEAD],
    upcoming_pos: usize,
    /// Die that receives the next host page.
    next_die: u32,

    // Garbage collection pacing, per die.
    gc_credit: Vec<u64>,
    gc_stripe_cost: Vec<u64>,
    /// The drive is refilling its free pool (see `GcConfig::boost_percent`).
    gc_boost: bool,

    // Accounting.
    second: u32,
    second_end_ns: u64,
    current: SecondCounters,
    host_writes_total: u64,
    nand_writes_total: u64,
}

impl Simulation {
    /// Builds the drive, secure-erased, and fills the tested span sequentially (the articles'
    /// preconditioning; it takes no simulated time, the test phase starts at t = 0 after it).
    pub fn new(cfg: RunConfig) -> Result<Self, crate::config::ConfigError> {
        cfg.validate()?;
        let d = &cfg.drive;
        let g = &d.geometry;
        let upp = g.units_per_program();
        let mut sim = Simulation {
            ftl: Ftl::new(g.dies, g.blocks_per_die(), g.units_per_block(), upp, d.user_units()),
            nand: Nand::new(g, &d.timing),
            rng: Rng::new(cfg.seed),
            span_units: cfg.span_units(),
            units_per_program: upp,
            units_per_block: g.units_per_block() as u64,
            slot_free_ns: (0..cfg.queue_depth).map(|_| Reverse(0)).collect(),
            link_free_ns: 0,
            controller_free_ns: 0,
            link_ns_per_write: d.host.link_overhead_ns + UNIT_BYTES * 1000 / d.host.link_mb_s,
            buffer_capacity_units: d.controller.write_buffer_bytes / UNIT_BYTES,
            buffer_used_units: 0,
            programs_in_flight: BinaryHeap::new(),
            page: Vec::with_capacity(upp as usize),
            upcoming: [0; LOOKAHEAD],
            upcoming_pos: 0,
            next_die: 0,
            gc_credit: vec![0; g.dies as usize],
            gc_stripe_cost: vec![1; g.dies as usize],
            gc_boost: false,
            second: 0,
            second_end_ns: NS_PER_S,
            current: SecondCounters::default(),
            host_writes_total: 0,
            nand_writes_total: 0,
            cfg,
        };
        sim.sequential_fill();
        for i in 0..LOOKAHEAD {
            sim.upcoming[i] = sim.rng.below(sim.span_units) as u32;
        }
        Ok(sim)
    }

    fn sequential_fill(&mut self) {
        let dies = self.cfg.drive.geometry.dies;
        let upp = self.units_per_program as u64;
        for lpa in 0..self.span_units {
            let die = ((lpa / upp) % dies as u64) as u32;
            self.ftl.write(die, Stream::Host, lpa as u32);
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

    /// Bytes held by the model (mapping tables dominate).
    pub fn memory_bytes(&self) -> u64 {
        self.ftl.memory_bytes() + self.nand.memory_bytes() + self.cfg.drive.geometry.dies as u64 * 16
    }

    /// Runs until `max_ios` more host IOs have been issued or the run is finished; appends every
    /// second completed meanwhile to `out`. Returns the number of IOs processed.
    pub fn advance(&mut self, max_ios: u64, out: &mut Vec<Sample>) -> u64 {
        let mut done = 0;
        while done < max_ios && !self.finished() {
            self.host_write(out);
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
    fn host_write(&mut self, out: &mut Vec<Sample>) {
        let issue_ns = self.slot_free_ns.peek().expect("queue depth >= 1").0;
        let mut t = issue_ns.max(self.link_free_ns) + self.link_ns_per_write;
        self.link_free_ns = t;
        t = t.max(self.controller_free_ns) + self.cfg.drive.controller.write_overhead_ns;
        self.controller_free_ns = t;
        if self.buffer_used_units >= self.buffer_capacity_units {
            // Wait for the oldest program to finish and release its buffer space.
            let Reverse(freed_ns) = self.programs_in_flight.pop().expect("a full buffer has programs in flight");
            t = t.max(freed_ns);
            self.buffer_used_units -= self.units_per_program as u64;
        }
        self.buffer_used_units += 1;
        let ack_ns = t;
        self.nand.set_now(ack_ns);
        *self.slot_free_ns.peek_mut().expect("queue depth >= 1") = Reverse(ack_ns);

        self.cut_seconds(ack_ns, out);
        self.current.complete_io(UNIT_BYTES, ack_ns - issue_ns);
        self.current.host_writes += 1;
        self.host_writes_total += 1;

        let lpa = self.next_lpa();
        self.page.push(lpa);
        if self.page.len() as u32 == self.units_per_program {
            self.program_host_page(ack_ns);
        }
    }

    /// The next host LPA. LPAs are drawn `LOOKAHEAD` writes before they are used, so their map
    /// entries and block metadata can be loaded into cache meanwhile; the sequence is unchanged.
    #[inline]
    fn next_lpa(&mut self) -> u32 {
        let i = self.upcoming_pos;
        let lpa = self.upcoming[i];
        let drawn = self.rng.below(self.span_units) as u32;
        self.ftl.prefetch_mapping(drawn);
        self.upcoming[i] = drawn;
        self.upcoming_pos = (i + 1) % LOOKAHEAD;
        self.ftl.prefetch_old_block(self.upcoming[(i + LOOKAHEAD / 2) % LOOKAHEAD]);
        lpa
    }

    /// Emits a sample for every second that ends at or before `now_ns`.
    #[inline]
    fn cut_seconds(&mut self, now_ns: u64, out: &mut Vec<Sample>) {
        while now_ns >= self.second_end_ns && !self.finished() {
            let c = std::mem::take(&mut self.current);
            out.push(Sample {
                second: self.second,
                iops: c.ios,
                mb_s: c.bytes as f64 / 1e6,
                mean_latency_us: if c.ios == 0 { 0.0 } else { c.latency_sum_ns as f64 / c.ios as f64 / 1e3 },
                max_latency_us: c.latency_max_ns as f64 / 1e3,
                gc_moves: c.gc_moves,
                erases: c.erases,
                free_blocks: self.ftl.free_blocks() as u32,
                host_writes: c.host_writes,
                nand_writes: c.nand_writes,
                write_amplification: if self.host_writes_total == 0 {
                    0.0
                } else {
                    self.nand_writes_total as f64 / self.host_writes_total as f64
                },
            });
            self.second += 1;
            self.second_end_ns += NS_PER_S;
        }
    }

    fn program_host_page(&mut self, ready_ns: u64) {
        // Host pages stripe across dies round-robin, so every die receives the same share of
        // data and its own GC keeps pace with it (picking the least busy die instead lets a die
        // that is behind on GC receive less data, and a lazy die fill up with valid data).
        let die = self.next_die;
        self.next_die = (self.next_die + 1) % self.cfg.drive.geometry.dies;
        self.collect_until_block_available(die, ready_ns);
        for i in 0..self.page.len() {
            self.ftl.write(die, Stream::Host, self.page[i]);
        }
        self.page.clear();
        let done = self.nand.program(die, ready_ns, self.units_per_program);
        self.programs_in_flight.push(Reverse(done));
        self.count_nand_writes(self.units_per_program);
        if self.cfg.drive.gc.pacing == GcPacing::ConsistencyFirst {
            self.paced_gc(die, ready_ns);
        }
    }

    #[inline]
    fn count_nand_writes(&mut self, units: u32) {
        self.current.nand_writes += units;
        self.nand_writes_total += units as u64;
    }

    /// Foreground collection: if opening a block would eat into the reserve, the die collects
    /// whole victims now, and the host page waits behind that work on the die.
    fn collect_until_block_available(&mut self, die: u32, now_ns: u64) {
        let reserve = self.cfg.drive.gc.min_free_blocks;
        let units = self.page.len() as u32;
        while self.ftl.needs_block(die, Stream::Host, units) && self.ftl.die_free_blocks(die) <= reserve {
            if !self.ftl.has_victim(die) && !self.ftl.pick_victim(die) {
                return; // nothing to collect: validation keeps spare area, so this is unreachable
            }
            while self.ftl.has_victim(die) {
                self.scan_stripe(die, now_ns);
            }
        }
    }

    /// Consistency-first pacing: each host page programmed on a die lets that die scan victim
    /// stripes in proportion to the rate that frees a block exactly as fast as the host fills one
    /// (stripes per host page = units_per_block / (units_per_block - victim_valid)), times
    /// `paced_percent`, or `boost_percent` while the drive-wide free pool is being refilled.
    fn paced_gc(&mut self, die: u32, now_ns: u64) {
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
        self.gc_credit[d] += self.units_per_block * percent * urgency;
        loop {
            if !self.ftl.has_victim(die) {
                if self.ftl.die_free_blocks(die) > start || !self.ftl.pick_victim(die) {
                    self.gc_credit[d] = 0;
                    return;
                }
                let valid = self.ftl.victim_valid(die).unwrap_or(0) as u64;
                self.gc_stripe_cost[d] = (self.units_per_block - valid).max(1) * 100;
            }
            if self.gc_credit[d] < self.gc_stripe_cost[d] {
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
            let read_done = self.nand.read(die, now_ns, scan.moved);
            for _ in 0..scan.programs_due {
                self.nand.program(die, read_done, self.units_per_program);
            }
            self.current.gc_moves += scan.moved;
            self.count_nand_writes(scan.moved);
        }
        if scan.erased {
            self.nand.erase(die, now_ns);
            self.current.erases += 1;
        }
    }
}
