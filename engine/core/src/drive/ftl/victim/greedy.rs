//! Greedy: the closed block with the fewest valid slots, the least copying now. O(1) through the
//! valid-count buckets the block manager keeps.

use super::{PolicyContext, VictimPolicy};
use crate::drive::ftl::blocks::Blocks;

pub struct Greedy;

impl VictimPolicy for Greedy {
    const DESCRIPTION: &'static str = "the block with the fewest valid pages: least work now";

    fn new(_ctx: &PolicyContext) -> Self {
        Greedy
    }

    #[inline]
    fn pick(&mut self, die: u32, blocks: &mut Blocks) -> Option<u32> {
        blocks.buckets.fewest(die)
    }
}

/// Write amplification of uniform random writes under greedy GC in the large-system limit, at
/// `user_over_raw` (user capacity / raw NAND): the victim's valid fraction u solves
/// (u - 1) / ln(u) = user / raw, and WA = 1 / (1 - u). 1.90 for the S3700 200GB.
pub fn greedy_wa_theory(user_over_raw: f64) -> f64 {
    if !(user_over_raw > 0.0 && user_over_raw < 1.0) {
        return if user_over_raw <= 0.0 { 1.0 } else { f64::INFINITY };
    }
    let (mut lo, mut hi): (f64, f64) = (1e-9, 1.0 - 1e-9);
    for _ in 0..200 {
        let u = (lo + hi) / 2.0;
        if (u - 1.0) / u.ln() < user_over_raw {
            lo = u;
        } else {
            hi = u;
        }
    }
    1.0 / (1.0 - (lo + hi) / 2.0)
}
