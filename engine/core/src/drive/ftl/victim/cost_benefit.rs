//! Cost-benefit (Rosenblum and Ousterhout's LFS cleaner): the closed block maximising free space
//! gained x age / cost of reading and rewriting, (1 - u) x age / (1 + u). Old, cold blocks are
//! taken at higher utilisation than greedy would, so hot data is given time to invalidate
//! itself. A scan of the die's blocks per victim.

use super::{PolicyContext, VictimPolicy};
use crate::drive::ftl::blocks::{BlockState, Blocks};

pub struct CostBenefit {
    /// When each block was closed, in blocks written (`slots_written / slots_per_block`).
    closed_at: Vec<u32>,
}

impl VictimPolicy for CostBenefit {
    const DESCRIPTION: &'static str = "the block with the best (1 - u) x age / (1 + u): lets hot data invalidate first";

    fn new(ctx: &PolicyContext) -> Self {
        CostBenefit { closed_at: vec![0; ctx.dies as usize * ctx.blocks_per_die as usize] }
    }

    fn pick(&mut self, die: u32, blocks: &mut Blocks) -> Option<u32> {
        let now = (blocks.slots_written / blocks.slots_per_block as u64) as u32;
        let upb = blocks.slots_per_block as u64;
        let first = die * blocks.blocks_per_die;
        let mut best: Option<(u64, u32)> = None;
        for b in first..first + blocks.blocks_per_die {
            if blocks.state[b as usize] != BlockState::Closed {
                continue;
            }
            let v = blocks.valid[b as usize] as u64;
            let age = (now - self.closed_at[b as usize]) as u64 + 1;
            let score = (upb - v) * age * 1024 / (upb + v);
            if best.is_none_or(|(s, _)| score > s) {
                best = Some((score, b));
            }
        }
        best.map(|(_, b)| b)
    }

    fn closed(&mut self, block: u32, blocks: &Blocks) {
        self.closed_at[block as usize] = (blocks.slots_written / blocks.slots_per_block as u64) as u32;
    }

    fn memory_bytes(&self) -> u64 {
        self.closed_at.capacity() as u64 * 4
    }
}
