//! Consistency-first pacing (the S3700's flat line [000]): each host page programmed on a die
//! lets that die scan victim stripes in proportion to the rate that frees a block exactly as
//! fast as the host fills one (stripes per host page = slots_per_block / (slots_per_block -
//! victim_valid)), times `paced_percent`, or `boost_percent` while the drive-wide free pool is
//! being refilled. Paced slightly under break-even, the pool drains slowly until the boost
//! refills it: the periodic heavier clean-up the S3700 shows as a dip every ~150 s.

use crate::config::GcConfig;
use crate::drive::flash::Flash;

pub struct ConsistencyFirst {
    /// Per die: scanning earned and not yet spent, and the running cost of a stripe.
    credit: Vec<u64>,
    stripe_cost: Vec<u64>,
    /// The drive is refilling its free pool (see `GcConfig::boost_percent`).
    boost: bool,
    slots_per_block: u64,
}

impl ConsistencyFirst {
    pub fn new(dies: u32, slots_per_block: u64) -> Self {
        ConsistencyFirst {
            credit: vec![0; dies as usize],
            stripe_cost: vec![0; dies as usize],
            boost: false,
            slots_per_block,
        }
    }

    pub fn boosting(&self) -> bool {
        self.boost
    }

    pub fn pace(&mut self, gc: &GcConfig, dies: u32, die: u32, now_ns: u64, flash: &mut Flash) {
        if flash.ftl.worn_out() {
            return;
        }
        let start = gc.start_free_blocks;
        let average_free = flash.ftl.free_blocks() / dies as u64;
        if average_free <= gc.boost_below_free_blocks as u64 {
            self.boost = true;
        } else if average_free >= gc.boost_until_free_blocks as u64 {
            self.boost = false;
        }
        let percent = if self.boost { gc.boost_percent } else { gc.paced_percent } as u64;
        let d = die as usize;
        let free = flash.ftl.die_free_blocks(die);
        if !flash.ftl.has_victim(die) && free > start {
            self.credit[d] = 0;
            return;
        }
        // Far below the threshold this die has fallen behind the rest: pay double to catch up.
        let urgency = if free <= gc.boost_below_free_blocks / 2 { 2 } else { 1 };
        self.credit[d] += self.slots_per_block * percent * urgency;
        loop {
            if !flash.ftl.has_victim(die) {
                if flash.ftl.die_free_blocks(die) > start || !flash.ftl.pick_victim(die) {
                    self.credit[d] = 0;
                    return;
                }
                // Pace on a running average of victims' free space, not on this victim alone,
                // so a cold, nearly full victim (cost-benefit, FIFO) does not stall its die
                // while the dies around it run ahead.
                let valid = flash.ftl.victim_valid(die).unwrap_or(0) as u64;
                let cost = (self.slots_per_block - valid).max(1) * 100;
                let avg = &mut self.stripe_cost[d];
                *avg = if *avg == 0 { cost } else { (*avg * 7 + cost) / 8 };
            }
            if self.credit[d] < self.stripe_cost[d] || flash.ftl.worn_out() {
                return;
            }
            self.credit[d] -= self.stripe_cost[d];
            flash.scan_stripe(die, now_ns);
        }
    }
}
