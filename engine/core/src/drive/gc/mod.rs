//! Garbage collection: when a die collects and how much, around the FTL's victim scan. Two
//! pacings, one file each: consistency-first spreads collection over host writes; lazy
//! collects in bulk when a die runs out. Both share the foreground path (a die with no free
//! block to open collects before the host page may go) and idle-time collection. A zoned
//! drive's pacing, erase-only, never takes a victim holding data: it erases the blocks the
//! host's resets emptied, when a free block is needed or when idle.

mod consistency_first;
mod lazy;

use crate::config::{GcConfig, GcPacing};

use super::flash::Flash;
use super::ftl::Stream;
use super::slc_cache::SlcCache;
use consistency_first::ConsistencyFirst;

pub struct Gc {
    cfg: GcConfig,
    dies: u32,
    blocks_per_die: u32,
    slots_per_program: u32,
    pacing: Pacing,
    /// The SLC cache, which decides each host page's stream (None: native).
    cache: Option<SlcCache>,
}

/// Which drives' GC moves data: a zoned drive's never does (`Pacing::EraseOnly`), whatever
/// `gc.pacing` says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Moves {
    Data,
    Never,
}

enum Pacing {
    ConsistencyFirst(ConsistencyFirst),
    Lazy,
    EraseOnly,
}

impl Gc {
    pub fn new(
        cfg: &GcConfig,
        dies: u32,
        blocks_per_die: u32,
        slots_per_block: u64,
        slots_per_program: u32,
        cache: Option<SlcCache>,
        moves: Moves,
    ) -> Self {
        let pacing = match (moves, cfg.pacing) {
            (Moves::Never, _) => Pacing::EraseOnly,
            (Moves::Data, GcPacing::ConsistencyFirst) => {
                Pacing::ConsistencyFirst(ConsistencyFirst::new(dies, slots_per_block))
            }
            (Moves::Data, GcPacing::Lazy) => Pacing::Lazy,
        };
        Gc { cfg: cfg.clone(), dies, blocks_per_die, slots_per_program, pacing, cache }
    }

    /// The SLC cache, for drives with one.
    pub fn cache(&self) -> Option<&SlcCache> {
        self.cache.as_ref()
    }

    /// 1 while the drive-wide clean-up (consistency-first's boost) runs.
    pub fn boosting(&self) -> bool {
        match &self.pacing {
            Pacing::ConsistencyFirst(p) => p.boosting(),
            Pacing::Lazy | Pacing::EraseOnly => false,
        }
    }

    /// A host page was just booked on `die`: consistency-first pacing earns it its share of
    /// collection.
    #[inline]
    pub fn after_host_page(&mut self, die: u32, now_ns: u64, flash: &mut Flash) {
        if let Pacing::ConsistencyFirst(p) = &mut self.pacing {
            p.pace(&self.cfg, self.dies, die, now_ns, flash);
        }
    }

    /// Makes room for the next host page on `die`, whose data is of stream `host` (its
    /// placement handle's), and returns the stream it goes to (the SLC cache's choice, which may
    /// fold first; else `host`). Foreground collection: if opening a block would eat into the
    /// reserve, the die collects whole victims now, and the host page waits behind that work on
    /// the die. How far it cleans is the pacing's choice (`lazy::foreground_target`).
    pub fn make_room(&mut self, die: u32, now_ns: u64, flash: &mut Flash, host: Stream) -> Stream {
        let stream = match &mut self.cache {
            None => host,
            Some(cache) => cache.stream_for_host_page(die, now_ns, flash),
        };
        self.collect_for(die, stream, now_ns, flash);
        stream
    }

    fn collect_for(&mut self, die: u32, stream: Stream, now_ns: u64, flash: &mut Flash) {
        let reserve = self.cfg.min_free_blocks;
        let target = match self.pacing {
            Pacing::ConsistencyFirst(_) | Pacing::EraseOnly => reserve,
            Pacing::Lazy => lazy::foreground_target(&self.cfg),
        };
        let ftl = &flash.ftl;
        if !(ftl.needs_block(die, stream, self.slots_per_program) && ftl.die_free_blocks(die) <= reserve) {
            return;
        }
        if let Pacing::EraseOnly = self.pacing {
            // The blocks of reset zones hold nothing: an erase each, and no victim is scanned.
            while flash.ftl.die_free_blocks(die) <= target && flash.erase_empty_block(die, now_ns) {}
            return;
        }
        // Every victim with free space gains the die a block; a die that collects more victims
        // than it has blocks without getting there is only reshuffling full blocks (retirement
        // has left no spare area): the drive is worn out.
        let mut victims = 0;
        while flash.ftl.die_free_blocks(die) <= target && !flash.ftl.worn_out() {
            if !flash.ftl.has_victim(die) && !flash.ftl.pick_victim(die) {
                return; // nothing to collect: validation keeps spare area, so this is unreachable
            }
            victims += 1;
            if victims > self.blocks_per_die {
                flash.ftl.set_worn_out();
                return;
            }
            while flash.ftl.has_victim(die) && !flash.ftl.worn_out() {
                flash.scan_stripe(die, now_ns);
            }
        }
    }

    /// Idle-time work: the SLC cache folds first (if it does so when idle), then each die, while
    /// it has time before `until_ns`, erases every block that holds no valid data (TRIM leaves
    /// such blocks: an erase each, nothing to copy, so beyond the target too) and scans victims
    /// while it has fewer than `gc.background_free_blocks` free blocks.
    pub fn background(&mut self, from_ns: u64, until_ns: u64, flash: &mut Flash) {
        if let Some(cache) = &self.cache {
            cache.fold_idle(self.dies, from_ns, until_ns, flash);
        }
        let target = self.cfg.background_free_blocks;
        if target == 0 {
            return;
        }
        for die in 0..self.dies {
            loop {
                let start = flash.nand.die_free_ns(die).max(from_ns);
                if start >= until_ns || !flash.erase_empty_block(die, start) {
                    break;
                }
            }
            if let Pacing::EraseOnly = self.pacing {
                continue; // no victim holding data is ever taken
            }
            while flash.ftl.die_free_blocks(die) < target || flash.ftl.has_victim(die) {
                let start = flash.nand.die_free_ns(die).max(from_ns);
                if start >= until_ns || (!flash.ftl.has_victim(die) && !flash.ftl.pick_victim(die)) {
                    break;
                }
                flash.scan_stripe(die, start);
            }
        }
    }
}
