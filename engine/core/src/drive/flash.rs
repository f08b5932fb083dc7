//! The flash side of the controller: the FTL, the NAND timelines, what the map costs, the map
//! journal, and the counters of NAND work. Everything that books NAND operations goes through
//! here, so each is counted once. It holds the controller's processor too, which GC
//! relocations and map clean-ups share with host commands.

use crate::command::Request;
use crate::config::DriveConfig;
use crate::units::{ConfigError, NONE, UNIT_BYTES};

use super::firmware::Firmware;
use super::ftl::Ftl;
use super::mapping::MapCost;
use super::nand::{Nand, Work, WORK_KINDS};

/// A journal entry: the LPA and its new physical location.
const JOURNAL_ENTRY_BYTES: u64 = 8;

/// Cumulative counts since the test phase began (the bench turns them into per-second figures).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Counters {
    pub gc_moves: u64,
    pub erases: u64,
    /// NAND programmed: host pages, GC relocations, map and journal pages.
    pub nand_write_bytes: u64,
    /// Host data accepted by write commands.
    pub host_write_bytes: u64,
    pub rmw_reads: u64,
    pub map_lookups: u64,
    pub map_misses: u64,
    /// Die time booked for each kind of work, summed over dies, ns (`nand::Work`'s order).
    pub die_busy_ns: [u64; WORK_KINDS],
}

impl Counters {
    /// The work done since `earlier` was taken.
    pub fn since(&self, earlier: &Counters) -> Counters {
        Counters {
            gc_moves: self.gc_moves - earlier.gc_moves,
            erases: self.erases - earlier.erases,
            nand_write_bytes: self.nand_write_bytes - earlier.nand_write_bytes,
            host_write_bytes: self.host_write_bytes - earlier.host_write_bytes,
            rmw_reads: self.rmw_reads - earlier.rmw_reads,
            map_lookups: self.map_lookups - earlier.map_lookups,
            map_misses: self.map_misses - earlier.map_misses,
            die_busy_ns: std::array::from_fn(|k| self.die_busy_ns[k] - earlier.die_busy_ns[k]),
        }
    }
}

pub struct Flash {
    pub ftl: Ftl,
    pub nand: Nand,
    pub firmware: Firmware,
    /// Firmware time per unit GC relocates, ns (`controller.gc_move_ns`).
    gc_move_ns: u64,
    pub counters: Counters,
    map_cost: MapCost,
    /// Mapping updates not yet written to the NAND journal, bytes.
    journal_dirty_bytes: u64,
    /// Die that receives the next host (or map) page.
    next_die: u32,
    dies: u32,
    units_per_program: u32,
    units_per_page: u32,
    slots_per_unit: u32,
}

impl Flash {
    pub fn new(drive: &DriveConfig, seed: u64) -> Result<Self, ConfigError> {
        let g = &drive.geometry;
        Ok(Flash {
            ftl: Ftl::new(drive, seed)?,
            nand: Nand::new(g, &drive.timing),
            firmware: Firmware::default(),
            gc_move_ns: drive.controller.gc_move_ns,
            counters: Counters::default(),
            map_cost: MapCost::new(&drive.map, drive.user_units(), g.page_bytes),
            journal_dirty_bytes: 0,
            next_die: 0,
            dies: g.dies,
            units_per_program: g.units_per_program(),
            units_per_page: g.units_per_page(),
            slots_per_unit: drive.controller.slots_per_unit(),
        })
    }

    pub fn memory_bytes(&self) -> u64 {
        self.ftl.memory_bytes() + self.map_cost.memory_bytes() + self.nand.memory_bytes()
    }

    /// The host's present: nothing is booked before it.
    #[inline]
    pub fn set_now(&mut self, now_ns: u64) {
        self.nand.set_now(now_ns);
        self.firmware.set_now(now_ns);
    }

    /// The die that receives the next page: pages stripe across dies round-robin, so every die
    /// receives the same share of data and its own GC keeps pace with it (picking the least busy
    /// die instead lets a die that is behind on GC receive less data, and a lazy die fill up
    /// with valid data).
    #[inline]
    pub fn next_die(&mut self) -> u32 {
        let die = self.next_die;
        self.next_die = (self.next_die + 1) % self.dies;
        die
    }

    /// Programs one multi-plane page on `die` once its data is ready; returns when it completes.
    #[inline]
    pub fn program(&mut self, die: u32, ready_ns: u64, work: Work) -> u64 {
        let done = self.nand.program(die, ready_ns, self.units_per_program, work);
        self.count_programs(1);
        done
    }

    #[inline]
    pub fn count_programs(&mut self, programs: u32) {
        self.counters.nand_write_bytes += programs as u64 * self.units_per_program as u64 * UNIT_BYTES;
    }

    /// Scans one stripe of the die's victim and books the work it needs: the NAND read of its
    /// valid units, the controller's time on them (ECC decode, re-encode, remap), their
    /// programs, which wait for both. The controller takes the relocation on when the scan
    /// decides it, in turn with host commands; it is a rate, so when that is ahead of the read
    /// the read alone paces the programs.
    pub fn scan_stripe(&mut self, die: u32, now_ns: u64) {
        let scan = self.ftl.scan_victim_stripe(die);
        if scan.moved > 0 {
            let mut ready = self.nand.read(die, now_ns, scan.moved_slots.div_ceil(self.slots_per_unit), Work::GcRead);
            if self.gc_move_ns > 0 {
                ready = ready.max(self.firmware.run_now(scan.moved as u64 * self.gc_move_ns));
            }
            for _ in 0..scan.programs_due {
                self.nand.program(die, ready, self.units_per_program, Work::GcProgram);
            }
            self.counters.gc_moves += scan.moved as u64;
            self.count_programs(scan.programs_due);
        }
        if scan.erased {
            self.nand.erase(die, now_ns);
            self.counters.erases += 1;
        }
    }

    /// The map lives in NAND, cached in DRAM [000]: each update is journalled (8 bytes: LPA and
    /// new location) and a full journal page is programmed to a metadata area outside the user
    /// blocks, on the next die in the stripe (as map pages are). Its programs compete for the
    /// dies like any other. (On the die of the page that filled it, the journal would land on
    /// the same die every time when the dies divide the host pages per journal page, and that
    /// die would pace sequential writes at 4/5 of the NAND's rate.)
    pub fn journal_map_updates(&mut self, ready_ns: u64, updates: u32) {
        self.journal_dirty_bytes += updates as u64 * JOURNAL_ENTRY_BYTES;
        let page_bytes = self.units_per_program as u64 * UNIT_BYTES;
        if self.journal_dirty_bytes >= page_bytes {
            self.journal_dirty_bytes -= page_bytes;
            let die = self.next_die();
            self.program(die, ready_ns, Work::Map);
        }
    }

    /// Pages of map updates not yet journalled (a power cut must flush them).
    pub fn journal_dirty_pages(&self) -> u64 {
        (self.journal_dirty_bytes > 0) as u64
    }

    /// Power is back: the journal was flushed or rebuilt.
    pub fn journal_saved(&mut self) {
        self.journal_dirty_bytes = 0;
    }

    /// Whether the map scheme can cost anything (the flat map never does).
    #[inline]
    pub fn map_costs(&self) -> bool {
        !self.map_cost.is_free()
    }

    /// A unit written during preconditioning (no simulated time): the map scheme sees it too.
    pub fn map_note_write(&mut self, lpa: u32) {
        self.map_cost.note_write(lpa);
    }

    /// Looks up (or updates) the map entries of a request under the drive's mapping scheme:
    /// a missing map page is read from NAND first; write-backs and tree clean-ups cost NAND
    /// programs, and a clean-up holds the controller. Returns when the request may proceed.
    pub fn map_access(&mut self, req: Request, update: bool, mut t: u64) -> u64 {
        for lpa in req.lpa..req.lpa + req.units {
            let work = self.map_cost.access(lpa, update);
            self.counters.map_lookups += 1;
            self.counters.map_misses += work.miss as u64;
            if work.controller_ns > 0 {
                t = self.firmware.run(t, work.controller_ns);
            }
            if let Some(page) = work.read_page {
                // Map pages are spread over the dies like data.
                t = self.nand.read(page % self.dies, t, self.units_per_page, Work::Map);
            }
            for _ in 0..work.write_pages {
                let die = self.next_die();
                self.program(die, t, Work::Map);
            }
        }
        t
    }

    /// Reads a request's units from NAND from `started_ns`; returns when all its data is in the
    /// controller. Consecutive units stored in one multi-plane page come from one read; data
    /// never written reads as zeros without one.
    #[inline]
    pub fn read(&mut self, req: Request, started_ns: u64) -> u64 {
        let mut data_ready = started_ns;
        let mut lpa = req.lpa;
        let end = req.lpa + req.units;
        while lpa < end {
            let ppa = self.ftl.ppa_of(lpa);
            let mut n = 1;
            if ppa != NONE {
                let stripe = self.ftl.stripe_of_ppa(ppa);
                while lpa + n < end
                    && self.ftl.ppa_of(lpa + n) != NONE
                    && self.ftl.stripe_of_ppa(self.ftl.ppa_of(lpa + n)) == stripe
                {
                    n += 1;
                }
                let die = self.ftl.die_of_ppa(ppa);
                data_ready = data_ready.max(self.nand.read(die, started_ns, n, Work::HostRead));
            }
            lpa += n;
        }
        data_ready
    }

    /// Read-modify-write: the unit stored at `ppa` is read from its die from `t_ns` so a write
    /// covering part of it can merge; returns when its data is in the controller.
    #[inline]
    pub fn read_for_merge(&mut self, ppa: u32, t_ns: u64) -> u64 {
        self.counters.rmw_reads += 1;
        self.nand.read(self.ftl.die_of_ppa(ppa), t_ns, 1, Work::HostRead)
    }
}
