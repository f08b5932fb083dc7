//! FIFO: the block closed longest ago, whatever it holds (a log-structured cleaner's simplest
//! order).

use std::collections::VecDeque;

use super::{PolicyContext, VictimPolicy};
use crate::drive::ftl::blocks::Blocks;

pub struct Fifo {
    /// Per die, closed blocks in the order they were closed.
    closed_order: Vec<VecDeque<u32>>,
}

impl VictimPolicy for Fifo {
    const DESCRIPTION: &'static str = "the block closed longest ago, whatever it holds";

    fn new(ctx: &PolicyContext) -> Self {
        Fifo { closed_order: vec![VecDeque::new(); ctx.dies as usize] }
    }

    fn pick(&mut self, die: u32, _blocks: &mut Blocks) -> Option<u32> {
        self.closed_order[die as usize].pop_front()
    }

    fn closed(&mut self, block: u32, blocks: &Blocks) {
        self.closed_order[blocks.die_of_block(block) as usize].push_back(block);
    }

    fn taken(&mut self, block: u32, die: u32) {
        let order = &mut self.closed_order[die as usize];
        if let Some(i) = order.iter().position(|&b| b == block) {
            order.remove(i);
        }
    }

    fn memory_bytes(&self) -> u64 {
        self.closed_order.iter().map(|q| q.capacity() as u64 * 4).sum()
    }
}
