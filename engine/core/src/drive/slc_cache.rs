//! The SLC cache's one decision, per host page: SLC mode while the cache may take more, else
//! (fold-first) fold the die's oldest SLC block first, or (direct) write natively. Folding is
//! collection: an SLC-mode block's valid units go to the die's GC stream, so it shares the die's
//! one collector with GC (`Ftl::pick_fold_victim`, `Flash::scan_stripe`). Built only for drives
//! with `[slc_cache]`.

use crate::config::{DriveConfig, SlcCacheConfig, WhenFull};

use super::flash::Flash;
use super::ftl::{Ftl, Stream};

pub struct SlcCache {
    when_full: WhenFull,
    idle_fold: bool,
    /// Direct: share of a fold stripe each native host page earns on its die, percent; what
    /// each die has earned and not spent; and the price of a whole SLC block's stripes.
    fold_while_writing_percent: u32,
    fold_credit: Vec<u32>,
    fold_block_price: u32,
    /// SLC-mode blocks each die may hold, and the share of its blocks free of native data it
    /// may lend the cache (`block_limit`).
    blocks_per_die: u32,
    dynamic_share: Option<f64>,
    /// A die opens an SLC block only above GC's reserve (`gc.min_free_blocks`).
    min_free_blocks: u32,
    slots_per_program: u32,
}

impl SlcCache {
    pub fn new(cache: &SlcCacheConfig, drive: &DriveConfig) -> Self {
        SlcCache {
            when_full: cache.when_full,
            idle_fold: cache.idle_fold,
            fold_while_writing_percent: cache.fold_while_writing_percent,
            fold_credit: vec![0; drive.geometry.dies as usize],
            // An SLC block's stripes: its native pages over the cell's bits.
            fold_block_price: drive.geometry.pages_per_block / drive.nand.cell.bits() * 100,
            blocks_per_die: cache.blocks_per_die(drive),
            dynamic_share: cache.dynamic_share,
            min_free_blocks: drive.gc.min_free_blocks,
            slots_per_program: drive.geometry.units_per_program(),
        }
    }

    /// The stream the next host page on `die` goes to; folding first if the cache is full and
    /// host writes must still land in SLC. The host page waits behind that work on the die.
    pub fn stream_for_host_page(&mut self, die: u32, now_ns: u64, flash: &mut Flash) -> Stream {
        let stream = self.choose_stream(die, now_ns, flash);
        flash.counters.cache_host_pages += 1;
        flash.counters.cache_slc_pages += (stream == Stream::Slc) as u64;
        stream
    }

    fn choose_stream(&mut self, die: u32, now_ns: u64, flash: &mut Flash) -> Stream {
        if self.may_write_slc(die, flash) {
            return Stream::Slc;
        }
        match self.when_full {
            WhenFull::Direct => {
                self.fold_while_writing(die, now_ns, flash);
                Stream::Host
            }
            WhenFull::FoldFirst => {
                fold_one(die, now_ns, flash);
                if self.may_write_slc(die, flash) {
                    Stream::Slc
                } else {
                    Stream::Host
                }
            }
        }
    }

    /// Slots host writes could still take in SLC mode on `die` now: its open SLC block's room
    /// and the SLC blocks it may still open (under the cache's limit and above GC's reserve).
    pub fn free_slots(&self, die: u32, ftl: &Ftl) -> u64 {
        let may_open = (self.block_limit(die, ftl).saturating_sub(ftl.slc_blocks(die)))
            .min(ftl.die_free_blocks(die).saturating_sub(self.min_free_blocks));
        ftl.room(die, Stream::Slc) as u64 + may_open as u64 * ftl.slc_slots_per_block() as u64
    }

    /// The die's open SLC block has room, or it may open another: under the cache's limit and
    /// above GC's reserve.
    fn may_write_slc(&self, die: u32, flash: &Flash) -> bool {
        let ftl = &flash.ftl;
        !ftl.needs_block(die, Stream::Slc, self.slots_per_program)
            || (ftl.slc_blocks(die) < self.block_limit(die, ftl) && ftl.die_free_blocks(die) > self.min_free_blocks)
    }

    /// SLC-mode blocks `die` may hold now: its part of `dynamic_max_bytes`, and with
    /// `dynamic_share` no more than that share of the blocks native data does not hold beyond
    /// GC's reserve (free, or lent to the cache: folding gives them back), so the cache shrinks
    /// as the drive fills.
    fn block_limit(&self, die: u32, ftl: &Ftl) -> u32 {
        match self.dynamic_share {
            None => self.blocks_per_die,
            Some(share) => {
                let lendable = (ftl.die_free_blocks(die) + ftl.slc_blocks(die)).saturating_sub(self.min_free_blocks);
                self.blocks_per_die.min((share * lendable as f64) as u32)
            }
        }
    }

    /// Direct, the cache full: the native host page earns its share of a fold stripe; once
    /// the die has earned a whole SLC block's stripes it folds its oldest one. (Whole blocks: a
    /// victim left half scanned is GC's to finish, and consistency-first pacing would scan it
    /// all at once on the next page.)
    fn fold_while_writing(&mut self, die: u32, now_ns: u64, flash: &mut Flash) {
        if self.fold_while_writing_percent == 0 {
            return;
        }
        let credit = &mut self.fold_credit[die as usize];
        *credit += self.fold_while_writing_percent;
        if *credit >= self.fold_block_price {
            *credit -= self.fold_block_price;
            fold_one(die, now_ns, flash);
        }
    }

    /// Idle time from `from_ns` to `until_ns`: with `idle_fold`, each die folds its closed SLC
    /// blocks while it has time (before idle GC).
    pub fn fold_idle(&self, dies: u32, from_ns: u64, until_ns: u64, flash: &mut Flash) {
        if !self.idle_fold {
            return;
        }
        for die in 0..dies {
            loop {
                let start = flash.nand.die_free_ns(die).max(from_ns);
                if start >= until_ns
                    || flash.ftl.worn_out()
                    || (!flash.ftl.has_victim(die) && !flash.ftl.pick_fold_victim(die))
                {
                    break;
                }
                flash.scan_stripe(die, start);
            }
        }
    }
}

/// The die finishes the victim it is collecting, then folds its oldest closed SLC block whole
/// (if it has one).
fn fold_one(die: u32, now_ns: u64, flash: &mut Flash) {
    while flash.ftl.has_victim(die) && !flash.ftl.worn_out() {
        flash.scan_stripe(die, now_ns);
    }
    if flash.ftl.worn_out() || !flash.ftl.pick_fold_victim(die) {
        return;
    }
    while flash.ftl.has_victim(die) && !flash.ftl.worn_out() {
        flash.scan_stripe(die, now_ns);
    }
}
