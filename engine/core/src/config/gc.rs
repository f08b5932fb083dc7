//! The garbage-collection and wear-levelling sections.

use serde::{Deserialize, Serialize};

use super::limits::{check_limits, Limit};
use crate::units::ConfigError;

/// How garbage collection is spread over time (each has one file in `drive/gc/`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GcPacing {
    /// Spread GC evenly over host writes: every host page programmed on a die earns that die
    /// just enough victim scanning to break even on free blocks (S3700-style flat line).
    ConsistencyFirst,
    /// Collect only when a die has run out of free blocks, then all at once (P400e-style wall).
    Lazy,
}

impl GcPacing {
    pub const ALL: [GcPacing; 2] = [GcPacing::ConsistencyFirst, GcPacing::Lazy];
}

/// Garbage-collection policy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GcConfig {
    /// Which closed block GC takes next: a name from the registry in `drive/ftl/victim/`
    /// (`greedy`, `cost-benefit`, `fifo`, `d-choices`; `ssdlab params` lists them).
    pub victim: String,
    /// Blocks a sampling victim policy draws for each choice (d-choices' d).
    pub victim_choices: u32,
    pub pacing: GcPacing,
    /// A die starts collecting when its free blocks fall to this many.
    pub start_free_blocks: u32,
    /// A die collects synchronously (host writes wait) when its free blocks fall to this many.
    pub min_free_blocks: u32,
    /// Consistency-first pacing: victim scanning per host page as a percentage of the rate that
    /// exactly breaks even on free blocks. Below 100 the free pool slowly drains...
    pub paced_percent: u32,
    /// ...until the drive-wide average of free blocks per die falls to `boost_below_free_blocks`;
    /// then every die collects at `boost_percent` until the average is back at
    /// `boost_until_free_blocks`. This hysteresis is the periodic heavier clean-up the S3700
    /// shows as a dip every ~150 s [000].
    pub boost_percent: u32,
    pub boost_below_free_blocks: u32,
    pub boost_until_free_blocks: u32,
    /// Background collection: while the host is idle, each die collects until it has this many
    /// free blocks (0: no background collection).
    pub background_free_blocks: u32,
    /// Share of each die's blocks, percent, the firmware keeps out of service from the start
    /// (bad-block replacement, redundancy): neither data nor GC ever uses them, so they are
    /// spare area GC cannot collect into. Rounded down to whole blocks per die; 0: none.
    #[serde(default)]
    pub reserved_percent: f64,
}

impl GcConfig {
    /// Blocks per die the firmware keeps out of service (`reserved_percent`).
    pub fn reserved_blocks(&self, blocks_per_die: u32) -> u32 {
        ((blocks_per_die as f64 * self.reserved_percent / 100.0).floor() as u32).min(blocks_per_die)
    }

    /// Blocks per die that hold data or are free for it: all but the reserved ones.
    pub fn blocks_in_service(&self, blocks_per_die: u32) -> u32 {
        blocks_per_die - self.reserved_blocks(blocks_per_die)
    }

    pub fn reserved_limit(&self) -> Limit {
        Limit::real("gc.reserved_percent", self.reserved_percent, 0.0, 50.0)
    }

    /// The thresholds, against the blocks in service the reserve leaves (checked first, by
    /// `DriveConfig::validate`). (The victim's name is checked where the policies are
    /// registered, `drive::ftl::victim`.)
    pub fn limits(&self, blocks_per_die: u32) -> Vec<Limit> {
        let blocks = self.blocks_in_service(blocks_per_die) as u64;
        let (min_free, start, boost_below) =
            (self.min_free_blocks as u64, self.start_free_blocks as u64, self.boost_below_free_blocks as u64);
        vec![
            Limit::whole("gc.victim_choices", self.victim_choices as u64, 1, 1024),
            Limit::whole("gc.min_free_blocks", min_free, 2, blocks / 4),
            Limit::whole("gc.start_free_blocks", start, min_free, blocks / 2),
            Limit::whole("gc.background_free_blocks", self.background_free_blocks as u64, 0, blocks / 2),
            Limit::whole("gc.paced_percent", self.paced_percent as u64, 10, 1000),
            Limit::whole("gc.boost_percent", self.boost_percent as u64, 100, 1000),
            Limit::whole("gc.boost_below_free_blocks", boost_below, min_free, start),
            Limit::whole("gc.boost_until_free_blocks", self.boost_until_free_blocks as u64, boost_below, start),
        ]
    }

    pub fn check(&self, blocks_per_die: u32) -> Result<(), ConfigError> {
        check_limits(&self.limits(blocks_per_die))
    }
}

/// Wear levelling: spreading erases over the blocks so none reaches its P/E limit early.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WearConfig {
    /// Dynamic: a die opening a block takes its least-worn free block (fewest erases) rather
    /// than the one freed last.
    pub dynamic: bool,
    /// Static: every `static_every_erases` erases on a die, if the die's erase-count spread
    /// (max - min over its blocks in service) exceeds `static_spread_threshold`, the die's
    /// closed block with the fewest erases (cold data) is relocated by GC, so it is reused.
    #[serde(rename = "static")]
    pub static_levelling: bool,
    pub static_every_erases: u32,
    pub static_spread_threshold: u32,
}

impl WearConfig {
    pub fn limits(&self) -> Vec<Limit> {
        vec![
            Limit::whole("wear.static_every_erases", self.static_every_erases as u64, 1, 1_000_000),
            Limit::whole("wear.static_spread_threshold", self.static_spread_threshold as u64, 1, 1_000_000),
        ]
    }
}
