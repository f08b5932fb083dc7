//! The flash side of the controller: the FTL, the NAND timelines, what the map costs, the map
//! journal, and the counters of NAND work. Everything that books NAND operations goes through
//! here, so each is counted once. It holds the controller's processor too, which GC
//! relocations and map clean-ups share with host commands.

use crate::command::Request;
use crate::config::{CellType, DriveConfig, NandTiming};
use crate::units::{ConfigError, NONE, UNIT_BYTES};

use super::firmware::Firmware;
use super::ftl::{Ftl, Mode, PageAt, Stream};
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
    /// The part of `nand_write_bytes` that was map and journal pages (metadata, not data).
    pub map_write_bytes: u64,
    /// Host data accepted by write commands.
    pub host_write_bytes: u64,
    pub rmw_reads: u64,
    pub map_lookups: u64,
    pub map_misses: u64,
    /// Map lookups answered by the host memory buffer.
    pub map_hmb_hits: u64,
    /// Units folded from SLC-mode blocks into native ones.
    pub folded_units: u64,
    /// Host pages the SLC cache placed, and those it placed in SLC mode (0 without a cache).
    pub cache_host_pages: u64,
    pub cache_slc_pages: u64,
    /// Zones a Zone Reset emptied (0 on a conventional drive).
    pub zone_resets: u64,
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
            map_write_bytes: self.map_write_bytes - earlier.map_write_bytes,
            host_write_bytes: self.host_write_bytes - earlier.host_write_bytes,
            rmw_reads: self.rmw_reads - earlier.rmw_reads,
            map_lookups: self.map_lookups - earlier.map_lookups,
            map_misses: self.map_misses - earlier.map_misses,
            map_hmb_hits: self.map_hmb_hits - earlier.map_hmb_hits,
            folded_units: self.folded_units - earlier.folded_units,
            cache_host_pages: self.cache_host_pages - earlier.cache_host_pages,
            cache_slc_pages: self.cache_slc_pages - earlier.cache_slc_pages,
            zone_resets: self.zone_resets - earlier.zone_resets,
            die_busy_ns: std::array::from_fn(|k| self.die_busy_ns[k] - earlier.die_busy_ns[k]),
        }
    }
}

/// A page's array times by its block's mode and its type in the wordline, built once for a drive
/// that sets SLC-mode or per-page-type times; other drives book every page at `program_ns` and
/// `read_ns` (`Nand::program`, `Nand::read`).
#[derive(Debug, Clone, PartialEq)]
struct PageTimes {
    bits: u32,
    slc_program_ns: u64,
    slc_read_ns: u64,
    /// By page type (`stripe % bits`).
    program_ns: [u64; 4],
    read_ns: [u64; 4],
}

impl PageTimes {
    fn new(t: &NandTiming, cell: CellType) -> Option<Box<Self>> {
        let uniform = t.slc_program_ns == 0
            && t.slc_read_ns == 0
            && t.program_ns_by_page.is_empty()
            && t.read_ns_by_page.is_empty();
        if uniform {
            return None;
        }
        let by_page = |list: &[u64], all: u64| std::array::from_fn(|i| list.get(i).copied().unwrap_or(all));
        Some(Box::new(PageTimes {
            bits: cell.bits(),
            slc_program_ns: t.slc_program_ns,
            slc_read_ns: if t.slc_read_ns > 0 { t.slc_read_ns } else { t.read_ns },
            program_ns: by_page(&t.program_ns_by_page, t.program_ns),
            read_ns: by_page(&t.read_ns_by_page, t.read_ns),
        }))
    }

    fn program_ns(&self, page: PageAt) -> u64 {
        match page.mode {
            Mode::Slc => self.slc_program_ns,
            Mode::Native => self.program_ns[(page.stripe % self.bits) as usize],
        }
    }

    fn read_ns(&self, page: PageAt) -> u64 {
        match page.mode {
            Mode::Slc => self.slc_read_ns,
            Mode::Native => self.read_ns[(page.stripe % self.bits) as usize],
        }
    }
}

/// The work kinds of relocating a stripe read from `page`: GC's, or folding's from an SLC-mode
/// block (its read, its programs).
fn relocation(page: PageAt) -> (Work, Work) {
    match page.mode {
        Mode::Native => (Work::GcRead, Work::GcProgram),
        Mode::Slc => (Work::Fold, Work::Fold),
    }
}

pub struct Flash {
    pub ftl: Ftl,
    pub nand: Nand,
    /// Array times by page, for drives whose pages differ (None: every page alike).
    page_times: Option<Box<PageTimes>>,
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
    /// Array program of a page when every page is alike (`timing.program_ns`), and channel time
    /// of one unit, ns.
    program_ns: u64,
    unit_transfer_ns: u64,
}

impl Flash {
    pub fn new(drive: &DriveConfig, seed: u64) -> Result<Self, ConfigError> {
        let g = &drive.geometry;
        Ok(Flash {
            ftl: Ftl::new(drive, seed)?,
            nand: Nand::new(g, &drive.timing, drive.controller.max_programming_dies),
            page_times: PageTimes::new(&drive.timing, drive.nand.cell),
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
            program_ns: drive.timing.program_ns,
            unit_transfer_ns: drive.timing.unit_transfer_ns(),
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

    /// Programs a map or journal page on `die` once its data is ready.
    fn program_map(&mut self, die: u32, ready_ns: u64) {
        self.counters.map_write_bytes += self.units_per_program as u64 * UNIT_BYTES;
        self.program(die, ready_ns, Work::Map);
    }

    /// Programs the next page of `die`'s `stream` once its data is ready, timed by its block's
    /// mode and its type in the wordline; returns when it completes.
    #[inline]
    pub fn program_next(&mut self, die: u32, ready_ns: u64, stream: Stream, work: Work) -> u64 {
        let Some(times) = &self.page_times else { return self.program(die, ready_ns, work) };
        let ns = times.program_ns(self.ftl.next_page(die, stream));
        let done = self.nand.program_as(die, ready_ns, self.units_per_program, work, ns);
        self.count_programs(1);
        done
    }

    /// Channel transfer and array time of `stream`'s next program on `die`, ns.
    pub fn program_time_ns(&self, die: u32, stream: Stream) -> u64 {
        let array = match &self.page_times {
            None => self.program_ns,
            Some(times) => times.program_ns(self.ftl.next_page(die, stream)),
        };
        self.units_per_program as u64 * self.unit_transfer_ns + array
    }

    /// Reads `units` of the page holding slot `ppa` from `ready_ns`, timed by the page; returns
    /// when the data is in the controller.
    #[inline]
    fn read_page(&mut self, ppa: u32, ready_ns: u64, units: u32, work: Work) -> u64 {
        let die = self.ftl.die_of_ppa(ppa);
        match &self.page_times {
            None => self.nand.read(die, ready_ns, units, work),
            Some(times) => {
                let ns = times.read_ns(self.ftl.page_of_ppa(ppa));
                self.nand.read_as(die, ready_ns, units, work, ns)
            }
        }
    }

    #[inline]
    pub fn count_programs(&mut self, programs: u32) {
        self.counters.nand_write_bytes += programs as u64 * self.units_per_program as u64 * UNIT_BYTES;
    }

    /// Erases one of `die`'s closed blocks that hold no valid data, from `now_ns` (no reads, no
    /// programs: `Ftl::erase_empty`). Returns false if the die has none.
    pub fn erase_empty_block(&mut self, die: u32, now_ns: u64) -> bool {
        if !self.ftl.erase_empty(die) {
            return false;
        }
        self.nand.erase(die, now_ns);
        self.counters.erases += 1;
        true
    }

    /// Scans one stripe of the die's victim and books the work it needs: the NAND read of its
    /// valid units, the controller's time on them (ECC decode, re-encode, remap), their
    /// programs, which wait for both. The controller takes the relocation on when the scan
    /// decides it, in turn with host commands; it is a rate, so when that is ahead of the read
    /// the read alone paces the programs. A victim in SLC mode is folded: its work counts as
    /// `Work::Fold`.
    pub fn scan_stripe(&mut self, die: u32, now_ns: u64) {
        // Drives whose pages differ: the page the stripe is read from and the GC stream's next
        // (looked up before the scan moves past them). Other drives are native throughout.
        let pages = self
            .page_times
            .as_deref()
            .map(|t| (t, self.ftl.victim_page(die), self.ftl.next_page(die, self.ftl.relocation_stream(die))));
        let scan = self.ftl.scan_victim_stripe(die);
        if scan.moved > 0 {
            let (units, upp) = (scan.moved_slots.div_ceil(self.slots_per_unit), self.units_per_program);
            let mut ready = match pages {
                None => self.nand.read(die, now_ns, units, Work::GcRead),
                Some((times, from, _)) => {
                    self.nand.read_as(die, now_ns, units, relocation(from).0, times.read_ns(from))
                }
            };
            if self.gc_move_ns > 0 {
                ready = ready.max(self.firmware.run_now(scan.moved as u64 * self.gc_move_ns));
            }
            match pages {
                None => {
                    for _ in 0..scan.programs_due {
                        self.nand.program(die, ready, upp, Work::GcProgram);
                    }
                }
                // Blocks hold whole wordlines, so the programs' page types follow on across blocks.
                Some((times, from, to)) => {
                    if from.mode == Mode::Slc {
                        self.counters.folded_units += scan.moved as u64;
                    }
                    for i in 0..scan.programs_due {
                        let ns = times.program_ns(PageAt { mode: Mode::Native, stripe: to.stripe + i });
                        self.nand.program_as(die, ready, upp, relocation(from).1, ns);
                    }
                }
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
            self.program_map(die, ready_ns);
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
    /// a missing map page is read from NAND first (or fetched from the host memory buffer);
    /// write-backs and tree clean-ups cost NAND programs, and a clean-up holds the controller.
    /// Returns when the request may proceed.
    pub fn map_access(&mut self, req: Request, update: bool, mut t: u64) -> u64 {
        for lpa in req.lpa..req.lpa + req.units {
            let work = self.map_cost.access(lpa, update);
            self.counters.map_lookups += 1;
            self.counters.map_misses += work.miss as u64;
            self.counters.map_hmb_hits += work.hmb_hit as u64;
            t += work.host_ns;
            if work.controller_ns > 0 {
                t = self.firmware.run(t, work.controller_ns);
            }
            if let Some(page) = work.read_page {
                // Map pages are spread over the dies like data.
                t = self.nand.read(page % self.dies, t, self.units_per_page, Work::Map);
            }
            for _ in 0..work.write_pages {
                let die = self.next_die();
                self.program_map(die, t);
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
                data_ready = data_ready.max(self.read_page(ppa, started_ns, n, Work::HostRead));
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
        self.read_page(ppa, t_ns, 1, Work::HostRead)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::Op;
    use crate::drive::ftl::tests::small_tlc_drive;

    /// Books `pages` programs of `stream` on die 0 and writes their units; returns the die's
    /// time on host programs it added.
    fn program_pages(flash: &mut Flash, stream: Stream, pages: u32, first_lpa: u32) -> u64 {
        let before = flash.nand.busy_ns()[0][Work::HostProgram as usize];
        for p in 0..pages {
            flash.program_next(0, 0, stream, Work::HostProgram);
            for u in 0..flash.units_per_program {
                flash.ftl.write(0, stream, first_lpa + p * flash.units_per_program + u, 1);
            }
        }
        flash.nand.busy_ns()[0][Work::HostProgram as usize] - before
    }

    #[test]
    fn programs_and_reads_are_timed_by_block_mode_and_page_type() {
        let mut drive = small_tlc_drive();
        let xfer = drive.geometry.units_per_program() as u64 * drive.timing.unit_transfer_ns();
        // Every page alike: `program_ns` each.
        let mut flash = Flash::new(&drive, 1).unwrap();
        assert_eq!(program_pages(&mut flash, Stream::Host, 6, 0), 6 * (xfer + drive.timing.program_ns));
        // One-shot TLC: three pages load a wordline and it programs once.
        let t = 2_000_000;
        drive.timing.program_ns = t;
        drive.timing.program_ns_by_page = vec![0, 0, t];
        drive.timing.read_ns_by_page = vec![50_000, 60_000, 70_000];
        drive.timing.slc_program_ns = 200_000;
        drive.timing.slc_read_ns = 30_000;
        drive.validate().unwrap();
        let mut flash = Flash::new(&drive, 1).unwrap();
        assert_eq!(program_pages(&mut flash, Stream::Host, 6, 0), 6 * xfer + 2 * t);
        // The write path's group start agrees: the next page is a lower page again.
        assert_eq!(flash.program_time_ns(0, Stream::Host), xfer);
        // In SLC mode each page is one fast program.
        assert_eq!(program_pages(&mut flash, Stream::Slc, 3, 1000), 3 * (xfer + 200_000));
        // A read costs its page's time: upper page 2, then an SLC page.
        let unit = drive.timing.unit_transfer_ns();
        let upp = drive.geometry.units_per_program();
        let read = |flash: &mut Flash, lpa: u32| {
            let before = flash.nand.busy_ns()[0][Work::HostRead as usize];
            flash.nand.set_now(1_000_000_000);
            flash.read(Request::at(Op::Read, lpa as u64 * UNIT_BYTES, UNIT_BYTES as u32), 1_000_000_000);
            flash.nand.busy_ns()[0][Work::HostRead as usize] - before
        };
        assert_eq!(read(&mut flash, 2 * upp), 70_000 + unit);
        assert_eq!(read(&mut flash, upp), 60_000 + unit);
        assert_eq!(read(&mut flash, 1000), 30_000 + unit);
    }
}
