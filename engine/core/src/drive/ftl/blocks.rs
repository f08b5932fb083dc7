//! The block manager: each block's state and valid count, the closed blocks by valid count,
//! each die's free pool and its open block per stream.

use std::cmp::Reverse;
use std::collections::VecDeque;

use super::buckets::Buckets;
use super::free_pool::FreePool;
use super::{Stream, STREAMS};
use crate::units::{Divisor, NONE};

/// The tag of a block holding relocations of every handle (the GC stream they share with
/// initial isolation).
pub const MIXED: u8 = u8::MAX;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum BlockState {
    Free = 0,
    Open = 1,
    /// Full and eligible as a GC victim: listed in its die's valid-count bucket.
    Closed = 2,
    /// Being collected.
    Victim = 3,
    /// Reached its P/E limit: out of service for good.
    Retired = 4,
}

/// How a block's cells are programmed, chosen when it is opened: natively (all the cell's bits)
/// or in SLC mode (one bit: faster, and `bits` times fewer slots).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[repr(u8)]
pub enum Mode {
    #[default]
    Native = 0,
    Slc = 1,
}

/// A block being filled (or scanned, for a victim): the block, the next slot offset in it, and
/// the slots it takes in its mode (`next == end` means full).
#[derive(Debug, Clone, Copy)]
pub struct Cursor {
    pub block: u32,
    pub next: u32,
    pub end: u32,
}

/// A page (program stripe) of a block: the block's mode and the stripe's index in the block
/// (its type in the wordline is `stripe % bits` in a native block).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PageAt {
    pub mode: Mode,
    pub stripe: u32,
}

#[derive(Debug, Clone)]
struct DieBlocks {
    free: FreePool,
    open: [Option<Cursor>; STREAMS],
    /// Blocks in SLC mode (open, closed or being collected).
    slc_blocks: u32,
    /// Closed SLC-mode blocks, oldest first, for folding. Entries of blocks GC took since are
    /// dropped when met (`oldest_closed_slc`); a block GC took that closed in SLC mode again
    /// is listed twice and folds at its older place (rare: GC takes SLC blocks only when
    /// native free blocks run low).
    slc_closed: VecDeque<u32>,
}

/// Where a unit was placed.
pub struct Placed {
    pub ppa: u32,
    /// The block `ppa` is in (known here without dividing).
    pub block: u32,
    /// Program-sized stripes the placement completed (filled, or padded because the unit did
    /// not fit in what was left of one).
    pub programs: u32,
    /// The block the stream filled and closed to make room, if any.
    pub closed: Option<u32>,
}

pub struct Blocks {
    pub slots_per_block: u32,
    /// Slots of a block in SLC mode: `slots_per_block / bits`.
    pub slc_slots_per_block: u32,
    per_block: Divisor,
    per_die: Divisor,
    per_program: Divisor,
    pub slots_per_program: u32,
    pub blocks_per_die: u32,
    /// Valid slots per block.
    pub valid: Vec<u16>,
    pub state: Vec<BlockState>,
    /// Each block's mode, written when it is opened.
    pub mode: Vec<Mode>,
    /// Each block's placement handle, written when it is opened (`Stream::tag`; `MIXED` for
    /// the GC stream every handle shares). Empty on drives without placement handles, which
    /// write nothing here.
    pub tag: Vec<u8>,
    /// The tag of blocks the `Gc` stream opens: handle 0's with persistent isolation, else
    /// `MIXED`.
    gc_tag: u8,
    pub buckets: Buckets,
    dies: Vec<DieBlocks>,
    free_blocks: u64,
    /// Slots written so far (host and GC): the clock block ages are measured on.
    pub slots_written: u64,
}

impl Blocks {
    /// Every block free; `least_worn` hands out the least-worn free block first (dynamic wear
    /// levelling), otherwise the one freed last. A block in SLC mode holds a `bits`-th of its
    /// slots.
    pub fn new(
        dies: u32,
        blocks_per_die: u32,
        slots_per_block: u32,
        slots_per_program: u32,
        bits: u32,
        least_worn: bool,
    ) -> Self {
        let total = dies as usize * blocks_per_die as usize;
        let die_blocks = (0..dies)
            .map(|d| {
                let blocks = d * blocks_per_die..(d + 1) * blocks_per_die;
                // Pop order: lowest block first, either way.
                let free = if least_worn {
                    FreePool::LeastWorn(blocks.map(|b| Reverse((0, b))).collect())
                } else {
                    FreePool::Stack(blocks.rev().collect())
                };
                DieBlocks { free, open: [None; STREAMS], slc_blocks: 0, slc_closed: VecDeque::new() }
            })
            .collect();
        Blocks {
            slots_per_block,
            slc_slots_per_block: slots_per_block / bits,
            per_block: Divisor::new(slots_per_block),
            per_die: Divisor::new(blocks_per_die),
            per_program: Divisor::new(slots_per_program),
            slots_per_program,
            blocks_per_die,
            valid: vec![0; total],
            state: vec![BlockState::Free; total],
            mode: vec![Mode::Native; total],
            tag: Vec::new(),
            gc_tag: MIXED,
            buckets: Buckets::new(dies, blocks_per_die, slots_per_block),
            dies: die_blocks,
            free_blocks: total as u64,
            slots_written: 0,
        }
    }

    /// Tags each block with the handle whose data it holds (drives with placement handles);
    /// `persistent`: each handle's relocations have their own GC stream.
    pub fn keep_tags(&mut self, persistent: bool) {
        self.tag = vec![0; self.valid.len()];
        self.gc_tag = if persistent { 0 } else { MIXED };
    }

    /// The tag of the blocks `stream` opens.
    pub fn tag_of_stream(&self, stream: Stream) -> u8 {
        if stream == Stream::Gc {
            self.gc_tag
        } else {
            stream.tag()
        }
    }

    pub fn memory_bytes(&self) -> u64 {
        (self.valid.capacity() * 2
            + self.state.capacity()
            + self.mode.capacity()
            + self.tag.capacity()
            + self.dies.iter().map(|d| d.free.memory_bytes() + d.slc_closed.capacity() * 4).sum::<usize>())
            as u64
            + self.buckets.memory_bytes()
    }

    pub fn dies(&self) -> u32 {
        self.dies.len() as u32
    }

    pub fn total(&self) -> u32 {
        self.valid.len() as u32
    }

    #[inline]
    pub fn die_of_block(&self, block: u32) -> u32 {
        self.per_die.quotient(block)
    }

    /// The program-sized stripe a slot lies in.
    #[inline]
    pub fn stripe_of_ppa(&self, ppa: u32) -> u32 {
        self.per_program.quotient(ppa)
    }

    #[inline]
    pub fn block_of_ppa(&self, ppa: u32) -> u32 {
        self.per_block.quotient(ppa)
    }

    /// The page `ppa` lies in.
    pub fn page_of_ppa(&self, ppa: u32) -> PageAt {
        self.page_at(self.per_block.quotient(ppa), self.per_block.remainder(ppa))
    }

    /// The page of `block` holding its slot `offset`.
    pub fn page_at(&self, block: u32, offset: u32) -> PageAt {
        PageAt { mode: self.mode[block as usize], stripe: self.per_program.quotient(offset) }
    }

    /// Slots `block` takes in its mode.
    pub fn slots_in(&self, block: u32) -> u32 {
        match self.mode[block as usize] {
            Mode::Native => self.slots_per_block,
            Mode::Slc => self.slc_slots_per_block,
        }
    }

    /// The page `stream`'s next program on `die` writes: the open block's next stripe, or the
    /// first of the block it will open.
    pub fn next_page(&self, die: u32, stream: Stream) -> PageAt {
        match self.dies[die as usize].open[stream as usize] {
            Some(ob) if ob.next < ob.end => self.page_at(ob.block, ob.next),
            _ => PageAt { mode: stream.mode(), stripe: 0 },
        }
    }

    pub fn free_blocks(&self) -> u64 {
        self.free_blocks
    }

    pub fn die_free_blocks(&self, die: u32) -> u32 {
        self.dies[die as usize].free.len() as u32
    }

    pub fn free_pool(&self, die: u32) -> &FreePool {
        &self.dies[die as usize].free
    }

    /// Marks the `len` slots from `ppa` stale.
    #[inline]
    pub fn invalidate(&mut self, ppa: u32, len: u32) {
        let b = self.block_of_ppa(ppa);
        let v = self.valid[b as usize];
        if self.state[b as usize] == BlockState::Closed {
            self.valid[b as usize] = v - len as u16;
            self.buckets.relist(b, v as u32, (v - len as u16) as u32);
        } else {
            self.valid[b as usize] = v - len as u16;
        }
    }

    /// Places `len` slots in the next slots of `die`'s open block for `stream` (a new block if
    /// that one is full) and counts them valid. The caller guarantees a free block exists when
    /// one is needed (see `needs_block`).
    #[inline]
    pub fn place(&mut self, die: u32, stream: Stream, len: u32) -> Placed {
        let (spb, spp) = (self.slots_per_block, self.slots_per_program);
        // Most units fit the open block's stripe: only its cursor moves. (Without compression
        // every unit is one slot and always fits.)
        if let Some(ob) = &mut self.dies[die as usize].open[stream as usize] {
            if ob.next < ob.end && (len == 1 || len <= spp - ob.next % spp) {
                let at = ob.next;
                ob.next += len;
                return Placed {
                    ppa: ob.block * spb + at,
                    block: ob.block,
                    programs: ob.next.is_multiple_of(spp) as u32,
                    closed: None,
                };
            }
        }
        self.place_beyond(die, stream, len)
    }

    /// `place` of `n` one-slot units in turn, when they all fit in the rest of the program
    /// stripe `die`'s open block for `stream` is writing (or, at a stripe's start, in that
    /// stripe): None otherwise.
    #[inline]
    pub fn place_run(&mut self, die: u32, stream: Stream, n: u32) -> Option<Placed> {
        let (spb, spp) = (self.slots_per_block, self.slots_per_program);
        let ob = self.dies[die as usize].open[stream as usize].as_mut()?;
        let in_stripe = ob.next % spp;
        if in_stripe + n > spp || ob.next + n > ob.end {
            return None;
        }
        let at = ob.next;
        ob.next += n;
        Some(Placed {
            ppa: ob.block * spb + at,
            block: ob.block,
            programs: ob.next.is_multiple_of(spp) as u32,
            closed: None,
        })
    }

    /// `place` when the units do not fit the open block's stripe: they start the next stripe
    /// (the rest of this one is programmed padded) or a new block.
    #[inline(never)]
    fn place_beyond(&mut self, die: u32, stream: Stream, len: u32) -> Placed {
        let (spb, spp) = (self.slots_per_block, self.slots_per_program);
        let mut padded = 0;
        let mut closed = None;
        let open = match self.dies[die as usize].open[stream as usize] {
            Some(ob) if ob.next < ob.end => {
                padded = 1;
                let room = spp - ob.next % spp;
                self.skip_to(die, stream, Cursor { next: ob.next + room, ..ob }, &mut closed)
            }
            full => self.skip_to(die, stream, full.unwrap_or(Cursor { block: NONE, next: 0, end: 0 }), &mut closed),
        };
        let next = open.next + len;
        self.dies[die as usize].open[stream as usize] = Some(Cursor { next, ..open });
        Placed {
            ppa: open.block * spb + open.next,
            block: open.block,
            programs: padded + next.is_multiple_of(spp) as u32,
            closed,
        }
    }

    /// Counts `len` slots written to `block`.
    #[inline]
    pub fn fill(&mut self, block: u32, len: u32) {
        self.valid[block as usize] += len as u16;
        self.slots_written += len as u64;
    }

    /// The stream's open block after skipping to `ob.next`: a new block if that one is full
    /// (the full one is closed and reported in `closed`).
    #[inline]
    fn skip_to(&mut self, die: u32, stream: Stream, ob: Cursor, closed: &mut Option<u32>) -> Cursor {
        if ob.next < ob.end {
            return ob;
        }
        if ob.block != NONE {
            self.close(ob.block);
            *closed = Some(ob.block);
        }
        // The controller keeps min_free_blocks in reserve, so a free block always exists.
        let block = self.open_free(die, stream);
        Cursor { block, next: 0, end: self.slots_in(block) }
    }

    /// Skips the rest of the stream's current program-sized stripe (a partial page is programmed
    /// padded); the skipped slots hold nothing and count as invalid.
    pub fn pad_to_program(&mut self, die: u32, stream: Stream) {
        if let Some(ob) = self.dies[die as usize].open[stream as usize].as_mut() {
            let spp = self.slots_per_program;
            ob.next = (ob.next.div_ceil(spp) * spp).min(ob.end);
        }
    }

    /// True if writing `slots` more to this stream on this die will open a new block.
    pub fn needs_block(&self, die: u32, stream: Stream, slots: u32) -> bool {
        match self.dies[die as usize].open[stream as usize] {
            Some(ob) => ob.next + slots > ob.end,
            None => true,
        }
    }

    /// Takes `die`'s next free block for `stream` and opens it in the stream's mode.
    pub fn open_free(&mut self, die: u32, stream: Stream) -> u32 {
        let block = self.dies[die as usize].free.pop(stream).expect("a free block");
        self.free_blocks -= 1;
        self.state[block as usize] = BlockState::Open;
        let mode = stream.mode();
        self.mode[block as usize] = mode;
        if !self.tag.is_empty() {
            self.tag[block as usize] = self.tag_of_stream(stream);
        }
        if mode == Mode::Slc {
            self.dies[die as usize].slc_blocks += 1;
        }
        block
    }

    /// `block` is full: it is closed and listed under its valid count.
    pub fn close(&mut self, block: u32) {
        self.state[block as usize] = BlockState::Closed;
        self.buckets.add(block, self.valid[block as usize] as u32);
        if self.mode[block as usize] == Mode::Slc {
            let die = self.die_of_block(block) as usize;
            self.dies[die].slc_closed.push_back(block);
        }
    }

    /// Closes `stream`'s open block on `die` as it stands (the rest of it stays unwritten: a
    /// zone ended in it); returns the block, if one was open.
    pub fn close_open(&mut self, die: u32, stream: Stream) -> Option<u32> {
        let ob = self.dies[die as usize].open[stream as usize].take()?;
        self.close(ob.block);
        Some(ob.block)
    }

    /// The block `stream` has open on `die`, if any.
    pub fn open_block(&self, die: u32, stream: Stream) -> Option<u32> {
        self.dies[die as usize].open[stream as usize].map(|ob| ob.block)
    }

    /// Slots left in `stream`'s open block on `die` (0 with none open).
    pub fn room(&self, die: u32, stream: Stream) -> u32 {
        self.dies[die as usize].open[stream as usize].map_or(0, |ob| ob.end - ob.next)
    }

    /// Valid slots in SLC-mode blocks, over all dies.
    pub fn slc_valid_slots(&self) -> u64 {
        self.valid.iter().zip(&self.mode).filter(|(_, &m)| m == Mode::Slc).map(|(&v, _)| v as u64).sum()
    }

    /// Blocks in SLC mode on `die` (open, closed or being collected).
    pub fn slc_blocks(&self, die: u32) -> u32 {
        self.dies[die as usize].slc_blocks
    }

    /// `die`'s oldest closed SLC-mode block, if it has one.
    pub fn oldest_closed_slc(&mut self, die: u32) -> Option<u32> {
        let queue = &mut self.dies[die as usize].slc_closed;
        while let Some(&b) = queue.front() {
            if self.state[b as usize] == BlockState::Closed && self.mode[b as usize] == Mode::Slc {
                return Some(b);
            }
            queue.pop_front();
        }
        None
    }

    /// An erased block leaves its mode: an SLC-mode block no longer counts as one.
    fn left_mode(&mut self, block: u32) {
        if self.mode[block as usize] == Mode::Slc {
            let die = self.die_of_block(block) as usize;
            self.dies[die].slc_blocks -= 1;
            self.mode[block as usize] = Mode::Native;
        }
    }

    /// `stream`'s open block on `die` is `block`, filled up to slot `next`.
    pub fn set_open(&mut self, die: u32, stream: Stream, block: u32, next: u32) {
        self.dies[die as usize].open[stream as usize] = Some(Cursor { block, next, end: self.slots_in(block) });
    }

    /// A closed block is taken for collection: it leaves its bucket.
    pub fn take_for_collection(&mut self, block: u32) {
        self.buckets.remove(block, self.valid[block as usize] as u32);
        self.state[block as usize] = BlockState::Victim;
    }

    /// An erased block returns to its die's free pool (`erase_count`: its erases so far).
    pub fn release(&mut self, block: u32, erase_count: u32) {
        debug_assert_eq!(self.valid[block as usize], 0, "GC would lose a valid unit");
        self.state[block as usize] = BlockState::Free;
        self.left_mode(block);
        let die = self.die_of_block(block) as usize;
        self.dies[die].free.push(block, erase_count);
        self.free_blocks += 1;
    }

    /// An erased block reached its P/E limit and leaves service.
    pub fn retire(&mut self, block: u32) {
        self.state[block as usize] = BlockState::Retired;
        self.left_mode(block);
    }

    /// Valid slots over all of `die`'s blocks.
    pub fn die_valid_slots(&self, die: u32) -> u64 {
        let first = (die * self.blocks_per_die) as usize;
        self.valid[first..first + self.blocks_per_die as usize].iter().map(|&v| v as u64).sum()
    }

    /// Load hints for the metadata that invalidating a slot of `block` will touch.
    #[inline]
    pub fn prefetch(&self, block: u32) {
        super::prefetch_in(&self.valid, block as usize);
        self.buckets.prefetch(block);
    }
}
