//! Flash translation layer state: a flat page-level map at 4 KiB granularity, the block manager
//! (free pools, open blocks per die and stream, valid counts), victim selection and wear:
//! least-worn free blocks (dynamic levelling), cold-block relocation (static levelling) and
//! retirement of blocks at their P/E limit.
//!
//! Timing lives elsewhere (`nand.rs`, `drive.rs`); this module only keeps the mapping exact.
//! Physical space is counted in slots: one per 4 KiB unit, or, on a compressing controller,
//! `slots_per_unit` smaller ones, so a unit that compresses takes fewer. A unit's slots lie in
//! one program-sized stripe (a unit that does not fit in what is left of a stripe starts the
//! next one; the rest is programmed as padding).
//!
//! Memory per 4 KiB of raw NAND: 4 bytes of `lpa_of_ppa` per slot, plus 4 bytes of
//! `ppa_of_lpa` per user unit (and 1 byte of compressed length when compressing); per-block
//! arrays are ~1/1000 of that.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use crate::config::{DriveConfig, GcVictim};

pub const NONE: u32 = u32::MAX;

/// Write amplification of uniform random writes under greedy GC in the large-system limit, at
/// `user_over_raw` (user capacity / raw NAND): the victim's valid fraction u solves
/// (u - 1) / ln(u) = user / raw, and WA = 1 / (1 - u). 1.90 for the S3700 200GB.
pub fn greedy_wa_theory(user_over_raw: f64) -> f64 {
    if !(user_over_raw > 0.0 && user_over_raw < 1.0) {
        return if user_over_raw <= 0.0 { 1.0 } else { f64::INFINITY };
    }
    let (mut lo, mut hi): (f64, f64) = (1e-9, 1.0 - 1e-9);
    for _ in 0..200 {
        let u = (lo + hi) / 2.0;
        if (u - 1.0) / u.ln() < user_over_raw {
            lo = u;
        } else {
            hi = u;
        }
    }
    1.0 / (1.0 - (lo + hi) / 2.0)
}

/// Asks the CPU to start loading `p` into cache (a no-op where the target has no prefetch).
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

/// Where a unit is written: host data and GC relocations go to separate open blocks, so
/// relocated (colder) data does not mix with fresh host writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    Host = 0,
    Gc = 1,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
enum BlockState {
    Free = 0,
    Open = 1,
    /// Full and eligible as a GC victim: listed in its die's valid-count bucket.
    Closed = 2,
    /// Being collected.
    Victim = 3,
    /// Reached its P/E limit: out of service for good.
    Retired = 4,
}

#[derive(Debug, Clone, Copy)]
struct OpenBlock {
    block: u32,
    /// Next slot offset in the block; `slots_per_block` means full.
    next: u32,
}

/// A die's free blocks, in the order they are handed out.
#[derive(Debug, Clone)]
enum FreePool {
    /// The block freed last is reused first.
    Stack(Vec<u32>),
    /// Dynamic wear levelling: host data gets the block with the fewest erases (then the lowest
    /// number), O(log n); GC's relocated, colder data gets the most-worn block, O(n) over the
    /// few free blocks a collecting die has.
    LeastWorn(BinaryHeap<Reverse<(u32, u32)>>),
}

impl FreePool {
    #[inline]
    fn len(&self) -> usize {
        match self {
            FreePool::Stack(v) => v.len(),
            FreePool::LeastWorn(h) => h.len(),
        }
    }

    #[inline]
    fn pop(&mut self, stream: Stream) -> Option<u32> {
        match self {
            FreePool::Stack(v) => v.pop(),
            FreePool::LeastWorn(h) if stream == Stream::Host => h.pop().map(|Reverse((_, b))| b),
            FreePool::LeastWorn(h) => {
                let mut v = std::mem::take(h).into_vec();
                let most_worn = (0..v.len()).max_by_key(|&i| (v[i].0 .0, Reverse(v[i].0 .1)))?;
                let Reverse((_, b)) = v.swap_remove(most_worn);
                *h = BinaryHeap::from(v);
                Some(b)
            }
        }
    }

    #[inline]
    fn push(&mut self, block: u32, erase_count: u32) {
        match self {
            FreePool::Stack(v) => v.push(block),
            FreePool::LeastWorn(h) => h.push(Reverse((erase_count, block))),
        }
    }

    fn blocks(&self) -> Vec<u32> {
        match self {
            FreePool::Stack(v) => v.clone(),
            FreePool::LeastWorn(h) => h.iter().map(|Reverse((_, b))| *b).collect(),
        }
    }

    fn memory_bytes(&self) -> usize {
        match self {
            FreePool::Stack(v) => v.capacity() * 4,
            FreePool::LeastWorn(h) => h.capacity() * 8,
        }
    }
}

#[derive(Debug, Clone)]
struct DieBlocks {
    free: FreePool,
    open: [Option<OpenBlock>; 2],
    /// Lowest bucket that may be non-empty (a hint; buckets below it are empty).
    min_bucket: u32,
    /// Blocks retired at their P/E limit.
    retired: u32,
    /// Erases since the last static wear-levelling check.
    erases_since_check: u32,
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

pub struct Ftl {
    slots_per_unit: u32,
    slots_per_block: u32,
    slots_per_program: u32,
    blocks_per_die: u32,
    /// Logical 4 KiB unit -> first physical slot holding it, or NONE if never written.
    ppa_of_lpa: Vec<u32>,
    /// Physical slot -> logical unit starting there, or NONE (also for a unit's later slots).
    /// Stale entries are detected by checking `ppa_of_lpa[lpa] == ppa`, so invalidation needs
    /// no second write here.
    lpa_of_ppa: Vec<u32>,
    /// Slots each logical unit occupies (compressing controllers only; otherwise empty: 1).
    len_of_lpa: Vec<u8>,
    /// Valid slots per block.
    valid: Vec<u16>,
    state: Vec<BlockState>,
    erase_count: Vec<u32>,
    bucket_next: Vec<u32>,
    bucket_prev: Vec<u32>,
    /// Per die, per valid count: first closed block with that count.
    bucket_head: Vec<u32>,
    dies: Vec<DieBlocks>,
    victim_policy: GcVictim,
    /// Slots written so far (host and GC): the clock block ages are measured on.
    slots_written: u64,
    /// When each block was closed, in blocks written (`slots_written / slots_per_block`).
    closed_at: Vec<u32>,
    /// Per die, closed blocks in the order they were closed (FIFO victim policy only).
    closed_order: Vec<VecDeque<u32>>,
    /// Victim being collected per die, and the next slot offset to scan.
    victim: Vec<Option<OpenBlock>>,
    free_blocks: u64,

    // Wear.
    /// Erases a block survives; at this count it is retired.
    pe_cycles: u32,
    /// Static levelling: (check every this many erases per die, spread threshold), if on.
    static_levelling: Option<(u32, u32)>,
    /// Blocks a die must keep beyond its data (GC's start threshold and two open blocks, as
    /// `DriveConfig::validate` reserves); below it the drive stops accepting writes.
    reserve_blocks: u32,
    retired_blocks: u64,
    /// Read-only: retirement left some die unable to keep its reserve.
    worn_out: bool,
    /// Lowest erase count over all blocks and how many blocks have it; highest erase count.
    erase_count_min: u32,
    erase_count_min_blocks: u64,
    erase_count_max: u32,
    /// Closed blocks relocated by static wear levelling.
    wear_victims: u64,
}

impl Ftl {
    /// A secure-erased drive: every block free, nothing mapped.
    pub fn new(drive: &DriveConfig) -> Self {
        let g = &drive.geometry;
        let (dies, blocks_per_die) = (g.dies, g.blocks_per_die());
        let slots_per_unit = drive.controller.slots_per_unit();
        let slots_per_block = g.units_per_block() * slots_per_unit;
        let slots_per_program = g.units_per_program() * slots_per_unit;
        let victim_policy = drive.gc.victim;
        let user_units = drive.user_units();
        let total_blocks = dies as usize * blocks_per_die as usize;
        let raw_slots = total_blocks * slots_per_block as usize;
        let die_blocks = (0..dies)
            .map(|d| {
                let blocks = d * blocks_per_die..(d + 1) * blocks_per_die;
                // Pop order: lowest block first, either way.
                let free = if drive.wear.dynamic {
                    FreePool::LeastWorn(blocks.map(|b| Reverse((0, b))).collect())
                } else {
                    FreePool::Stack(blocks.rev().collect())
                };
                DieBlocks { free, open: [None, None], min_bucket: 0, retired: 0, erases_since_check: 0 }
            })
            .collect();
        Ftl {
            slots_per_unit,
            slots_per_block,
            slots_per_program,
            blocks_per_die,
            ppa_of_lpa: vec![NONE; user_units as usize],
            lpa_of_ppa: vec![NONE; raw_slots],
            len_of_lpa: if slots_per_unit > 1 { vec![0; user_units as usize] } else { Vec::new() },
            valid: vec![0; total_blocks],
            state: vec![BlockState::Free; total_blocks],
            erase_count: vec![0; total_blocks],
            bucket_next: vec![NONE; total_blocks],
            bucket_prev: vec![NONE; total_blocks],
            bucket_head: vec![NONE; dies as usize * (slots_per_block as usize + 1)],
            dies: die_blocks,
            victim_policy,
            slots_written: 0,
            closed_at: if victim_policy == GcVictim::CostBenefit { vec![0; total_blocks] } else { Vec::new() },
            closed_order: if victim_policy == GcVictim::Fifo { vec![VecDeque::new(); dies as usize] } else { Vec::new() },
            victim: vec![None; dies as usize],
            free_blocks: total_blocks as u64,
            pe_cycles: drive.endurance.pe_cycles,
            static_levelling: drive
                .wear
                .static_levelling
                .then_some((drive.wear.static_every_erases, drive.wear.static_spread_threshold)),
            reserve_blocks: drive.gc.start_free_blocks + 2,
            retired_blocks: 0,
            worn_out: false,
            erase_count_min: 0,
            erase_count_min_blocks: total_blocks as u64,
            erase_count_max: 0,
            wear_victims: 0,
        }
    }

    /// Bytes the tables of a drive's FTL take, before building it: the map, its reverse (one
    /// entry per slot) and the compressed lengths; per-block arrays add about 1/1000 of that.
    pub fn table_bytes(drive: &DriveConfig) -> u64 {
        let slots_per_unit = drive.controller.slots_per_unit() as u64;
        let user = drive.user_units();
        let lengths = if slots_per_unit > 1 { user } else { 0 };
        user * 4 + drive.geometry.raw_units() * slots_per_unit * 4 + lengths
    }

    pub fn memory_bytes(&self) -> u64 {
        (self.ppa_of_lpa.capacity() * 4
            + self.lpa_of_ppa.capacity() * 4
            + self.len_of_lpa.capacity()
            + self.valid.capacity() * 2
            + self.state.capacity()
            + self.erase_count.capacity() * 4
            + self.bucket_next.capacity() * 4
            + self.bucket_prev.capacity() * 4
            + self.bucket_head.capacity() * 4
            + self.closed_at.capacity() * 4
            + self.closed_order.iter().map(|q| q.capacity() * 4).sum::<usize>()
            + self.dies.iter().map(|d| d.free.memory_bytes()).sum::<usize>()) as u64
    }

    pub fn free_blocks(&self) -> u64 {
        self.free_blocks
    }

    pub fn die_free_blocks(&self, die: u32) -> u32 {
        self.dies[die as usize].free.len() as u32
    }

    pub fn has_victim(&self, die: u32) -> bool {
        self.victim[die as usize].is_some()
    }

    pub fn victim_valid(&self, die: u32) -> Option<u32> {
        self.victim[die as usize].map(|v| self.valid[v.block as usize] as u32)
    }

    pub fn slots_per_block(&self) -> u32 {
        self.slots_per_block
    }

    pub fn slots_per_unit(&self) -> u32 {
        self.slots_per_unit
    }

    /// First slot holding `lpa`, or NONE.
    pub fn ppa_of(&self, lpa: u32) -> u32 {
        self.ppa_of_lpa[lpa as usize]
    }

    #[inline]
    pub fn die_of_ppa(&self, ppa: u32) -> u32 {
        ppa / self.slots_per_block / self.blocks_per_die
    }

    /// The program-sized stripe (multi-plane page) a slot lies in: slots in one stripe come
    /// back from one read.
    #[inline]
    pub fn stripe_of_ppa(&self, ppa: u32) -> u32 {
        ppa / self.slots_per_program
    }

    /// Slots `lpa`'s data occupies.
    #[inline]
    fn len_of(&self, lpa: u32) -> u32 {
        if self.slots_per_unit == 1 {
            1
        } else {
            self.len_of_lpa[lpa as usize] as u32
        }
    }

    /// Lowest and highest erase count over all blocks (retired ones included), kept as blocks
    /// are erased.
    pub fn erase_count_range(&self) -> (u32, u32) {
        (self.erase_count_min, self.erase_count_max)
    }

    /// Blocks retired at their P/E limit.
    pub fn retired_blocks(&self) -> u64 {
        self.retired_blocks
    }

    /// True once the drive is read-only: some die can no longer keep its free-block reserve.
    pub fn worn_out(&self) -> bool {
        self.worn_out
    }

    /// Declares the drive read-only (the controller found it cannot make room on a die).
    pub fn set_worn_out(&mut self) {
        self.worn_out = true;
    }

    /// Closed blocks relocated by static wear levelling so far.
    pub fn wear_victims(&self) -> u64 {
        self.wear_victims
    }

    /// First stage of a host write seen coming: start loading its map entry.
    #[inline]
    pub fn prefetch_mapping(&self, lpa: u32) {
        prefetch(self.ppa_of_lpa.as_ptr().wrapping_add(lpa as usize));
    }

    /// Second stage, once the map entry is cached: start loading the block metadata that
    /// invalidating its old location will touch.
    #[inline]
    pub fn prefetch_old_block(&self, lpa: u32) {
        let old = self.ppa_of_lpa[lpa as usize];
        if old != NONE {
            let b = (old / self.slots_per_block) as usize;
            prefetch(self.valid.as_ptr().wrapping_add(b));
            prefetch(self.bucket_next.as_ptr().wrapping_add(b));
            prefetch(self.bucket_prev.as_ptr().wrapping_add(b));
        }
    }

    #[inline]
    fn die_of_block(&self, block: u32) -> u32 {
        block / self.blocks_per_die
    }

    #[inline]
    fn head_index(&self, block: u32, valid: u32) -> usize {
        self.die_of_block(block) as usize * (self.slots_per_block as usize + 1) + valid as usize
    }

    #[inline]
    fn bucket_del(&mut self, b: u32) {
        let (prev, next) = (self.bucket_prev[b as usize], self.bucket_next[b as usize]);
        if prev != NONE {
            self.bucket_next[prev as usize] = next;
        } else {
            let h = self.head_index(b, self.valid[b as usize] as u32);
            self.bucket_head[h] = next;
        }
        if next != NONE {
            self.bucket_prev[next as usize] = prev;
        }
    }

    #[inline]
    fn bucket_add(&mut self, b: u32) {
        let v = self.valid[b as usize] as u32;
        let h = self.head_index(b, v);
        let first = self.bucket_head[h];
        self.bucket_prev[b as usize] = NONE;
        self.bucket_next[b as usize] = first;
        if first != NONE {
            self.bucket_prev[first as usize] = b;
        }
        self.bucket_head[h] = b;
        let die = &mut self.dies[(b / self.blocks_per_die) as usize];
        if v < die.min_bucket {
            die.min_bucket = v;
        }
    }

    /// Marks the `len` slots from `ppa` stale.
    #[inline]
    fn invalidate(&mut self, ppa: u32, len: u32) {
        let b = ppa / self.slots_per_block;
        if self.state[b as usize] == BlockState::Closed {
            self.bucket_del(b);
            self.valid[b as usize] -= len as u16;
            self.bucket_add(b);
        } else {
            self.valid[b as usize] -= len as u16;
        }
    }

    /// Writes logical unit `lpa`, `len` slots of it (1 without compression), to the next slots
    /// of `die`'s open block for `stream`. Returns the program-sized stripes this completed: the
    /// one it filled, and the one it padded if it did not fit in what was left of it.
    /// The caller guarantees a free block exists when one is needed (see `needs_block`).
    #[inline]
    pub fn write(&mut self, die: u32, stream: Stream, lpa: u32, len: u32) -> u32 {
        debug_assert!(len >= 1 && len <= self.slots_per_unit);
        let (spb, spp) = (self.slots_per_block, self.slots_per_program);
        let mut padded = 0;
        let ob = match self.dies[die as usize].open[stream as usize] {
            Some(ob) if ob.next < spb => {
                // (Without compression every unit is one slot and always fits.)
                let room = if len == 1 { 1 } else { spp - ob.next % spp };
                if len <= room {
                    ob
                } else {
                    // Does not fit in this stripe: it is programmed padded, the unit starts the next.
                    padded = 1;
                    self.padded_open(die, stream, OpenBlock { block: ob.block, next: ob.next + room })
                }
            }
            full => self.padded_open(die, stream, full.unwrap_or(OpenBlock { block: NONE, next: spb })),
        };
        let ppa = ob.block * spb + ob.next;
        let old = self.ppa_of_lpa[lpa as usize];
        if old != NONE {
            self.invalidate(old, self.len_of(lpa));
        }
        self.ppa_of_lpa[lpa as usize] = ppa;
        self.lpa_of_ppa[ppa as usize] = lpa;
        if self.slots_per_unit > 1 {
            self.len_of_lpa[lpa as usize] = len as u8;
        }
        self.valid[ob.block as usize] += len as u16;
        self.slots_written += len as u64;
        let next = ob.next + len;
        self.dies[die as usize].open[stream as usize] = Some(OpenBlock { block: ob.block, next });
        padded + (next % spp == 0) as u32
    }

    /// The stream's open block after skipping to `ob.next`: a new block if that one is full.
    #[inline]
    fn padded_open(&mut self, die: u32, stream: Stream, ob: OpenBlock) -> OpenBlock {
        if ob.next < self.slots_per_block {
            return ob;
        }
        if ob.block != NONE {
            self.close(ob.block);
        }
        let block = self.take_free(die, stream);
        self.state[block as usize] = BlockState::Open;
        OpenBlock { block, next: 0 }
    }

    /// TRIM: the host no longer needs `lpa`; its slots become stale and the LPA unmapped, so GC
    /// will not copy it.
    pub fn trim(&mut self, lpa: u32) {
        let old = self.ppa_of_lpa[lpa as usize];
        if old != NONE {
            self.invalidate(old, self.len_of(lpa));
            self.ppa_of_lpa[lpa as usize] = NONE;
        }
    }

    /// Skips the rest of the stream's current program-sized stripe (a partial page is programmed
    /// padded); the skipped slots hold nothing and count as invalid.
    pub fn pad_to_program(&mut self, die: u32, stream: Stream) {
        if let Some(ob) = self.dies[die as usize].open[stream as usize].as_mut() {
            let spp = self.slots_per_program;
            ob.next = (ob.next.div_ceil(spp) * spp).min(self.slots_per_block);
        }
    }

    /// True if writing `slots` more to this stream on this die will open a new block.
    pub fn needs_block(&self, die: u32, stream: Stream, slots: u32) -> bool {
        match self.dies[die as usize].open[stream as usize] {
            Some(ob) => ob.next + slots > self.slots_per_block,
            None => true,
        }
    }

    fn close(&mut self, block: u32) {
        self.state[block as usize] = BlockState::Closed;
        self.bucket_add(block);
        match self.victim_policy {
            GcVictim::Greedy => {}
            GcVictim::CostBenefit => {
                self.closed_at[block as usize] = (self.slots_written / self.slots_per_block as u64) as u32;
            }
            GcVictim::Fifo => {
                let die = self.die_of_block(block) as usize;
                self.closed_order[die].push_back(block);
            }
        }
    }

    fn take_free(&mut self, die: u32, stream: Stream) -> u32 {
        let block = self.dies[die as usize]
            .free
            .pop(stream)
            .expect("the controller keeps min_free_blocks in reserve, so a free block always exists");
        self.free_blocks -= 1;
        block
    }

    /// Chooses the next victim on `die` by the configured policy. Returns false if the die has
    /// no closed block.
    pub fn pick_victim(&mut self, die: u32) -> bool {
        debug_assert!(self.victim[die as usize].is_none());
        let block = match self.victim_policy {
            GcVictim::Greedy => self.fewest_valid(die),
            GcVictim::CostBenefit => self.best_cost_benefit(die),
            GcVictim::Fifo => self.closed_order[die as usize].pop_front(),
        };
        let Some(block) = block else { return false };
        self.bucket_del(block);
        self.state[block as usize] = BlockState::Victim;
        self.victim[die as usize] = Some(OpenBlock { block, next: 0 });
        true
    }

    /// Greedy: the closed block with the fewest valid slots, in O(1) through the buckets.
    fn fewest_valid(&mut self, die: u32) -> Option<u32> {
        let base = die as usize * (self.slots_per_block as usize + 1);
        let mut v = self.dies[die as usize].min_bucket as usize;
        while v <= self.slots_per_block as usize && self.bucket_head[base + v] == NONE {
            v += 1;
        }
        if v > self.slots_per_block as usize {
            self.dies[die as usize].min_bucket = self.slots_per_block + 1;
            return None;
        }
        self.dies[die as usize].min_bucket = v as u32;
        Some(self.bucket_head[base + v])
    }

    /// Cost-benefit (Rosenblum and Ousterhout's LFS cleaner): the closed block maximising
    /// free space gained x age / cost of reading and rewriting, (1 - u) x age / (1 + u).
    /// Old, cold blocks are taken at higher utilisation than greedy would, so hot data is
    /// given time to invalidate itself. A scan of the die's blocks per victim.
    fn best_cost_benefit(&self, die: u32) -> Option<u32> {
        let now = (self.slots_written / self.slots_per_block as u64) as u32;
        let upb = self.slots_per_block as u64;
        let first = die * self.blocks_per_die;
        let mut best: Option<(u64, u32)> = None;
        for b in first..first + self.blocks_per_die {
            if self.state[b as usize] != BlockState::Closed {
                continue;
            }
            let v = self.valid[b as usize] as u64;
            let age = (now - self.closed_at[b as usize]) as u64 + 1;
            let score = (upb - v) * age * 1024 / (upb + v);
            if best.map_or(true, |(s, _)| score > s) {
                best = Some((score, b));
            }
        }
        best.map(|(_, b)| b)
    }

    /// Scans the next program-sized stripe of `die`'s victim, relocating its valid units to the
    /// die's GC stream; erases the victim after its last stripe.
    pub fn scan_victim_stripe(&mut self, die: u32) -> Scan {
        let Some(vic) = self.victim[die as usize] else { return Scan::default() };
        if self.worn_out {
            return Scan::default();
        }
        if self.dies[die as usize].free.len() == 0 && self.needs_block(die, Stream::Gc, self.slots_per_program) {
            // Retirement has eaten the last free block: nowhere to relocate to. (Retirement
            // declares the drive worn out before this; this keeps it from ever panicking.)
            self.worn_out = true;
            return Scan::default();
        }
        let mut scan = Scan::default();
        let spp = self.slots_per_program;
        let first = vic.block * self.slots_per_block + vic.next;
        for ppa in first..first + spp {
            let lpa = self.lpa_of_ppa[ppa as usize];
            if lpa != NONE && self.ppa_of_lpa[lpa as usize] == ppa {
                let len = self.len_of(lpa);
                scan.moved += 1;
                scan.moved_slots += len;
                scan.programs_due += self.write(die, Stream::Gc, lpa, len);
            }
        }
        let next = vic.next + spp;
        // The victim's later stripes are read in order: start loading their map entries.
        let ahead = first + 2 * spp;
        if vic.next + 3 * spp <= self.slots_per_block {
            for ppa in ahead..ahead + spp {
                let lpa = self.lpa_of_ppa[ppa as usize];
                if lpa != NONE {
                    prefetch(self.ppa_of_lpa.as_ptr().wrapping_add(lpa as usize));
                }
            }
        }
        if next >= self.slots_per_block {
            self.erase(vic.block);
            self.victim[die as usize] = if self.worn_out { None } else { self.static_wear_victim(die) };
            scan.erased = true;
        } else {
            self.victim[die as usize] = Some(OpenBlock { block: vic.block, next });
        }
        scan
    }

    fn erase(&mut self, block: u32) {
        debug_assert_eq!(self.valid[block as usize], 0, "GC would lose a valid unit");
        let spb = self.slots_per_block as usize;
        let start = block as usize * spb;
        self.lpa_of_ppa[start..start + spb].fill(NONE);
        self.valid[block as usize] = 0;
        let before = self.erase_count[block as usize];
        let count = before + 1;
        self.erase_count[block as usize] = count;
        self.count_erase(before, count);
        let die = self.die_of_block(block);
        if count >= self.pe_cycles {
            self.state[block as usize] = BlockState::Retired;
            self.retired_blocks += 1;
            self.dies[die as usize].retired += 1;
            self.check_reserve(die);
        } else {
            self.state[block as usize] = BlockState::Free;
            self.dies[die as usize].free.push(block, count);
            self.free_blocks += 1;
        }
    }

    /// Keeps the drive-wide lowest and highest erase counts. The lowest is found again by a scan
    /// only when its last block moves up: at most once per erase-count level.
    fn count_erase(&mut self, before: u32, after: u32) {
        self.erase_count_max = self.erase_count_max.max(after);
        if before == self.erase_count_min {
            self.erase_count_min_blocks -= 1;
            if self.erase_count_min_blocks == 0 {
                let min = self.erase_count.iter().copied().min().unwrap_or(0);
                self.erase_count_min = min;
                self.erase_count_min_blocks = self.erase_count.iter().filter(|&&c| c == min).count() as u64;
            }
        }
    }

    /// After a retirement: the die must still be able to collect. It needs a free block to
    /// relocate into and, beyond the blocks its data fills, the reserve `DriveConfig::validate`
    /// demands of a new drive; otherwise the drive goes read-only.
    fn check_reserve(&mut self, die: u32) {
        let d = &self.dies[die as usize];
        let in_service = self.blocks_per_die - d.retired;
        let first = (die * self.blocks_per_die) as usize;
        let live: u64 = self.valid[first..first + self.blocks_per_die as usize].iter().map(|&v| v as u64).sum();
        let data_blocks = live.div_ceil(self.slots_per_block as u64);
        if d.free.len() == 0 || (in_service as u64) < data_blocks + self.reserve_blocks as u64 {
            self.worn_out = true;
        }
    }

    /// Static wear levelling, run after each erase on `die`: every `static_every_erases` erases,
    /// if the die's erase counts (blocks in service) spread by more than the threshold, its
    /// closed block with the fewest erases (its data is cold, or it would have been collected)
    /// becomes the next victim, so GC moves the cold data and the block returns to use.
    fn static_wear_victim(&mut self, die: u32) -> Option<OpenBlock> {
        let (every, threshold) = self.static_levelling?;
        let d = &mut self.dies[die as usize];
        d.erases_since_check += 1;
        if d.erases_since_check < every {
            return None;
        }
        d.erases_since_check = 0;
        let first = die * self.blocks_per_die;
        let (mut min, mut max) = (u32::MAX, 0);
        let mut coldest: Option<u32> = None;
        for b in first..first + self.blocks_per_die {
            let state = self.state[b as usize];
            if state == BlockState::Retired {
                continue;
            }
            let c = self.erase_count[b as usize];
            min = min.min(c);
            max = max.max(c);
            if state == BlockState::Closed && coldest.map_or(true, |k| c < self.erase_count[k as usize]) {
                coldest = Some(b);
            }
        }
        let block = coldest?;
        if max - min <= threshold {
            return None;
        }
        self.bucket_del(block);
        if self.victim_policy == GcVictim::Fifo {
            let order = &mut self.closed_order[die as usize];
            if let Some(i) = order.iter().position(|&b| b == block) {
                order.remove(i);
            }
        }
        self.state[block as usize] = BlockState::Victim;
        self.wear_victims += 1;
        Some(OpenBlock { block, next: 0 })
    }

    /// Checks every structural invariant; returns a description of the first violation.
    /// O(raw units): for tests.
    pub fn check_invariants(&self) -> Result<(), String> {
        let upb = self.slots_per_block as usize;
        // Each mapped LPA points at a slot that says it holds that LPA, its slots in one stripe.
        let mut mapped = 0u64;
        for (lpa, &ppa) in self.ppa_of_lpa.iter().enumerate() {
            if ppa != NONE {
                mapped += 1;
                if self.lpa_of_ppa[ppa as usize] != lpa as u32 {
                    return Err(format!("lpa {} -> ppa {} but that slot holds {}", lpa, ppa, self.lpa_of_ppa[ppa as usize]));
                }
                let len = self.len_of(lpa as u32);
                if len == 0 || len > self.slots_per_unit || self.stripe_of_ppa(ppa) != self.stripe_of_ppa(ppa + len - 1) {
                    return Err(format!("lpa {} at slot {} has {} slots, crossing a stripe or out of range", lpa, ppa, len));
                }
            }
        }
        // Valid counts match the live slots per block; free blocks hold nothing.
        let mut live_total = 0u64;
        for b in 0..self.valid.len() {
            let (mut live, mut live_slots) = (0usize, 0usize);
            for p in b * upb..(b + 1) * upb {
                let l = self.lpa_of_ppa[p];
                if l != NONE && self.ppa_of_lpa[l as usize] == p as u32 {
                    live += 1;
                    live_slots += self.len_of(l) as usize;
                }
            }
            if live_slots != self.valid[b] as usize {
                return Err(format!("block {} valid count {} but {} live slots", b, self.valid[b], live_slots));
            }
            if self.state[b] == BlockState::Free && live != 0 {
                return Err(format!("free block {} holds {} live units", b, live));
            }
            live_total += live as u64;
        }
        if live_total != mapped {
            return Err(format!("{} mapped LPAs but {} live units", mapped, live_total));
        }
        // Bucket lists hold exactly the closed blocks, each under its valid count.
        let mut listed = 0usize;
        for die in 0..self.dies.len() {
            for v in 0..=upb {
                let mut b = self.bucket_head[die * (upb + 1) + v];
                while b != NONE {
                    if self.state[b as usize] != BlockState::Closed || self.valid[b as usize] as usize != v {
                        return Err(format!("block {} listed under valid {} wrongly", b, v));
                    }
                    listed += 1;
                    b = self.bucket_next[b as usize];
                }
            }
        }
        let closed = self.state.iter().filter(|&&s| s == BlockState::Closed).count();
        if listed != closed {
            return Err(format!("{} closed blocks but {} listed", closed, listed));
        }
        let free: usize = self.dies.iter().map(|d| d.free.len()).sum();
        if free as u64 != self.free_blocks {
            return Err(format!("free count {} but {} in lists", self.free_blocks, free));
        }
        // Free pools hold exactly the free blocks, each in its own die; retired blocks are
        // nowhere else and hold nothing.
        let mut pooled = 0usize;
        for (die, d) in self.dies.iter().enumerate() {
            for b in d.free.blocks() {
                if self.state[b as usize] != BlockState::Free || self.die_of_block(b) as usize != die {
                    return Err(format!("block {} in die {}'s free pool wrongly", b, die));
                }
                pooled += 1;
            }
        }
        let free_state = self.state.iter().filter(|&&s| s == BlockState::Free).count();
        if free_state != pooled {
            return Err(format!("{} free blocks but {} pooled", free_state, pooled));
        }
        let retired = self.state.iter().filter(|&&s| s == BlockState::Retired).count();
        let retired_per_die: u64 = self.dies.iter().map(|d| d.retired as u64).sum();
        if retired as u64 != self.retired_blocks || retired_per_die != self.retired_blocks {
            return Err(format!("{} retired blocks but counted {} ({} by die)", retired, self.retired_blocks, retired_per_die));
        }
        for (b, &c) in self.erase_count.iter().enumerate() {
            if c > self.pe_cycles || (c == self.pe_cycles) != (self.state[b] == BlockState::Retired) {
                return Err(format!("block {} erased {} times of {} but state {:?}", b, c, self.pe_cycles, self.state[b]));
            }
        }
        let min = self.erase_count.iter().copied().min().unwrap_or(0);
        let max = self.erase_count.iter().copied().max().unwrap_or(0);
        let at_min = self.erase_count.iter().filter(|&&c| c == min).count() as u64;
        if (min, max, at_min) != (self.erase_count_min, self.erase_count_max, self.erase_count_min_blocks) {
            return Err(format!(
                "erase counts {}..{} ({} at min) but kept {}..{} ({})",
                min, max, at_min, self.erase_count_min, self.erase_count_max, self.erase_count_min_blocks
            ));
        }
        Ok(())
    }

    /// Total erases so far (sum over blocks); for tests of monotonicity.
    pub fn erase_counts(&self) -> &[u32] {
        &self.erase_count
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_bytes_predicts_the_tables_built() {
        let mut drive = crate::presets::s3700_200();
        drive.geometry.blocks_per_plane = 64;
        drive.user_bytes = drive.geometry.raw_bytes() / 2 / 4096 * 4096;
        for (compression, slot) in [(false, 2048), (true, 2048), (true, 512)] {
            drive.controller.compression = compression;
            drive.controller.compression_slot_bytes = slot;
            let ftl = Ftl::new(&drive);
            let built = (ftl.ppa_of_lpa.capacity() * 4 + ftl.lpa_of_ppa.capacity() * 4 + ftl.len_of_lpa.capacity()) as u64;
            assert_eq!(Ftl::table_bytes(&drive), built);
            // Per-block arrays and victim buckets on top: a few per cent on this small drive.
            assert!(ftl.memory_bytes() < built + built / 20, "{} vs {}", ftl.memory_bytes(), built);
        }
    }
}
