//! A die's free blocks and the order they are handed out in: the one place dynamic wear
//! levelling decides which free block is written next.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::Stream;

/// A die's free blocks, in the order they are handed out.
#[derive(Debug, Clone)]
pub enum FreePool {
    /// The block freed last is reused first.
    Stack(Vec<u32>),
    /// Dynamic wear levelling: host data (native or SLC) gets the block with the fewest erases
    /// (then the lowest number), O(log n); GC's relocated, colder data gets the most-worn block,
    /// O(n) over the few free blocks a collecting die has.
    LeastWorn(BinaryHeap<Reverse<(u32, u32)>>),
}

impl FreePool {
    #[inline]
    pub fn len(&self) -> usize {
        match self {
            FreePool::Stack(v) => v.len(),
            FreePool::LeastWorn(h) => h.len(),
        }
    }

    #[inline]
    pub fn pop(&mut self, stream: Stream) -> Option<u32> {
        match self {
            FreePool::Stack(v) => v.pop(),
            FreePool::LeastWorn(h) if stream != Stream::Gc => h.pop().map(|Reverse((_, b))| b),
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
    pub fn push(&mut self, block: u32, erase_count: u32) {
        match self {
            FreePool::Stack(v) => v.push(block),
            FreePool::LeastWorn(h) => h.push(Reverse((erase_count, block))),
        }
    }

    pub fn blocks(&self) -> Vec<u32> {
        match self {
            FreePool::Stack(v) => v.clone(),
            FreePool::LeastWorn(h) => h.iter().map(|Reverse((_, b))| *b).collect(),
        }
    }

    pub fn memory_bytes(&self) -> usize {
        match self {
            FreePool::Stack(v) => v.capacity() * 4,
            FreePool::LeastWorn(h) => h.capacity() * 8,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
