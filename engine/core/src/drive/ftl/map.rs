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
//!
//! Physical space is counted in slots: one per 4 KiB unit, or, on a compressing controller,
//! `slots_per_unit` smaller ones (a compressing drive's fill has no formula: its tables are
//! built as it is written). Once every block has been rewritten the memory per 4 KiB of raw NAND
//! is what a plain table needs: 4 bytes per slot and 4 per user unit.

use crate::config::DriveConfig;
use crate::units::{Divisor, NONE};

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

/// Where a stripe's recorded units are: nowhere, the fill's formula, or a chunk of the reverse
/// map (from this index).
#[derive(Debug, Clone, Copy)]
pub enum Stripe {
    Empty,
    Fill { first: u32, end: u32 },
    Chunk(usize),
}

/// An open-addressed u32 -> u32 table (keys are units, never NONE).
#[derive(Debug, Clone)]
struct Changes {
    /// (unit, slot) pairs side by side, so a probe touches one cache line; unit NONE: empty.
    entries: Vec<(u32, u32)>,
    len: usize,
}

impl Changes {
    fn new() -> Self {
        Changes { entries: vec![(NONE, 0); 1024], len: 0 }
    }

    /// Where the probe for `key` starts.
    #[inline]
    fn home(&self, key: u32) -> usize {
        // The product's high half: on wasm32 a usize keeps only the low 32 bits, too few to spread.
        ((key as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & (self.entries.len() - 1)
    }

    #[inline]
    fn slot(&self, key: u32) -> usize {
        let mask = self.entries.len() - 1;
        let mut i = self.home(key);
        while self.entries[i].0 != key && self.entries[i].0 != NONE {
            i = (i + 1) & mask;
        }
        i
    }

    #[inline]
    fn get(&self, key: u32) -> Option<u32> {
        let e = self.entries[self.slot(key)];
        (e.0 == key).then_some(e.1)
    }

    fn insert(&mut self, key: u32, value: u32) {
        if (self.len + 1) * 8 > self.entries.len() * 5 {
            let old = std::mem::replace(self, Changes { entries: vec![(NONE, 0); self.entries.len() * 2], len: 0 });
            for (k, v) in old.entries.into_iter().filter(|e| e.0 != NONE) {
                self.insert(k, v);
            }
        }
        let i = self.slot(key);
        if self.entries[i].0 == NONE {
            self.len += 1;
        }
        self.entries[i] = (key, value);
    }

    fn memory_bytes(&self) -> u64 {
        self.entries.capacity() as u64 * 8
    }
}

enum Forward {
    /// Every unit's slot (NONE: unmapped).
    Dense(Vec<u32>),
    /// Units changed since the fill; the rest are where the fill put them.
    Sparse(Changes),
}

pub struct PageMap {
    forward: Forward,
    fill: Option<FillLayout>,
    user_units: u32,
    /// Per block: FILL, NONE (nothing recorded) or the chunk of `reverse` holding its slots.
    chunk_of_block: Vec<u32>,
    /// Chunks of `slots_per_block` entries: slot -> unit starting there, or NONE (also for a
    /// unit's later slots). Stale entries are detected by checking `ppa_of(lpa) == ppa`, so
    /// invalidation needs no second write here.
    reverse: Vec<u32>,
    free_chunks: Vec<u32>,
    slots_per_block: u32,
    per_block: Divisor,
    /// Slots each logical unit occupies (compressing controllers only; otherwise empty: 1).
    len_of_lpa: Vec<u8>,
    slots_per_unit: u32,
}

impl PageMap {
    /// Nothing mapped yet.
    pub fn new(user_units: u64, total_blocks: u32, slots_per_block: u32, slots_per_unit: u32) -> Self {
        PageMap {
            forward: if slots_per_unit > 1 {
                Forward::Dense(vec![NONE; user_units as usize])
            } else {
                Forward::Sparse(Changes::new())
            },
            fill: None,
            user_units: user_units as u32,
            chunk_of_block: vec![NONE; total_blocks as usize],
            reverse: Vec::new(),
            free_chunks: Vec::new(),
            slots_per_block,
            per_block: Divisor::new(slots_per_block),
            len_of_lpa: if slots_per_unit > 1 { vec![0; user_units as usize] } else { Vec::new() },
            slots_per_unit,
        }
    }

    /// The sequential fill laid out by `layout` is now the map (no tables needed for it).
    pub fn filled(&mut self, layout: FillLayout) {
        debug_assert!(self.slots_per_unit == 1 && matches!(&self.forward, Forward::Sparse(c) if c.len == 0));
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
        };
        forward
            + (self.chunk_of_block.capacity() + self.reverse.capacity() + self.free_chunks.capacity()) as u64 * 4
            + self.len_of_lpa.capacity() as u64
    }

    pub fn slots_per_unit(&self) -> u32 {
        self.slots_per_unit
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
                    at => Stripe::Fill { first: at, end: f.units },
                }
            }
            chunk => Stripe::Chunk((chunk * spb + b.remainder(first)) as usize),
        }
    }

    /// The unit recorded at slot `i` of `stripe` (NONE if none).
    #[inline(always)]
    pub fn recorded_in(&self, stripe: Stripe, i: u32) -> u32 {
        match stripe {
            Stripe::Empty => NONE,
            Stripe::Fill { first, end } => {
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
    #[inline]
    pub fn recorded_at(&self, ppa: u32) -> u32 {
        let spb = self.slots_per_block;
        let b = self.per_block;
        match self.chunk_of_block[b.quotient(ppa) as usize] {
            NONE => NONE,
            FILL => self.fill.map_or(NONE, |f| f.lpa_at(ppa)),
            chunk => self.reverse[(chunk * spb + b.remainder(ppa)) as usize],
        }
    }

    /// `lpa` now lives at `ppa`, `len` slots long.
    #[inline]
    pub fn set(&mut self, lpa: u32, ppa: u32, block: u32, len: u32) {
        debug_assert_eq!(block, self.per_block.quotient(ppa));
        self.set_forward(lpa, ppa);
        let spb = self.slots_per_block;
        let mut chunk = self.chunk_of_block[block as usize];
        if chunk == NONE || chunk == FILL {
            chunk = self.new_chunk(block, chunk == FILL);
        }
        self.reverse[(chunk * spb + self.per_block.remainder(ppa)) as usize] = lpa;
        if self.slots_per_unit > 1 {
            self.len_of_lpa[lpa as usize] = len as u8;
        }
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
        }
    }

    /// Enough has changed that one flat array is smaller and faster than the changes table.
    #[cold]
    fn densify(&mut self) {
        let mut v = vec![NONE; self.user_units as usize];
        if let Some(f) = self.fill {
            f.write_all(&mut v);
        }
        if let Forward::Sparse(changes) = &self.forward {
            for &(k, p) in changes.entries.iter().filter(|e| e.0 != NONE) {
                v[k as usize] = p;
            }
        }
        self.forward = Forward::Dense(v);
    }

    /// Block `block` is written for the first time since its erase (or since the fill, whose
    /// slots it then copies in): it gets its own chunk of the reverse map.
    #[cold]
    fn new_chunk(&mut self, block: u32, from_fill: bool) -> u32 {
        let spb = self.slots_per_block;
        let chunk = self.free_chunks.pop().unwrap_or_else(|| {
            // Grow by a quarter at a time, never past every block's chunk: the slab's spare
            // capacity stays small (it is real memory in a browser).
            let (len, most, chunk) = (self.reverse.len(), self.chunk_of_block.len() * spb as usize, spb as usize);
            if len + chunk > self.reverse.capacity() {
                let more = (len / 4).next_multiple_of(chunk).max(64 * chunk).min(most - len);
                self.reverse.reserve_exact(more);
            }
            self.reverse.resize(len + spb as usize, NONE);
            (len / spb as usize) as u32
        });
        let first = (chunk * spb) as usize;
        for q in 0..spb {
            let ppa = block * spb + q;
            self.reverse[first + q as usize] = if from_fill { self.fill.map_or(NONE, |f| f.lpa_at(ppa)) } else { NONE };
        }
        self.chunk_of_block[block as usize] = chunk;
        chunk
    }

    /// Block `block` was erased: it holds nothing, and its chunk is free for another.
    pub fn erased(&mut self, block: u32) {
        let chunk = std::mem::replace(&mut self.chunk_of_block[block as usize], NONE);
        if chunk != NONE && chunk != FILL {
            self.free_chunks.push(chunk);
        }
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
    fn changes_overlay_the_fill_until_the_map_goes_flat() {
        let f = FillLayout { units: 4096, units_per_stripe: 4, dies: 2, slots_per_block: 64, blocks_per_die: 64 };
        let mut m = PageMap::new(4096, 128, 64, 1);
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
