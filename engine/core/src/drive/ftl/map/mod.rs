//! The exact logical-to-physical page map at 4 KiB granularity, and its reverse, in memory that
//! follows the work: a region still holding its sequential fill is computed from the fill's
//! layout rather than stored, and tables grow only where the host (or GC) has written since.
//!
//! - Forward (`ppa_of`): units rewritten since the fill sit in a hash table over the fill's
//!   formula; once more than an eighth of the units have changed, the map becomes one flat
//!   array (4 bytes per user unit), as fast as a plain table.
//! - Reverse (`recorded_at`): per block, either the fill's formula, nothing (erased), or a
//!   chunk of 4 bytes per slot, allocated when the block is first written after the fill and
//!   recycled when it is erased.
//! - Drives with an SLC cache, whose fill from a secure erase writes every unit, keep stripes
//!   instead (`stripes.rs`): forward, one entry per program stripe whose units lie whole and in
//!   order, the others' units one by one (then flat, as above); reverse, a chunk of one entry
//!   per stripe (its first unit; the rest follow) until a slot breaks its stripe's run. A whole
//!   fill then costs about 4 bytes per stripe each way, not per unit.
//!
//! Physical space is counted in slots: one per 4 KiB unit, or, on a compressing controller,
//! `slots_per_unit` smaller ones (a compressing drive's fill has no formula: its tables are
//! built as it is written). Once every block has been rewritten the memory per 4 KiB of raw NAND
//! is what a plain table needs: 4 bytes per slot and 4 per user unit.

mod changes;
mod stripes;

use crate::config::DriveConfig;
use crate::units::{Divisor, NONE};
use changes::Changes;
use stripes::Stripes;

/// A block whose slots still hold the fill's data (the reverse map computes them).
const FILL: u32 = NONE - 1;

/// Where the sequential fill put each unit: page-sized stripes dealt to the dies in turn, each
/// die filling its blocks from the lowest up.
#[derive(Debug, Clone, Copy)]
pub struct FillLayout {
    /// Units `0..units` were filled.
    pub units: u32,
    pub units_per_stripe: u32,
    pub dies: u32,
    pub slots_per_block: u32,
    pub blocks_per_die: u32,
}

impl FillLayout {
    #[inline]
    fn stripes_per_block(&self) -> u32 {
        self.slots_per_block / self.units_per_stripe
    }

    #[inline]
    fn ppa_of(&self, lpa: u32) -> u32 {
        if lpa >= self.units {
            return NONE;
        }
        let stripe = lpa / self.units_per_stripe;
        let (die, k) = (stripe % self.dies, stripe / self.dies);
        let block = die * self.blocks_per_die + k / self.stripes_per_block();
        block * self.slots_per_block
            + (k % self.stripes_per_block()) * self.units_per_stripe
            + lpa % self.units_per_stripe
    }

    #[inline]
    fn lpa_at(&self, ppa: u32) -> u32 {
        let block = ppa / self.slots_per_block;
        let (die, j) = (block / self.blocks_per_die, block % self.blocks_per_die);
        let q = ppa % self.slots_per_block;
        let k = j * self.stripes_per_block() + q / self.units_per_stripe;
        let lpa = (k as u64 * self.dies as u64 + die as u64) * self.units_per_stripe as u64
            + (q % self.units_per_stripe) as u64;
        if lpa < self.units as u64 {
            lpa as u32
        } else {
            NONE
        }
    }

    /// Writes every filled unit's slot into `ppa_of_lpa`, in order: a row of stripes (one per
    /// die) at a time, with no division per unit.
    fn write_all(&self, ppa_of_lpa: &mut [u32]) {
        let (upp, spb) = (self.units_per_stripe as usize, self.slots_per_block as usize);
        let mut lpa = 0usize;
        let end = (self.units as usize).min(ppa_of_lpa.len());
        for k in 0.. {
            // The k-th stripe of every die.
            let (block, offset) = (k / self.stripes_per_block() as usize, k % self.stripes_per_block() as usize * upp);
            for die in 0..self.dies as usize {
                let first = (die * self.blocks_per_die as usize + block) * spb + offset;
                let n = upp.min(end - lpa);
                for (i, slot) in ppa_of_lpa[lpa..lpa + n].iter_mut().enumerate() {
                    *slot = (first + i) as u32;
                }
                lpa += n;
                if lpa == end {
                    return;
                }
            }
        }
    }

    /// Units the fill put on `die`.
    pub fn units_on_die(&self, die: u32) -> u32 {
        let stripes = self.units.div_ceil(self.units_per_stripe);
        let on_die = if die < stripes { (stripes - die).div_ceil(self.dies) } else { 0 };
        // The last stripe may be partial; it lies on die (stripes - 1) % dies.
        let short = if stripes > 0 && die == (stripes - 1) % self.dies {
            stripes * self.units_per_stripe - self.units
        } else {
            0
        };
        on_die * self.units_per_stripe - short
    }
}

/// Where a stripe's recorded units are: nowhere, consecutive units from `first` (the fill's, or
/// a run the stripe map recorded) below `end`, or a chunk of the reverse map (from this index).
#[derive(Debug, Clone, Copy)]
pub enum Stripe {
    Empty,
    Run { first: u32, end: u32 },
    Chunk(usize),
}

/// An explicit tag: telling three variants apart by a niche in `Dense`'s vector took seven
/// instructions per lookup where a tag takes one compare.
#[repr(u8)]
enum Forward {
    /// Every unit's slot (NONE: unmapped).
    Dense(Vec<u32>),
    /// Units changed since the fill; the rest are where the fill put them.
    Sparse(Changes),
    /// One entry per program stripe (drives with an SLC cache). Boxed: the enum keeps the
    /// layout of the two above, whose matches sit on every unit's path.
    Stripes(Box<Stripes>),
}

pub struct PageMap {
    forward: Forward,
    fill: Option<FillLayout>,
    user_units: u32,
    /// Per block: FILL, NONE (nothing recorded), the chunk of `reverse` holding its slots, or
    /// RUNS + the chunk of `runs` holding its stripes.
    chunk_of_block: Vec<u32>,
    /// Chunks of `slots_per_block` entries: slot -> unit starting there, or NONE (also for a
    /// unit's later slots). Stale entries are detected by checking `ppa_of(lpa) == ppa`, so
    /// invalidation needs no second write here.
    reverse: Vec<u32>,
    free_chunks: Vec<u32>,
    /// Drives whose map keeps stripes: chunks of one entry per program stripe of a block, the
    /// unit at its first slot (the rest follow in order), or NONE. A block leaves it for a chunk
    /// of `reverse` when a slot breaks its stripe's run.
    runs: Vec<u32>,
    free_runs: Vec<u32>,
    by_stripe: bool,
    slots_per_block: u32,
    per_block: Divisor,
    per_program: Divisor,
    /// Slots each logical unit occupies (compressing controllers only; otherwise empty: 1).
    len_of_lpa: Vec<u8>,
    slots_per_unit: u32,
}

/// `chunk_of_block` values from here up (but FILL and NONE) are chunks of `runs`.
const RUNS: u32 = 1 << 31;

impl PageMap {
    /// Nothing mapped yet. `by_stripe`: keep one entry per program stripe where the data lies in
    /// whole stripes (one slot per unit only).
    pub fn new(
        user_units: u64,
        total_blocks: u32,
        slots_per_block: u32,
        slots_per_program: u32,
        slots_per_unit: u32,
        by_stripe: bool,
    ) -> Self {
        debug_assert!(!by_stripe || slots_per_unit == 1);
        PageMap {
            forward: if slots_per_unit > 1 {
                Forward::Dense(vec![NONE; user_units as usize])
            } else if by_stripe {
                Forward::Stripes(Box::new(Stripes::new(user_units as u32, slots_per_program)))
            } else {
                Forward::Sparse(Changes::new())
            },
            fill: None,
            user_units: user_units as u32,
            chunk_of_block: vec![NONE; total_blocks as usize],
            reverse: Vec::new(),
            free_chunks: Vec::new(),
            runs: Vec::new(),
            free_runs: Vec::new(),
            by_stripe,
            slots_per_block,
            per_block: Divisor::new(slots_per_block),
            per_program: Divisor::new(slots_per_program),
            len_of_lpa: if slots_per_unit > 1 { vec![0; user_units as usize] } else { Vec::new() },
            slots_per_unit,
        }
    }

    /// The sequential fill laid out by `layout` is now the map (no tables needed for it).
    pub fn filled(&mut self, layout: FillLayout) {
        debug_assert!(self.slots_per_unit == 1 && self.reverse.is_empty() && self.runs.is_empty());
        for die in 0..layout.dies {
            let blocks = layout.units_on_die(die).div_ceil(layout.slots_per_block);
            let first = (die * layout.blocks_per_die) as usize;
            self.chunk_of_block[first..first + blocks as usize].fill(FILL);
        }
        self.fill = Some(layout);
    }

    /// The most these tables can take for `drive`, once every unit and block has been written.
    pub fn table_bytes(drive: &DriveConfig) -> u64 {
        let slots_per_unit = drive.controller.slots_per_unit() as u64;
        let user = drive.user_units();
        let lengths = if slots_per_unit > 1 { user } else { 0 };
        user * 4 + drive.geometry.raw_units() * slots_per_unit * 4 + lengths + drive.geometry.total_blocks() * 4
    }

    pub fn memory_bytes(&self) -> u64 {
        let forward = match &self.forward {
            Forward::Dense(v) => v.capacity() as u64 * 4,
            Forward::Sparse(c) => c.memory_bytes(),
            Forward::Stripes(s) => s.memory_bytes(),
        };
        forward
            + (self.chunk_of_block.capacity()
                + self.reverse.capacity()
                + self.free_chunks.capacity()
                + self.runs.capacity()
                + self.free_runs.capacity()) as u64
                * 4
            + self.len_of_lpa.capacity() as u64
    }

    pub fn slots_per_unit(&self) -> u32 {
        self.slots_per_unit
    }

    /// True if the forward map keeps one entry per program stripe (a run is one update).
    #[inline]
    pub fn by_stripe(&self) -> bool {
        self.by_stripe
    }

    /// First slot holding `lpa`, or NONE.
    #[inline(always)]
    pub fn ppa_of(&self, lpa: u32) -> u32 {
        match &self.forward {
            Forward::Dense(v) => v[lpa as usize],
            Forward::Sparse(changes) => match changes.get(lpa) {
                Some(ppa) => ppa,
                None => self.fill.map_or(NONE, |f| f.ppa_of(lpa)),
            },
            Forward::Stripes(s) => s.ppa_of(lpa, self.fill),
        }
    }

    /// Slots `lpa`'s data occupies.
    #[inline]
    pub fn len_of(&self, lpa: u32) -> u32 {
        if self.slots_per_unit == 1 {
            1
        } else {
            self.len_of_lpa[lpa as usize] as u32
        }
    }

    /// The unit whose current data starts at slot `ppa`, if any (a stale or empty slot: None).
    #[inline]
    pub fn live_at(&self, ppa: u32) -> Option<u32> {
        let lpa = self.recorded_at(ppa);
        (lpa != NONE && self.ppa_of(lpa) == ppa).then_some(lpa)
    }

    /// How to read the units recorded in the stripe starting at slot `first` (one lookup for
    /// the whole stripe; `recorded_in` then reads slot `i` of it).
    #[inline(always)]
    pub fn stripe(&self, first: u32) -> Stripe {
        let spb = self.slots_per_block;
        let b = self.per_block;
        match self.chunk_of_block[b.quotient(first) as usize] {
            NONE => Stripe::Empty,
            FILL => {
                // Within a stripe the fill's units are consecutive: one formula, then counting.
                let f = self.fill.expect("a fill block has a fill");
                match f.lpa_at(first) {
                    NONE => Stripe::Empty,
                    at => Stripe::Run { first: at, end: f.units },
                }
            }
            chunk if chunk < RUNS => Stripe::Chunk((chunk * spb + b.remainder(first)) as usize),
            runs => match self.runs[self.run_index(runs, first)] {
                NONE => Stripe::Empty,
                at => Stripe::Run { first: at, end: self.user_units },
            },
        }
    }

    /// Where the run of the stripe holding slot `ppa` is, in the block's chunk of runs.
    #[inline]
    fn run_index(&self, chunk: u32, ppa: u32) -> usize {
        let stripes_per_block = self.per_program.quotient(self.slots_per_block);
        ((chunk - RUNS) * stripes_per_block + self.per_program.quotient(self.per_block.remainder(ppa))) as usize
    }

    /// The unit recorded at slot `i` of `stripe` (NONE if none).
    #[inline(always)]
    pub fn recorded_in(&self, stripe: Stripe, i: u32) -> u32 {
        match stripe {
            Stripe::Empty => NONE,
            Stripe::Run { first, end } => {
                if first + i < end {
                    first + i
                } else {
                    NONE
                }
            }
            Stripe::Chunk(at) => self.reverse[at + i as usize],
        }
    }

    /// The unit recorded at slot `ppa`, live or stale (NONE if none).
    pub fn recorded_at(&self, ppa: u32) -> u32 {
        let i = self.per_program.remainder(ppa);
        self.recorded_in(self.stripe(ppa - i), i)
    }

    /// `lpa` now lives at `ppa`, `len` slots long.
    #[inline]
    pub fn set(&mut self, lpa: u32, ppa: u32, block: u32, len: u32) {
        debug_assert_eq!(block, self.per_block.quotient(ppa));
        self.set_forward(lpa, ppa);
        if self.slots_per_unit > 1 {
            self.len_of_lpa[lpa as usize] = len as u8;
        }
        self.set_reverse(lpa, ppa, block);
    }

    /// The reverse map's half of `set`.
    #[inline]
    fn set_reverse(&mut self, lpa: u32, ppa: u32, block: u32) {
        let spb = self.slots_per_block;
        let mut chunk = self.chunk_of_block[block as usize];
        if chunk >= RUNS {
            // Not a chunk of slots: nothing recorded yet, the fill's, or runs.
            match self.record_run(block, ppa, lpa) {
                Some(slots) => chunk = slots,
                None => return,
            }
        }
        self.reverse[(chunk * spb + self.per_block.remainder(ppa)) as usize] = lpa;
    }

    /// True if none of units `lpa..lpa + n` is mapped, when one look tells (stripe maps, the
    /// units in one stripe); false otherwise (ask `ppa_of` unit by unit).
    #[inline]
    pub fn none_mapped(&self, lpa: u32, n: u32) -> bool {
        match &self.forward {
            Forward::Stripes(stripes) => stripes.none_mapped(lpa, n, self.fill),
            Forward::Dense(_) | Forward::Sparse(_) => false,
        }
    }

    /// `set` of units `lpa..lpa + n`, one slot each, at `ppa..` in `block`, in turn: a run
    /// continuing the stripe its first slot's unit began costs one update each way, not `n`.
    pub fn set_run(&mut self, lpa: u32, ppa: u32, block: u32, n: u32) {
        debug_assert_eq!(block, self.per_block.quotient(ppa + n - 1));
        let fill = self.fill;
        let done = match &mut self.forward {
            Forward::Dense(v) => {
                for (k, slot) in v[lpa as usize..(lpa + n) as usize].iter_mut().enumerate() {
                    *slot = ppa + k as u32;
                }
                true
            }
            Forward::Stripes(stripes) => {
                let done = stripes.set_run(lpa, ppa, n, fill);
                // Opening a stripe settles the one open before, whose units may go one by one.
                if done && stripes.split.len as u64 * 8 > self.user_units as u64 {
                    self.densify();
                }
                done
            }
            Forward::Sparse(_) => false,
        };
        if !done {
            (0..n).for_each(|k| self.set_forward(lpa + k, ppa + k));
        }
        if self.slots_per_unit > 1 {
            self.len_of_lpa[lpa as usize..(lpa + n) as usize].fill(1);
        }
        let chunk = self.chunk_of_block[block as usize];
        let i = self.per_program.remainder(ppa);
        if chunk < RUNS {
            let at = (chunk * self.slots_per_block + self.per_block.remainder(ppa)) as usize;
            for (k, slot) in self.reverse[at..at + n as usize].iter_mut().enumerate() {
                *slot = lpa + k as u32;
            }
            return;
        }
        if chunk != NONE && chunk != FILL && i + n <= self.per_program.get() {
            // Within one stripe of a chunk of runs: a run starts, or the one there continues.
            let at = self.run_index(chunk, ppa);
            if i == 0 {
                self.runs[at] = lpa;
                return;
            }
            if self.runs[at] != NONE && self.runs[at] + i == lpa {
                return;
            }
        }
        for k in 0..n {
            self.set_reverse(lpa + k, ppa + k, block);
        }
    }

    /// Records `lpa` at `ppa` in `block`'s chunk of runs if it continues its stripe's run (one
    /// is made on a stripe map's first write to the block); otherwise returns the chunk of
    /// slots the block now has, for the caller to write in.
    #[inline(never)]
    fn record_run(&mut self, block: u32, ppa: u32, lpa: u32) -> Option<u32> {
        let mut chunk = self.chunk_of_block[block as usize];
        if chunk == NONE || chunk == FILL {
            if !self.by_stripe {
                return Some(self.new_chunk(block));
            }
            chunk = self.new_runs(block);
        }
        let (at, i) = (self.run_index(chunk, ppa), self.per_program.remainder(ppa));
        if i == 0 {
            self.runs[at] = lpa;
            return None;
        }
        let run = self.runs[at];
        if run != NONE && run + i == lpa {
            return None;
        }
        Some(self.new_chunk(block))
    }

    /// `lpa` is no longer mapped.
    #[inline]
    pub fn unmap(&mut self, lpa: u32) {
        self.set_forward(lpa, NONE);
    }

    #[inline]
    fn set_forward(&mut self, lpa: u32, ppa: u32) {
        match &mut self.forward {
            Forward::Dense(v) => v[lpa as usize] = ppa,
            Forward::Sparse(changes) => {
                changes.insert(lpa, ppa);
                if changes.len as u64 * 8 > self.user_units as u64 {
                    self.densify();
                }
            }
            Forward::Stripes(stripes) => {
                stripes.set(lpa, ppa, self.fill);
                if stripes.split.len as u64 * 8 > self.user_units as u64 {
                    self.densify();
                }
            }
        }
    }

    /// Enough has changed that one flat array is smaller and faster than the changes table.
    #[cold]
    fn densify(&mut self) {
        let mut v = vec![NONE; self.user_units as usize];
        match &self.forward {
            Forward::Dense(_) => return,
            Forward::Sparse(changes) => {
                if let Some(f) = self.fill {
                    f.write_all(&mut v);
                }
                for (k, p) in changes.iter() {
                    v[k as usize] = p;
                }
            }
            Forward::Stripes(stripes) => {
                for (lpa, slot) in v.iter_mut().enumerate() {
                    *slot = stripes.ppa_of(lpa as u32, self.fill);
                }
            }
        }
        self.forward = Forward::Dense(v);
    }

    /// Takes a free chunk of `len` entries from `slab`, or grows it by one. It doubles, never
    /// past `most` entries: in wasm a grown slab is copied and its old place left as a hole
    /// (no `mremap`), so growing by a quarter copied four times its final size and left the
    /// 1 TB fill's memory 15 % larger than doubling does. Capacity not yet used is not touched.
    fn take_chunk(slab: &mut Vec<u32>, free: &mut Vec<u32>, len: usize, most: usize) -> u32 {
        free.pop().unwrap_or_else(|| {
            let have = slab.len();
            if have + len > slab.capacity() {
                let more = have.next_multiple_of(len).max(64 * len).min(most - have);
                slab.reserve_exact(more);
            }
            slab.resize(have + len, NONE);
            (have / len) as u32
        })
    }

    /// Block `block` is written for the first time since its erase, or a slot broke its runs:
    /// it gets its own chunk of the reverse map, holding what it recorded so far.
    #[cold]
    fn new_chunk(&mut self, block: u32) -> u32 {
        let spb = self.slots_per_block;
        let most = self.chunk_of_block.len() * spb as usize;
        let chunk = Self::take_chunk(&mut self.reverse, &mut self.free_chunks, spb as usize, most);
        let first = (chunk * spb) as usize;
        let before = self.chunk_of_block[block as usize];
        if before == NONE {
            self.reverse[first..first + spb as usize].fill(NONE);
        } else {
            for q in 0..spb {
                self.reverse[first + q as usize] = self.recorded_at(block * spb + q);
            }
        }
        if before != NONE && before != FILL {
            self.free_runs.push(before - RUNS);
        }
        self.chunk_of_block[block as usize] = chunk;
        chunk
    }

    /// A stripe map's first write to `block` since its erase (or since the fill, whose runs it
    /// takes): it gets a chunk of runs.
    #[cold]
    fn new_runs(&mut self, block: u32) -> u32 {
        let (spb, spp) = (self.slots_per_block, self.per_program.get());
        let len = (spb / spp) as usize;
        let chunk = Self::take_chunk(&mut self.runs, &mut self.free_runs, len, self.chunk_of_block.len() * len);
        let fill = self.fill.filter(|_| self.chunk_of_block[block as usize] == FILL);
        for (j, run) in self.runs[chunk as usize * len..][..len].iter_mut().enumerate() {
            *run = fill.map_or(NONE, |f| f.lpa_at(block * spb + j as u32 * spp));
        }
        self.chunk_of_block[block as usize] = RUNS + chunk;
        RUNS + chunk
    }

    /// Block `block` was erased: it holds nothing, and its chunk is free for another.
    pub fn erased(&mut self, block: u32) {
        match std::mem::replace(&mut self.chunk_of_block[block as usize], NONE) {
            NONE | FILL => {}
            chunk if chunk < RUNS => self.free_chunks.push(chunk),
            runs => self.free_runs.push(runs - RUNS),
        }
    }

    /// Blocks whose reverse is a chunk of slots, and blocks whose reverse is runs (tests).
    #[cfg(test)]
    pub fn chunks(&self) -> (usize, usize) {
        let (mut slots, mut runs) = (0, 0);
        for &c in &self.chunk_of_block {
            match c {
                NONE | FILL => {}
                c if c < RUNS => slots += 1,
                _ => runs += 1,
            }
        }
        (slots, runs)
    }

    /// Every mapped unit and its first slot (for invariant checks).
    pub fn mapped(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        (0..self.user_units).map(|l| (l, self.ppa_of(l))).filter(|&(_, p)| p != NONE)
    }

    /// Load hint for `lpa`'s entry (a write to it is coming).
    #[inline]
    pub fn prefetch_entry(&self, lpa: u32) {
        match &self.forward {
            Forward::Dense(v) => super::prefetch_in(v, lpa as usize),
            // (Natively the changes table gets no hint: it is only there early in a run.)
            #[cfg(target_arch = "wasm32")]
            Forward::Sparse(c) => super::prefetch_in(&c.entries, c.home(lpa)),
            #[cfg(not(target_arch = "wasm32"))]
            Forward::Sparse(_) => {}
            Forward::Stripes(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fill_layout_inverts_and_counts_each_die() {
        let f = FillLayout { units: 10_000, units_per_stripe: 4, dies: 3, slots_per_block: 64, blocks_per_die: 100 };
        let mut seen = std::collections::HashSet::new();
        for lpa in 0..f.units {
            let ppa = f.ppa_of(lpa);
            assert_eq!(f.lpa_at(ppa), lpa);
            assert!(seen.insert(ppa));
        }
        assert_eq!(f.ppa_of(f.units), NONE);
        let mut all = vec![NONE; f.units as usize + 5];
        f.write_all(&mut all);
        assert!((0..f.units).all(|l| all[l as usize] == f.ppa_of(l)) && all[f.units as usize] == NONE);
        let total: u32 = (0..3).map(|d| f.units_on_die(d)).sum();
        assert_eq!(total, f.units);
        // 2,500 stripes: dies 0 gets 834, 1 and 2 get 833.
        assert_eq!((f.units_on_die(0), f.units_on_die(1), f.units_on_die(2)), (3336, 3332, 3332));
        let odd = FillLayout { units: 10, ..f };
        assert_eq!((odd.units_on_die(0), odd.units_on_die(1), odd.units_on_die(2)), (4, 4, 2));
    }

    #[test]
    fn a_run_set_at_once_maps_as_its_units_set_one_by_one() {
        // A stripe map (4 units per stripe) written in runs: from a stripe's start, continuing
        // the stripe written in order, or anywhere; until it goes flat.
        let (units, spp) = (4096, 4);
        let (mut runs, mut one_by_one) =
            (PageMap::new(units, 128, 64, spp, 1, true), PageMap::new(units, 128, 64, spp, 1, true));
        let mut rng = crate::rng::Rng::new(11);
        let (mut next_ppa, mut lpa) = (0u32, 0u32);
        while next_ppa + spp <= 128 * 64 {
            let i = match rng.below(3) {
                0 => lpa % spp, // the run goes on where the last ended
                1 => 0,
                _ => rng.below(spp as u64) as u32,
            };
            if i == 0 || rng.below(2) == 0 {
                lpa = rng.below((units as u32 / spp) as u64) as u32 * spp + i;
                next_ppa = next_ppa.next_multiple_of(spp) + if i == 0 { 0 } else { i };
            }
            let n = 1 + rng.below((spp - lpa % spp) as u64) as u32;
            let (ppa, block) = (next_ppa, next_ppa / 64);
            if block != (ppa + n - 1) / 64 {
                next_ppa = (block + 1) * 64;
                continue;
            }
            runs.set_run(lpa, ppa, block, n);
            (0..n).for_each(|k| one_by_one.set(lpa + k, ppa + k, block, 1));
            for l in lpa.saturating_sub(spp)..(lpa + n + spp).min(units as u32) {
                assert_eq!(runs.ppa_of(l), one_by_one.ppa_of(l), "unit {l} after {n} at {lpa} -> {ppa}");
            }
            let flat = |m: &PageMap| matches!(m.forward, Forward::Dense(_));
            assert_eq!(flat(&runs), flat(&one_by_one), "flat after {n} at {lpa} -> {ppa}");
            (next_ppa, lpa) = (ppa + n, lpa + n);
        }
        assert!(matches!(runs.forward, Forward::Dense(_)), "the map went flat on the way");
        for l in 0..units as u32 {
            assert_eq!(runs.ppa_of(l), one_by_one.ppa_of(l), "unit {l}");
        }
        for p in 0..128 * 64 {
            assert_eq!(runs.live_at(p), one_by_one.live_at(p), "slot {p}");
        }
    }

    #[test]
    fn changes_overlay_the_fill_until_the_map_goes_flat() {
        let f = FillLayout { units: 4096, units_per_stripe: 4, dies: 2, slots_per_block: 64, blocks_per_die: 64 };
        let mut m = PageMap::new(4096, 128, 64, 4, 1, false);
        m.filled(f);
        assert_eq!(m.ppa_of(5), f.ppa_of(5));
        assert_eq!(m.live_at(f.ppa_of(5)), Some(5));
        m.set(5, 127 * 64, 127, 1);
        assert_eq!(m.ppa_of(5), 127 * 64);
        assert_eq!(m.live_at(f.ppa_of(5)), None, "the old copy is stale");
        assert_eq!(m.recorded_at(127 * 64), 5);
        m.unmap(6);
        assert_eq!(m.ppa_of(6), NONE);
        for lpa in 100..700 {
            m.set(lpa, 126 * 64 + lpa % 64, 126, 1);
        }
        assert!(matches!(m.forward, Forward::Dense(_)));
        assert_eq!((m.ppa_of(5), m.ppa_of(6), m.ppa_of(7)), (127 * 64, NONE, f.ppa_of(7)));
        m.erased(127);
        assert_eq!(m.recorded_at(127 * 64), NONE);
    }
}
