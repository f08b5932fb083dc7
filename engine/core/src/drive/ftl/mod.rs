//! Flash translation: the exact page map (`map`), the block manager (`blocks`, `buckets`,
//! `free_pool`), GC victim policies (`victim/`, one file each) and wear (`wear`). Timing lives
//! in `drive/nand.rs`; this module only keeps the mapping exact.
//!
//! A unit's slots lie in one program-sized stripe (a unit that does not fit in what is left of a
//! stripe starts the next one; the rest is programmed as padding).

mod blocks;
mod buckets;
mod free_pool;
mod invariants;
mod map;
pub mod victim;
mod wear;

use crate::config::{DriveConfig, Isolation, MAX_HANDLES};
use crate::units::{ConfigError, NONE};
use blocks::{Blocks, Cursor, Placed};
pub use blocks::{Mode, PageAt};
use map::{FillLayout, PageMap};
use victim::{PolicyContext, Victim};
use wear::Wear;

/// Asks the CPU to start loading `p` into cache (a no-op where the target has no prefetch).
#[cfg(not(target_arch = "wasm32"))]
#[inline(always)]
fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetch is a hint; it never faults, whatever the address.
    unsafe {
        core::arch::x86_64::_mm_prefetch(p as *const i8, core::arch::x86_64::_MM_HINT_T0)
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// Asks for `s[i]` to be loaded into cache. Natively a prefetch (`s` unchecked: a hint never
/// faults); wasm has no prefetch instruction, so there it is an early load whose value is
/// dropped: several issued back to back miss in parallel, and the uses that follow hit.
#[inline(always)]
fn prefetch_in<T: Copy>(s: &[T], i: usize) {
    #[cfg(not(target_arch = "wasm32"))]
    prefetch(s.as_ptr().wrapping_add(i));
    #[cfg(target_arch = "wasm32")]
    if let Some(x) = s.get(i) {
        // SAFETY: `x` is a live reference; the volatile read only keeps the load from being
        // optimised away.
        let _ = unsafe { core::ptr::read_volatile(x) };
    }
}

#[cfg(test)]
thread_local! {
    /// Set by a test to build cache drives with the unit-by-unit map (Sparse, then Dense), to
    /// compare it with the map of stripes.
    pub(crate) static UNIT_MAP: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

#[cfg(test)]
fn unit_map_forced() -> bool {
    UNIT_MAP.with(|forced| forced.get())
}

#[cfg(not(test))]
fn unit_map_forced() -> bool {
    false
}

/// Where a unit is written: host data and GC relocations go to separate open blocks, so
/// relocated (colder) data does not mix with fresh host writes; on a drive with placement
/// handles, each handle's host data has its own open blocks too (`Stream::handle`), and with
/// persistent isolation its relocations as well (`Stream::gc_of`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Stream {
    /// Host data, in native blocks (placement handle 0: untagged writes).
    Host = 0,
    /// GC relocations and folded data, in native blocks (with persistent isolation, handle 0's).
    Gc = 1,
    /// Host data into SLC-mode blocks (an SLC cache).
    Slc = 2,
    /// Host data of placement handles 1 to 15, in native blocks.
    H1 = 3,
    H2,
    H3,
    H4,
    H5,
    H6,
    H7,
    H8,
    H9,
    H10,
    H11,
    H12,
    H13,
    H14,
    H15,
    /// GC relocations of handles 1 to 15 with persistent isolation, in native blocks.
    G1,
    G2,
    G3,
    G4,
    G5,
    G6,
    G7,
    G8,
    G9,
    G10,
    G11,
    G12,
    G13,
    G14,
    G15,
}

/// The streams a die keeps an open block for.
pub const STREAMS: usize = Stream::G15 as usize + 1;

impl Stream {
    const HANDLES: [Stream; MAX_HANDLES] = [
        Stream::Host,
        Stream::H1,
        Stream::H2,
        Stream::H3,
        Stream::H4,
        Stream::H5,
        Stream::H6,
        Stream::H7,
        Stream::H8,
        Stream::H9,
        Stream::H10,
        Stream::H11,
        Stream::H12,
        Stream::H13,
        Stream::H14,
        Stream::H15,
    ];

    const GC_OF: [Stream; MAX_HANDLES] = [
        Stream::Gc,
        Stream::G1,
        Stream::G2,
        Stream::G3,
        Stream::G4,
        Stream::G5,
        Stream::G6,
        Stream::G7,
        Stream::G8,
        Stream::G9,
        Stream::G10,
        Stream::G11,
        Stream::G12,
        Stream::G13,
        Stream::G14,
        Stream::G15,
    ];

    /// The host stream of placement handle `handle` (0: `Host`, today's untagged writes).
    #[inline]
    pub fn handle(handle: u8) -> Stream {
        Self::HANDLES[handle as usize]
    }

    /// The GC stream of placement handle `handle` with persistent isolation (0: `Gc`).
    #[inline]
    pub fn gc_of(handle: u8) -> Stream {
        Self::GC_OF[handle as usize]
    }

    /// The placement handle whose data the stream holds (0 for `Host`, `Gc` and `Slc`).
    pub fn tag(self) -> u8 {
        let s = self as u8;
        if s >= Stream::G1 as u8 {
            s - Stream::G1 as u8 + 1
        } else if s >= Stream::H1 as u8 {
            s - Stream::H1 as u8 + 1
        } else {
            0
        }
    }

    /// The mode of the blocks the stream opens.
    #[inline]
    pub fn mode(self) -> Mode {
        match self {
            Stream::Slc => Mode::Slc,
            _ => Mode::Native,
        }
    }
}

/// Result of scanning one program-sized stripe of a victim block.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Scan {
    /// Valid units found and relocated (0 means the stripe needed no read).
    pub moved: u32,
    /// The slots they occupied.
    pub moved_slots: u32,
    /// GC-stream program operations that became due (each a stripe of `slots_per_program`).
    pub programs_due: u32,
    /// The victim is fully scanned and now erased and free.
    pub erased: bool,
}

/// A victim being collected: the next slot offset to scan, and the stream its valid units go to.
#[derive(Debug, Clone, Copy)]
struct Collecting {
    at: Cursor,
    into: Stream,
}

pub struct Ftl {
    map: PageMap,
    blocks: Blocks,
    wear: Wear,
    victims: Victim,
    /// Victim being collected per die.
    collecting: Vec<Option<Collecting>>,
    /// Persistent isolation: a victim's units go to its handle's own GC stream.
    gc_per_handle: bool,
    slots_per_unit: u32,
}

impl Ftl {
    /// A secure-erased drive: every block free, nothing mapped. `seed` feeds policies that draw
    /// at random.
    pub fn new(drive: &DriveConfig, seed: u64) -> Result<Self, ConfigError> {
        let g = &drive.geometry;
        let slots_per_unit = drive.controller.slots_per_unit();
        let slots_per_block = g.units_per_block() * slots_per_unit;
        // Blocks the firmware reserves (gc.reserved_percent) are not the FTL's: it numbers and
        // uses only the rest.
        let blocks_per_die = drive.blocks_in_service_per_die();
        let ctx = PolicyContext { dies: g.dies, blocks_per_die, choices: drive.gc.victim_choices, seed };
        let by_stripe = Self::keeps_stripes(drive) && !unit_map_forced();
        let slots_per_program = g.units_per_program() * slots_per_unit;
        let gc_per_handle = drive.placement.as_ref().is_some_and(|p| p.isolation == Isolation::Persistent);
        let mut blocks = Blocks::new(
            g.dies,
            blocks_per_die,
            slots_per_block,
            slots_per_program,
            drive.nand.cell.bits(),
            drive.wear.dynamic,
        );
        if drive.placement.is_some() {
            blocks.keep_tags(gc_per_handle);
        }
        Ok(Ftl {
            map: PageMap::new(
                drive.user_units(),
                g.dies * blocks_per_die,
                slots_per_block,
                slots_per_program,
                slots_per_unit,
                by_stripe,
            ),
            blocks,
            wear: Wear::new(drive),
            victims: Victim::new(&drive.gc.victim, &ctx)?,
            collecting: vec![None; g.dies as usize],
            gc_per_handle,
            slots_per_unit,
        })
    }

    /// Bytes the tables of a drive's FTL take, before building it: the map, its reverse (one
    /// entry per slot) and the compressed lengths; per-block arrays add about 1/1000 of that.
    /// A cache drive's fill from a secure erase writes every unit: its map keeps stripes (one
    /// slot per unit: no compression).
    pub fn keeps_stripes(drive: &DriveConfig) -> bool {
        drive.slc_cache.is_some() && drive.controller.slots_per_unit() == 1
    }

    pub fn table_bytes(drive: &DriveConfig) -> u64 {
        PageMap::table_bytes(drive)
    }

    pub fn memory_bytes(&self) -> u64 {
        self.map.memory_bytes() + self.blocks.memory_bytes() + self.wear.memory_bytes() + self.victims.memory_bytes()
    }

    pub fn free_blocks(&self) -> u64 {
        self.blocks.free_blocks()
    }

    pub fn die_free_blocks(&self, die: u32) -> u32 {
        self.blocks.die_free_blocks(die)
    }

    pub fn has_victim(&self, die: u32) -> bool {
        self.collecting[die as usize].is_some()
    }

    pub fn victim_valid(&self, die: u32) -> Option<u32> {
        self.collecting[die as usize].map(|v| self.blocks.valid[v.at.block as usize] as u32)
    }

    pub fn slots_per_block(&self) -> u32 {
        self.blocks.slots_per_block
    }

    /// Slots of a block in SLC mode.
    pub fn slc_slots_per_block(&self) -> u32 {
        self.blocks.slc_slots_per_block
    }

    pub fn slots_per_unit(&self) -> u32 {
        self.slots_per_unit
    }

    /// The page `ppa` lies in.
    pub fn page_of_ppa(&self, ppa: u32) -> PageAt {
        self.blocks.page_of_ppa(ppa)
    }

    /// The page of `die`'s victim its next scan reads (the default with none).
    pub fn victim_page(&self, die: u32) -> PageAt {
        self.collecting[die as usize].map_or(PageAt::default(), |vic| self.blocks.page_at(vic.at.block, vic.at.next))
    }

    /// The stream `die`'s victim's units go to (`Gc` with none).
    pub fn relocation_stream(&self, die: u32) -> Stream {
        self.collecting[die as usize].map_or(Stream::Gc, |vic| vic.into)
    }

    /// The placement handle of the block holding `lpa` (`blocks::MIXED`: the GC stream all
    /// handles share); None if unmapped or the drive has no placement handles.
    pub fn tag_of(&self, lpa: u32) -> Option<u8> {
        let ppa = self.map.ppa_of(lpa);
        (ppa != NONE && !self.blocks.tag.is_empty()).then(|| self.blocks.tag[self.blocks.block_of_ppa(ppa) as usize])
    }

    /// The page `stream`'s next program on `die` writes.
    pub fn next_page(&self, die: u32, stream: Stream) -> PageAt {
        self.blocks.next_page(die, stream)
    }

    /// First slot holding `lpa`, or NONE.
    #[inline]
    pub fn ppa_of(&self, lpa: u32) -> u32 {
        self.map.ppa_of(lpa)
    }

    #[inline]
    pub fn die_of_ppa(&self, ppa: u32) -> u32 {
        self.blocks.die_of_block(self.blocks.block_of_ppa(ppa))
    }

    /// The program-sized stripe (multi-plane page) a slot lies in: slots in one stripe come
    /// back from one read.
    #[inline]
    pub fn stripe_of_ppa(&self, ppa: u32) -> u32 {
        self.blocks.stripe_of_ppa(ppa)
    }

    /// Lowest and highest erase count over all blocks (retired ones included), kept as blocks
    /// are erased.
    pub fn erase_count_range(&self) -> (u32, u32) {
        self.wear.range()
    }

    /// Erases so far, per block.
    pub fn erase_counts(&self) -> &[u32] {
        self.wear.erase_counts()
    }

    /// Blocks retired at their P/E limit.
    pub fn retired_blocks(&self) -> u64 {
        self.wear.retired_blocks()
    }

    /// True once the drive is read-only: some die can no longer keep its free-block reserve.
    pub fn worn_out(&self) -> bool {
        self.wear.worn_out()
    }

    /// Declares the drive read-only (the controller found it cannot make room on a die).
    pub fn set_worn_out(&mut self) {
        self.wear.set_worn_out();
    }

    /// Closed blocks relocated by static wear levelling so far.
    pub fn wear_victims(&self) -> u64 {
        self.wear.static_victims()
    }

    /// First stage of a host write seen coming: start loading its map entry.
    #[inline]
    pub fn prefetch_mapping(&self, lpa: u32) {
        self.map.prefetch_entry(lpa);
    }

    /// Second stage, once the map entry is cached: start loading the block metadata that
    /// invalidating its old location will touch.
    #[inline]
    pub fn prefetch_old_block(&self, lpa: u32) {
        let old = self.map.ppa_of(lpa);
        if old != NONE {
            self.blocks.prefetch(self.blocks.block_of_ppa(old));
        }
    }

    /// Writes logical unit `lpa`, `len` slots of it (1 without compression), to the next slots
    /// of `die`'s open block for `stream`. Returns the program-sized stripes this completed: the
    /// one it filled, and the one it padded if it did not fit in what was left of it.
    /// The caller guarantees a free block exists when one is needed (see `needs_block`).
    #[inline]
    pub fn write(&mut self, die: u32, stream: Stream, lpa: u32, len: u32) -> u32 {
        debug_assert!(len >= 1 && len <= self.slots_per_unit);
        let placed = self.blocks.place(die, stream, len);
        if let Some(block) = placed.closed {
            self.victims.closed(block, &self.blocks);
        }
        let old = self.map.ppa_of(lpa);
        if old != NONE {
            self.blocks.invalidate(old, self.map.len_of(lpa));
        }
        self.map.set(lpa, placed.ppa, placed.block, len);
        self.blocks.fill(placed.block, len);
        placed.programs
    }

    /// `write` of units `lpa..lpa + n`, one slot each, in turn: a run that fits in the rest of
    /// its program stripe (a sequential write's page, a folded stripe) is placed, invalidated
    /// and mapped as one, not unit by unit; one that does not, after its first unit, if the
    /// rest then fits. Returns the stripes completed, as `write`.
    #[inline]
    pub fn write_run(&mut self, die: u32, stream: Stream, lpa: u32, n: u32) -> u32 {
        debug_assert!(n >= 1);
        if let Some(placed) = self.blocks.place_run(die, stream, n) {
            return self.map_run(lpa, n, placed);
        }
        let programs = self.write(die, stream, lpa, 1);
        match (n > 1).then(|| self.blocks.place_run(die, stream, n - 1)).flatten() {
            Some(placed) => programs + self.map_run(lpa + 1, n - 1, placed),
            None => (1..n).fold(programs, |p, k| p + self.write(die, stream, lpa + k, 1)),
        }
    }

    /// `write_run`'s mapping of units `lpa..lpa + n` to the slots `placed` gives them.
    #[inline]
    fn map_run(&mut self, lpa: u32, n: u32, placed: Placed) -> u32 {
        // A fill's units were never mapped: nothing to invalidate, one look says so.
        if !self.map.none_mapped(lpa, n) {
            for k in 0..n {
                let old = self.map.ppa_of(lpa + k);
                if old != NONE {
                    self.blocks.invalidate(old, self.map.len_of(lpa + k));
                }
            }
        }
        self.map.set_run(lpa, placed.ppa, placed.block, n);
        self.blocks.fill(placed.block, n);
        placed.programs
    }

    /// Fills units `0..units` in order, a multi-plane page at a time dealt to the dies in turn,
    /// exactly as writing them one by one would (`write` and `pad_to_program`) but in time per
    /// block, not per unit: the map keeps the fill as a formula. Not for compressing drives,
    /// whose units take varying slots.
    pub fn fill_sequential(&mut self, units: u32) {
        assert_eq!(self.slots_per_unit, 1, "a compressing drive fills unit by unit");
        let b = &mut self.blocks;
        let (dies, spb, upp) = (b.dies(), b.slots_per_block, b.slots_per_program);
        let layout =
            FillLayout { units, units_per_stripe: upp, dies, slots_per_block: spb, blocks_per_die: b.blocks_per_die };
        let on_die: Vec<u32> = (0..dies).map(|d| layout.units_on_die(d)).collect();
        let blocks_of = |d: usize| on_die[d].div_ceil(spb);
        for (d, &n) in on_die.iter().enumerate() {
            for j in 0..blocks_of(d) {
                let block = b.open_free(d as u32, Stream::Host);
                debug_assert_eq!(block, d as u32 * b.blocks_per_die + j, "free blocks are taken lowest first");
                b.valid[block as usize] = (n - j * spb).min(spb) as u16;
            }
        }
        // A die's block closes when its next unit arrives: block j of die d when stripe
        // ((j + 1) * stripes per block) * dies + d is written; in that order.
        let most = (0..dies as usize).map(blocks_of).max().unwrap_or(0);
        for j in 0..most {
            for d in 0..dies as usize {
                if j + 1 < blocks_of(d) {
                    let block = d as u32 * b.blocks_per_die + j;
                    let stripe = ((j + 1) * (spb / upp)) as u64 * dies as u64 + d as u64;
                    b.slots_written = stripe * upp as u64;
                    b.close(block);
                    self.victims.closed(block, b);
                }
            }
        }
        for (d, &n) in on_die.iter().enumerate() {
            let last = blocks_of(d);
            if last > 0 {
                b.set_open(d as u32, Stream::Host, d as u32 * b.blocks_per_die + last - 1, n - (last - 1) * spb);
            }
        }
        b.slots_written = units as u64;
        if units > 0 {
            b.pad_to_program((units.div_ceil(upp) - 1) % dies, Stream::Host);
        }
        self.map.filled(layout);
    }

    /// TRIM: the host no longer needs `lpa`; its slots become stale and the LPA unmapped, so GC
    /// will not copy it.
    pub fn trim(&mut self, lpa: u32) {
        let old = self.map.ppa_of(lpa);
        if old != NONE {
            self.blocks.invalidate(old, self.map.len_of(lpa));
            self.map.unmap(lpa);
        }
    }

    /// Skips the rest of the stream's current program-sized stripe (a partial page is programmed
    /// padded); the skipped slots hold nothing and count as invalid.
    pub fn pad_to_program(&mut self, die: u32, stream: Stream) {
        self.blocks.pad_to_program(die, stream);
    }

    /// True if writing `slots` more to this stream on this die will open a new block.
    pub fn needs_block(&self, die: u32, stream: Stream, slots: u32) -> bool {
        self.blocks.needs_block(die, stream, slots)
    }

    /// Closes `stream`'s open block on `die` where it stands, so the stream's next data starts a
    /// block of its own (zoned drives: the next zone never shares the last one's blocks).
    pub fn close_open(&mut self, die: u32, stream: Stream) {
        if let Some(block) = self.blocks.close_open(die, stream) {
            self.victims.closed(block, &self.blocks);
        }
    }

    /// Chooses the next victim on `die` by the configured policy. Returns false if the die has
    /// no closed block.
    pub fn pick_victim(&mut self, die: u32) -> bool {
        debug_assert!(self.collecting[die as usize].is_none());
        let Some(block) = self.victims.pick(die, &mut self.blocks) else { return false };
        self.blocks.take_for_collection(block);
        self.collecting[die as usize] = Some(self.collection_of(block));
        true
    }

    /// Takes `die`'s oldest closed SLC-mode block for folding (its scan is a victim's: its valid
    /// units go to the die's GC stream, native). Returns false if the die has none.
    pub fn pick_fold_victim(&mut self, die: u32) -> bool {
        debug_assert!(self.collecting[die as usize].is_none());
        let Some(block) = self.blocks.oldest_closed_slc(die) else { return false };
        self.blocks.take_for_collection(block);
        self.victims.taken(block, die);
        self.collecting[die as usize] = Some(self.collection_of(block));
        true
    }

    /// `block`, taken for collection, from its first slot: its units go to the GC stream (its
    /// handle's own with persistent isolation; chosen once per victim).
    fn collection_of(&self, block: u32) -> Collecting {
        let into = if self.gc_per_handle { Stream::gc_of(self.blocks.tag[block as usize]) } else { Stream::Gc };
        Collecting { at: Cursor { block, next: 0, end: self.blocks.slots_in(block) }, into }
    }

    /// Erases one of `die`'s closed blocks that hold no valid slot (TRIM or overwrites emptied
    /// it: there is nothing to move, so no scan). Returns false if the die has none.
    pub fn erase_empty(&mut self, die: u32) -> bool {
        let Some(block) = self.blocks.buckets.fewest(die) else { return false };
        if self.blocks.valid[block as usize] != 0 || self.wear.worn_out() {
            return false;
        }
        self.blocks.take_for_collection(block);
        self.victims.taken(block, die);
        self.erase(block);
        true
    }

    /// Slots left in `stream`'s open block on `die`.
    pub fn room(&self, die: u32, stream: Stream) -> u32 {
        self.blocks.room(die, stream)
    }

    /// Valid slots in SLC-mode blocks (data waiting to be folded): O(blocks), once a second.
    pub fn slc_data_slots(&self) -> u64 {
        self.blocks.slc_valid_slots()
    }

    /// Blocks in SLC mode on `die`.
    pub fn slc_blocks(&self, die: u32) -> u32 {
        self.blocks.slc_blocks(die)
    }

    /// Scans the next program-sized stripe of `die`'s victim, relocating its valid units to the
    /// die's GC stream; erases the victim after its last stripe.
    #[inline]
    pub fn scan_victim_stripe(&mut self, die: u32) -> Scan {
        // Decided once per drive, so the other maps' scan is compiled as it was before runs.
        if self.map.by_stripe() {
            self.scan_stripe_of::<true>(die)
        } else {
            self.scan_stripe_of::<false>(die)
        }
    }

    /// `scan_victim_stripe`; `RUNS`: the map keeps stripes, a stripe recorded as a run moves
    /// in runs (`move_runs`).
    #[inline(never)]
    fn scan_stripe_of<const RUNS: bool>(&mut self, die: u32) -> Scan {
        let Some(Collecting { at: vic, into }) = self.collecting[die as usize] else { return Scan::default() };
        if self.wear.worn_out() {
            return Scan::default();
        }
        let spp = self.blocks.slots_per_program;
        if self.blocks.die_free_blocks(die) == 0 && self.blocks.needs_block(die, into, spp) {
            // Retirement has eaten the last free block: nowhere to relocate to. (Retirement
            // declares the drive worn out before this; this keeps it from ever panicking.)
            self.wear.set_worn_out();
            return Scan::default();
        }
        let spb = self.blocks.slots_per_block;
        let first = vic.block * spb + vic.next;
        let mut scan = Scan::default();
        // What the stripe's slots record; moving a unit elsewhere does not change them.
        let stripe = self.map.stripe(first);
        if RUNS && matches!(stripe, map::Stripe::Run { .. }) {
            self.move_runs(die, into, stripe, first, &mut scan);
        } else {
            for i in 0..spp {
                let (ppa, lpa) = (first + i, self.map.recorded_in(stripe, i));
                if lpa != NONE && self.map.ppa_of(lpa) == ppa {
                    let len = self.map.len_of(lpa);
                    scan.moved += 1;
                    scan.moved_slots += len;
                    scan.programs_due += self.write(die, into, lpa, len);
                }
            }
        }
        let next = vic.next + spp;
        // The victim's later stripes are read in order: start loading their map entries.
        if vic.next + 3 * spp <= vic.end {
            let ahead = self.map.stripe(first + 2 * spp);
            for i in 0..spp {
                let lpa = self.map.recorded_in(ahead, i);
                if lpa != NONE {
                    self.map.prefetch_entry(lpa);
                }
            }
        }
        if next >= vic.end {
            self.erase(vic.block);
            self.collecting[die as usize] = if self.wear.worn_out() { None } else { self.static_wear_victim(die) };
            scan.erased = true;
        } else {
            self.collecting[die as usize] = Some(Collecting { at: Cursor { next, ..vic }, into });
        }
        scan
    }

    /// `scan_victim_stripe`'s moves from a stripe recorded as a run (a folded stripe of the
    /// cache, host pages in order) on a map that keeps stripes: the live units that follow in
    /// order move as a run (`write_run`, one update of the stripe map). Other maps are updated
    /// unit by unit anyway: there the look for runs cost more than it saved (S3700 steady
    /// state, whose only runs are the fill's, cut short by random writes).
    #[inline(never)]
    fn move_runs(&mut self, die: u32, into: Stream, stripe: map::Stripe, first: u32, scan: &mut Scan) {
        debug_assert_eq!(self.slots_per_unit, 1, "a map keeping stripes has one slot per unit");
        // Slot `i`'s unit if it is still there (moving some units does not change where the
        // others are). A run's slots record consecutive units.
        let live = |map: &PageMap, i: u32| {
            let lpa = map.recorded_in(stripe, i);
            (lpa != NONE && map.ppa_of(lpa) == first + i).then_some(lpa)
        };
        let (spp, mut i) = (self.blocks.slots_per_program, 0);
        while i < spp {
            let Some(lpa) = live(&self.map, i) else {
                i += 1;
                continue;
            };
            let n = 1 + (i + 1..spp).take_while(|&j| live(&self.map, j).is_some()).count() as u32;
            scan.moved += n;
            scan.moved_slots += n;
            scan.programs_due += self.write_run(die, into, lpa, n);
            i += n;
        }
    }

    fn erase(&mut self, block: u32) {
        debug_assert_eq!(self.blocks.valid[block as usize], 0, "GC would lose a valid unit");
        self.map.erased(block);
        let die = self.blocks.die_of_block(block);
        let (count, retired) = self.wear.erased(block, die);
        if retired {
            self.blocks.retire(block);
            self.wear.check_reserve(die, &self.blocks);
        } else {
            self.blocks.release(block, count);
        }
    }

    /// Static wear levelling picks the die's next victim when its erase counts spread too far.
    fn static_wear_victim(&mut self, die: u32) -> Option<Collecting> {
        let block = self.wear.static_victim(die, &self.blocks)?;
        self.blocks.take_for_collection(block);
        self.victims.taken(block, die);
        Some(self.collection_of(block))
    }

    /// How full the blocks GC chooses from are: closed blocks counted by valid slots, in `bins`
    /// equal parts of 0..=slots_per_block (the distribution a victim policy picks from).
    pub fn valid_histogram(&self, bins: usize) -> Vec<u64> {
        let bins = bins.max(1);
        let spb = self.blocks.slots_per_block as usize;
        let mut out = vec![0u64; bins];
        for (b, &state) in self.blocks.state.iter().enumerate() {
            if state == blocks::BlockState::Closed {
                out[(self.blocks.valid[b] as usize * bins / (spb + 1)).min(bins - 1)] += 1;
            }
        }
        out
    }

    /// Open and closed blocks of each die by placement handle, die-major: `handles + 1` counts a
    /// die, the last for `blocks::MIXED` (the GC stream every handle shares). Empty on a drive
    /// without placement handles (its blocks carry no tag).
    pub fn blocks_by_tag(&self, handles: usize) -> Vec<u64> {
        let per_die = self.blocks.blocks_per_die as usize;
        if self.blocks.tag.is_empty() || per_die == 0 {
            return Vec::new();
        }
        let mut out = vec![0u64; self.blocks.tag.len() / per_die * (handles + 1)];
        for (b, (&state, &tag)) in self.blocks.state.iter().zip(&self.blocks.tag).enumerate() {
            if matches!(state, blocks::BlockState::Open | blocks::BlockState::Closed) {
                let column = if tag == blocks::MIXED { handles } else { (tag as usize).min(handles) };
                out[b / per_die * (handles + 1) + column] += 1;
            }
        }
        out
    }

    /// Blocks counted by erase count in `bins` equal parts of min..=max; returns the counts and
    /// (min, max).
    pub fn erase_histogram(&self, bins: usize) -> (Vec<u64>, (u32, u32)) {
        let bins = bins.max(1);
        let (min, max) = self.wear.range();
        let width = (max - min) as usize + 1;
        let mut out = vec![0u64; bins];
        for &c in self.wear.erase_counts() {
            out[((c - min) as usize * bins / width).min(bins - 1)] += 1;
        }
        (out, (min, max))
    }

    /// Checks every structural invariant; returns a description of the first violation.
    /// O(raw units): for tests.
    pub fn check_invariants(&self) -> Result<(), String> {
        invariants::check(&self.map, &self.blocks, &self.wear)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::config::{CellType, DriveConfig};

    /// A small TLC drive whose blocks hold whole wordlines (258 pages, 4 slots a stripe).
    pub(crate) fn small_tlc_drive() -> DriveConfig {
        let mut drive = crate::config::presets::by_id("s3700-200").unwrap();
        drive.set_cell(CellType::Tlc, &[]);
        drive.geometry.blocks_per_plane = 64;
        drive.geometry.pages_per_block = 258;
        drive.user_bytes = drive.geometry.raw_bytes() / 2 / 4096 * 4096;
        (drive.gc.start_free_blocks, drive.gc.boost_below_free_blocks) = (6, 3);
        (drive.gc.boost_until_free_blocks, drive.gc.background_free_blocks) = (5, 8);
        drive.validate().unwrap();
        drive
    }

    #[test]
    fn an_slc_mode_block_holds_a_bits_th_of_its_slots_and_folds_in_as_many_stripes() {
        let mut ftl = Ftl::new(&small_tlc_drive(), 1).unwrap();
        let (spb, spp) = (ftl.slots_per_block(), ftl.blocks.slots_per_program);
        let slc = spb / 3;
        assert_eq!((spb, slc, spp), (1032, 344, 4));
        let block_of = |ftl: &Ftl, lpa: u32| ftl.blocks.block_of_ppa(ftl.ppa_of(lpa)) as usize;
        for lpa in 0..slc {
            ftl.write(0, Stream::Slc, lpa, 1);
        }
        let first = block_of(&ftl, 0);
        assert_eq!((ftl.blocks.mode[first], block_of(&ftl, slc - 1)), (Mode::Slc, first));
        assert!(ftl.needs_block(0, Stream::Slc, 1));
        ftl.write(0, Stream::Slc, slc, 1);
        assert_ne!(block_of(&ftl, slc), first, "the SLC block was full");
        assert_eq!((ftl.blocks.state[first], ftl.blocks.valid[first]), (blocks::BlockState::Closed, slc as u16));
        // The host's native stream fills a whole block.
        for i in 0..spb {
            ftl.write(1, Stream::Host, 1000 + i, 1);
        }
        let native = block_of(&ftl, 1000);
        assert_eq!((ftl.blocks.mode[native], block_of(&ftl, 1000 + spb - 1)), (Mode::Native, native));
        assert!(ftl.needs_block(1, Stream::Host, 1));
        ftl.check_invariants().unwrap();
        // Folding the SLC block: its stripes are read in SLC mode, its units written to native
        // GC blocks, and it is erased after its last SLC stripe.
        assert!(ftl.pick_victim(0));
        let mut scans = Vec::new();
        while scans.last().is_none_or(|s: &Scan| !s.erased) {
            assert_eq!(ftl.victim_page(0), PageAt { mode: Mode::Slc, stripe: scans.len() as u32 });
            scans.push(ftl.scan_victim_stripe(0));
        }
        assert_eq!(scans.len() as u32, slc / spp);
        assert!(scans.iter().all(|s| s.moved == spp));
        assert_eq!(scans.iter().map(|s| s.programs_due).sum::<u32>(), slc / spp);
        assert_eq!(ftl.blocks.state[first], blocks::BlockState::Free);
        assert_eq!(ftl.blocks.mode[block_of(&ftl, 0)], Mode::Native);
        ftl.check_invariants().unwrap();
    }

    /// `small_tlc_drive` with an SLC cache of 64 MiB (of 4 GiB raw) that writes natively when
    /// full, so folding, direct writes and GC all move data.
    fn small_cache_drive() -> DriveConfig {
        let mut drive = small_tlc_drive();
        (drive.timing.slc_program_ns, drive.timing.slc_read_ns) =
            (drive.timing.program_ns / 4, drive.timing.read_ns / 2);
        drive.slc_cache = Some(crate::config::SlcCacheConfig {
            dynamic_max_bytes: 64 << 20,
            when_full: crate::config::WhenFull::Direct,
            fold_while_writing_percent: 20,
            idle_fold: true,
            dynamic_share: None,
        });
        drive.validate().unwrap();
        drive
    }

    /// The run's samples, its map's memory and the blocks whose reverse is a chunk of slots,
    /// built with the map of stripes or the unit map.
    fn run_with_map(cfg: &crate::config::RunConfig, unit_map: bool) -> (Vec<crate::Sample>, u64, usize) {
        UNIT_MAP.with(|forced| forced.set(unit_map));
        let mut bench = crate::Bench::new(cfg.clone()).unwrap();
        UNIT_MAP.with(|forced| forced.set(false));
        let samples = bench.run_to_end();
        let ftl = bench.drive().ftl();
        ftl.check_invariants().unwrap();
        (samples, ftl.map.memory_bytes(), ftl.map.chunks().0)
    }

    #[test]
    fn the_map_of_stripes_gives_the_samples_of_the_unit_map() {
        use crate::config::{JobSpec, Phase, Precondition, RunConfig, WorkloadSpec};
        let drive = small_cache_drive();
        let user_bytes = drive.user_bytes;
        let (seq, random) =
            (WorkloadSpec::by_id("sequential-write").unwrap(), WorkloadSpec::by_id("write-trim").unwrap());
        // From a secure erase: the whole drive written in order (with 1 s rests, which fold),
        // then 4 KiB random writes and TRIMs.
        let mut fill = JobSpec::named(&seq, 128 << 10, 128 << 10, 32);
        fill.io_limit_bytes = user_bytes;
        let mut cfg = RunConfig::new(drive.clone(), seq, 60);
        cfg.precondition = Precondition::None;
        (cfg.burst_s, cfg.idle_s) = (4, 1);
        cfg.phases = vec![
            Phase { name: "fill".into(), jobs: vec![fill], runtime_ns: 0, ramp_ns: 0 },
            Phase {
                name: "random".into(),
                jobs: vec![JobSpec::named(&random, 4096, 4096, 32)],
                runtime_ns: 20 * crate::units::NS_PER_S,
                ramp_ns: 0,
            },
        ];
        let (stripes, stripes_bytes, _) = run_with_map(&cfg, false);
        let (units, ..) = run_with_map(&cfg, true);
        assert!(stripes.len() > 20 && stripes.iter().any(|s| s.iops > 0));
        assert!(stripes == units, "the maps gave different samples");
        // The random writes split enough stripes that the map went flat.
        assert!(stripes_bytes >= drive.user_units() * 4, "{stripes_bytes}");

        // The sequential fill alone: the same samples, every block's reverse in runs, and about
        // 4 bytes per stripe (4 units here) forward and back.
        cfg.phases.truncate(1);
        let (stripes, stripes_bytes, slot_chunks) = run_with_map(&cfg, false);
        let (units, units_bytes, _) = run_with_map(&cfg, true);
        assert!(stripes == units, "the maps gave different samples");
        assert_eq!(slot_chunks, 0);
        let raw = drive.geometry.raw_units();
        assert!(stripes_bytes * 3 < units_bytes, "{stripes_bytes} vs {units_bytes}");
        assert!(stripes_bytes < (drive.user_units() + raw) + raw / 64, "{stripes_bytes} for {raw} raw units");

        // The preconditioning fill (a formula), then random writes.
        let mut cfg = RunConfig::new(drive, random, 20);
        (cfg.block_bytes, cfg.align_bytes, cfg.queue_depth) = (4096, 4096, 32);
        let (stripes, stripes_bytes, _) = run_with_map(&cfg, false);
        let (units, ..) = run_with_map(&cfg, true);
        assert!(stripes == units, "the maps gave different samples");
        assert!(stripes_bytes >= cfg.drive.user_units() * 4, "{stripes_bytes}");
    }

    #[test]
    fn a_run_written_at_once_maps_as_its_units_written_one_by_one() {
        for unit_map in [false, true] {
            UNIT_MAP.with(|forced| forced.set(unit_map));
            let (mut runs, mut units) =
                (Ftl::new(&small_cache_drive(), 1).unwrap(), Ftl::new(&small_cache_drive(), 1).unwrap());
            UNIT_MAP.with(|forced| forced.set(false));
            let dies = runs.blocks.dies();
            let user = small_cache_drive().user_units() as u32;
            // Whole stripes written in order (8 units, two stripes of 4), then rewritten in runs
            // of 1 to 13 units from a stripe's start or not, across stripes and blocks, then
            // runs here and there over fresh and written units; on three streams.
            let mut next = 0;
            for k in 0..3_000u32 {
                let (mut n, mut stream) = (1 + k % 13, [Stream::Slc, Stream::Host, Stream::Gc][(k % 3) as usize]);
                let lpa = match k / 1_000 {
                    0 => {
                        (n, stream) = (8, Stream::Host);
                        8 * k
                    }
                    1 => {
                        next += n;
                        next - n
                    }
                    _ if k % 5 == 0 => k * 7919 % (user - n),
                    _ => k * 9 % (user - n),
                };
                let die = if k < 1_000 { k % dies } else { k / 7 % dies };
                assert_eq!(
                    runs.write_run(die, stream, lpa, n),
                    (0..n).map(|i| units.write(die, stream, lpa + i, 1)).sum::<u32>()
                );
            }
            assert_same_map(&runs, &units, &format!("unit map {unit_map}"));
        }
    }

    /// Both FTLs (of `small_cache_drive`) hold every unit in the same slot, record the same unit in every slot, and
    /// count the same valid slots per block.
    fn assert_same_map(a: &Ftl, b: &Ftl, what: &str) {
        a.check_invariants().unwrap();
        for lpa in 0..small_cache_drive().user_units() as u32 {
            assert_eq!(a.ppa_of(lpa), b.ppa_of(lpa), "unit {lpa}, {what}");
        }
        let slots = a.blocks.slots_per_block * a.blocks.valid.len() as u32;
        for ppa in 0..slots {
            assert_eq!(a.map.recorded_at(ppa), b.map.recorded_at(ppa), "slot {ppa}, {what}");
        }
        assert_eq!(a.blocks.valid, b.blocks.valid, "{what}");
        assert_eq!(a.map.chunks(), b.map.chunks(), "{what}");
    }

    #[test]
    fn folding_a_stripe_in_runs_moves_its_units_as_folding_them_one_by_one() {
        let (mut runs, mut units) =
            (Ftl::new(&small_cache_drive(), 1).unwrap(), Ftl::new(&small_cache_drive(), 1).unwrap());
        assert!(runs.map.by_stripe());
        let (spb, spp) = (runs.slots_per_block(), runs.blocks.slots_per_program);
        // Three SLC blocks written in order on die 0 (stripes recorded as runs), then some of
        // their units rewritten on die 1: the stripes keep runs of live units with gaps.
        let slc = spb / 3;
        for ftl in [&mut runs, &mut units] {
            for lpa in 0..3 * slc {
                ftl.write(0, Stream::Slc, lpa, 1);
            }
            for lpa in (0..3 * slc).filter(|l| l % 7 == 3 || l % 11 < 2 || (l / 40) % 3 == 1) {
                ftl.write(1, Stream::Host, lpa, 1);
            }
        }
        let (mut moved, mut folded) = (Vec::new(), 0);
        while runs.pick_fold_victim(0) {
            assert!(units.pick_fold_victim(0));
            folded += 1;
            loop {
                let (a, b) = (runs.scan_stripe_of::<true>(0), units.scan_stripe_of::<false>(0));
                assert_eq!((a.moved, a.moved_slots, a.programs_due), (b.moved, b.moved_slots, b.programs_due));
                moved.push(a.moved);
                if a.erased {
                    assert!(b.erased);
                    break;
                }
            }
            assert_same_map(&runs, &units, &format!("after {folded} folded"));
        }
        assert!(folded >= 2, "{folded} folded");
        // Whole stripes, stripes cut into runs, and emptied ones were folded.
        for n in [0, 1, 2, spp - 1, spp] {
            assert!(moved.contains(&n), "no stripe moved {n} units: {moved:?}");
        }
    }

    #[test]
    fn reserved_blocks_are_out_of_service() {
        let mut drive = crate::config::presets::by_id("s3700-200").unwrap();
        drive.geometry.blocks_per_plane = 64;
        drive.user_bytes = drive.geometry.raw_bytes() / 2 / 4096 * 4096;
        (drive.gc.start_free_blocks, drive.gc.boost_below_free_blocks) = (6, 3);
        (drive.gc.boost_until_free_blocks, drive.gc.background_free_blocks) = (5, 8);
        drive.gc.reserved_percent = 0.0;
        let all = Ftl::new(&drive, 1).unwrap().free_blocks();
        assert_eq!(all, drive.geometry.total_blocks());
        // 10 % of 64 blocks is 6.4: 6 blocks per die kept out.
        drive.gc.reserved_percent = 10.0;
        drive.validate().unwrap();
        let ftl = Ftl::new(&drive, 1).unwrap();
        assert_eq!(ftl.free_blocks(), all - 6 * drive.geometry.dies as u64);
        assert_eq!(ftl.die_free_blocks(0), 58);
        // The reserve counts against the user capacity the drive may expose.
        drive.gc.reserved_percent = 50.0;
        assert_eq!(drive.validate().unwrap_err().field, "user_bytes");
    }

    #[test]
    fn tables_grow_with_what_is_written_up_to_the_predicted_size() {
        let mut drive = crate::config::presets::by_id("s3700-200").unwrap();
        drive.geometry.blocks_per_plane = 64;
        drive.user_bytes = drive.geometry.raw_bytes() / 2 / 4096 * 4096;
        // The fill and the rewrite take the whole raw space, with no GC: every block in service.
        drive.gc.reserved_percent = 0.0;
        let user = drive.user_units() as u32;
        for (compression, slot) in [(false, 2048), (true, 2048), (true, 512)] {
            drive.controller.compression = compression;
            drive.controller.compression_slot_bytes = slot;
            let mut ftl = Ftl::new(&drive, 1).unwrap();
            if !compression {
                // The fill is a formula: under 1 % of the full tables.
                ftl.fill_sequential(user);
                assert!(ftl.map.memory_bytes() < Ftl::table_bytes(&drive) / 100, "{}", ftl.map.memory_bytes());
            }
            // Every unit written (half the raw space): no more than the prediction.
            let dies = drive.geometry.dies;
            for lpa in 0..user {
                ftl.write(lpa % dies, Stream::Host, lpa, 1.max(ftl.slots_per_unit / 2));
            }
            let built = ftl.map.memory_bytes();
            assert!(
                built <= Ftl::table_bytes(&drive) && built > Ftl::table_bytes(&drive) / 3,
                "{} vs {}",
                built,
                Ftl::table_bytes(&drive)
            );
            ftl.check_invariants().unwrap();
        }
    }
}
