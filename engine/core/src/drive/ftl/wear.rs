//! Wear: erase counts, retirement of blocks at their P/E limit, static wear levelling, and the
//! one place the drive is declared worn out (read-only).
//! (Dynamic levelling, which free block is written next, is the free pool's: `free_pool.rs`.)

use super::blocks::{BlockState, Blocks};
use crate::config::DriveConfig;

pub struct Wear {
    erase_count: Vec<u32>,
    /// Erases a block survives; at this count it is retired.
    pe_cycles: u32,
    /// Static levelling: (check every this many erases per die, spread threshold), if on.
    static_levelling: Option<(u32, u32)>,
    /// Per die: erases since the last static check, and blocks retired.
    erases_since_check: Vec<u32>,
    retired_on_die: Vec<u32>,
    /// Blocks a die must keep beyond its data (GC's start threshold and two open blocks, as
    /// `DriveConfig::validate` reserves); below it the drive stops accepting writes.
    reserve_blocks: u32,
    retired_blocks: u64,
    /// Read-only: retirement left some die unable to keep its reserve.
    worn_out: bool,
    /// Lowest erase count over all blocks and how many blocks have it; highest erase count.
    min: u32,
    blocks_at_min: u64,
    max: u32,
    /// Closed blocks relocated by static wear levelling.
    static_victims: u64,
}

impl Wear {
    pub fn new(drive: &DriveConfig) -> Self {
        let g = &drive.geometry;
        let w = &drive.wear;
        let in_service = g.dies as u64 * drive.blocks_in_service_per_die() as u64;
        Wear {
            erase_count: vec![0; in_service as usize],
            pe_cycles: drive.endurance.pe_cycles,
            static_levelling: w.static_levelling.then_some((w.static_every_erases, w.static_spread_threshold)),
            erases_since_check: vec![0; g.dies as usize],
            retired_on_die: vec![0; g.dies as usize],
            reserve_blocks: drive.gc.start_free_blocks + 2,
            retired_blocks: 0,
            worn_out: false,
            min: 0,
            blocks_at_min: in_service,
            max: 0,
            static_victims: 0,
        }
    }

    pub fn memory_bytes(&self) -> u64 {
        ((self.erase_count.capacity() + self.erases_since_check.capacity() + self.retired_on_die.capacity()) * 4) as u64
    }

    pub fn erase_counts(&self) -> &[u32] {
        &self.erase_count
    }

    pub fn pe_cycles(&self) -> u32 {
        self.pe_cycles
    }

    /// Lowest and highest erase count over all blocks (retired ones included).
    pub fn range(&self) -> (u32, u32) {
        (self.min, self.max)
    }

    /// The range as kept and the number of blocks at the minimum (for invariant checks).
    pub fn kept_range(&self) -> (u32, u32, u64) {
        (self.min, self.max, self.blocks_at_min)
    }

    pub fn retired_blocks(&self) -> u64 {
        self.retired_blocks
    }

    pub fn retired_on_die(&self, die: u32) -> u32 {
        self.retired_on_die[die as usize]
    }

    pub fn worn_out(&self) -> bool {
        self.worn_out
    }

    pub fn set_worn_out(&mut self) {
        self.worn_out = true;
    }

    pub fn static_victims(&self) -> u64 {
        self.static_victims
    }

    /// Counts an erase of `block`; returns its erase count and whether it is now retired.
    pub fn erased(&mut self, block: u32, die: u32) -> (u32, bool) {
        let before = self.erase_count[block as usize];
        let count = before + 1;
        self.erase_count[block as usize] = count;
        self.max = self.max.max(count);
        // The lowest is found again by a scan only when its last block moves up: at most once
        // per erase-count level.
        if before == self.min {
            self.blocks_at_min -= 1;
            if self.blocks_at_min == 0 {
                let min = self.erase_count.iter().copied().min().unwrap_or(0);
                self.min = min;
                self.blocks_at_min = self.erase_count.iter().filter(|&&c| c == min).count() as u64;
            }
        }
        let retired = count >= self.pe_cycles;
        if retired {
            self.retired_blocks += 1;
            self.retired_on_die[die as usize] += 1;
        }
        (count, retired)
    }

    /// After a retirement: the die must still be able to collect. It needs a free block to
    /// relocate into and, beyond the blocks its data fills, the reserve `DriveConfig::validate`
    /// demands of a new drive; otherwise the drive goes read-only.
    pub fn check_reserve(&mut self, die: u32, blocks: &Blocks) {
        let in_service = blocks.blocks_per_die - self.retired_on_die[die as usize];
        let data_blocks = blocks.die_valid_slots(die).div_ceil(blocks.slots_per_block as u64);
        if blocks.die_free_blocks(die) == 0 || (in_service as u64) < data_blocks + self.reserve_blocks as u64 {
            self.worn_out = true;
        }
    }

    /// Static wear levelling, run after each erase on `die`: every `static_every_erases` erases,
    /// if the die's erase counts (blocks in service) spread by more than the threshold, its
    /// closed block with the fewest erases (its data is cold, or it would have been collected)
    /// should be collected next, so GC moves the cold data and the block returns to use.
    pub fn static_victim(&mut self, die: u32, blocks: &Blocks) -> Option<u32> {
        let (every, threshold) = self.static_levelling?;
        let since = &mut self.erases_since_check[die as usize];
        *since += 1;
        if *since < every {
            return None;
        }
        *since = 0;
        let first = die * blocks.blocks_per_die;
        let (mut min, mut max) = (u32::MAX, 0);
        let mut coldest: Option<u32> = None;
        for b in first..first + blocks.blocks_per_die {
            let state = blocks.state[b as usize];
            if state == BlockState::Retired {
                continue;
            }
            let c = self.erase_count[b as usize];
            min = min.min(c);
            max = max.max(c);
            if state == BlockState::Closed && coldest.is_none_or(|k| c < self.erase_count[k as usize]) {
                coldest = Some(b);
            }
        }
        let block = coldest?;
        if max - min <= threshold {
            return None;
        }
        self.static_victims += 1;
        Some(block)
    }
}
