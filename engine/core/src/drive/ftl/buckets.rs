//! Closed blocks listed by valid count, per die: intrusive doubly linked lists, so a block
//! moves between counts in O(1) when one of its units is overwritten, and the block with the
//! fewest valid slots is found in O(1) (amortised) through a hint of the lowest non-empty count.

use crate::units::{Divisor, NONE};

#[derive(Debug, Clone)]
pub struct Buckets {
    next: Vec<u32>,
    prev: Vec<u32>,
    /// Per die, per valid count: first closed block with that count.
    head: Vec<u32>,
    /// Per die: lowest count that may be non-empty (counts below it are empty).
    min_count: Vec<u32>,
    /// Counts per die: 0..=slots_per_block.
    counts: usize,
    per_die: Divisor,
}

impl Buckets {
    pub fn new(dies: u32, blocks_per_die: u32, slots_per_block: u32) -> Self {
        let total = dies as usize * blocks_per_die as usize;
        let counts = slots_per_block as usize + 1;
        Buckets {
            next: vec![NONE; total],
            prev: vec![NONE; total],
            head: vec![NONE; dies as usize * counts],
            min_count: vec![0; dies as usize],
            counts,
            per_die: Divisor::new(blocks_per_die),
        }
    }

    #[inline]
    fn head_index(&self, block: u32, valid: u32) -> usize {
        self.per_die.quotient(block) as usize * self.counts + valid as usize
    }

    /// Lists `block` under `valid`.
    #[inline]
    pub fn add(&mut self, block: u32, valid: u32) {
        let h = self.head_index(block, valid);
        let first = self.head[h];
        self.prev[block as usize] = NONE;
        self.next[block as usize] = first;
        if first != NONE {
            self.prev[first as usize] = block;
        }
        self.head[h] = block;
        let die = self.per_die.quotient(block) as usize;
        if valid < self.min_count[die] {
            self.min_count[die] = valid;
        }
    }

    /// Unlists `block`, listed under `valid`.
    #[inline]
    pub fn remove(&mut self, block: u32, valid: u32) {
        let (prev, next) = (self.prev[block as usize], self.next[block as usize]);
        if prev != NONE {
            self.next[prev as usize] = next;
        } else {
            let h = self.head_index(block, valid);
            self.head[h] = next;
        }
        if next != NONE {
            self.prev[next as usize] = prev;
        }
    }

    /// Moves `block` from the list under `from` to the one under `to` (a unit of it was
    /// overwritten).
    #[inline]
    pub fn relist(&mut self, block: u32, from: u32, to: u32) {
        self.remove(block, from);
        self.add(block, to);
    }

    /// The first listed block on `die` with the fewest valid slots.
    pub fn fewest(&mut self, die: u32) -> Option<u32> {
        let base = die as usize * self.counts;
        let mut v = self.min_count[die as usize] as usize;
        while v < self.counts && self.head[base + v] == NONE {
            v += 1;
        }
        self.min_count[die as usize] = v as u32;
        (v < self.counts).then(|| self.head[base + v])
    }

    /// Every block listed on `die` under `valid`, in list order (for invariant checks).
    pub fn listed(&self, die: u32, valid: u32) -> Vec<u32> {
        let mut out = Vec::new();
        let mut b = self.head[die as usize * self.counts + valid as usize];
        while b != NONE {
            out.push(b);
            b = self.next[b as usize];
        }
        out
    }

    /// Load hints for the list links of `block` (its valid count is about to change).
    #[inline]
    pub fn prefetch(&self, block: u32) {
        super::prefetch_in(&self.next, block as usize);
        super::prefetch_in(&self.prev, block as usize);
    }

    pub fn memory_bytes(&self) -> u64 {
        ((self.next.capacity() + self.prev.capacity() + self.head.capacity() + self.min_count.capacity()) * 4) as u64
    }
}
