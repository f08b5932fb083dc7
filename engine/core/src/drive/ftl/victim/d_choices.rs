//! d-choices: draw d closed blocks of the die at random (with replacement) and take the one with
//! the fewest valid slots. d = 1 is random GC; as d grows it approaches greedy. Van Houdt's
//! mean-field model (SIGMETRICS 2013) predicts its write amplification: `d_choices_wa_theory`.

use super::{PolicyContext, VictimPolicy};
use crate::drive::ftl::blocks::{BlockState, Blocks};
use crate::rng::Rng;

pub struct DChoices {
    d: u32,
    rng: Rng,
}

impl VictimPolicy for DChoices {
    const DESCRIPTION: &'static str =
        "the fewest valid pages among d blocks drawn at random (gc.victim_choices): d = 1 is random, large d approaches greedy";

    fn new(ctx: &PolicyContext) -> Self {
        DChoices { d: ctx.choices, rng: Rng::new(ctx.seed ^ 0x6463_686f_6963_6573) }
    }

    fn pick(&mut self, die: u32, blocks: &mut Blocks) -> Option<u32> {
        let first = die * blocks.blocks_per_die;
        let mut best: Option<(u16, u32)> = None;
        let (mut drawn, mut draws) = (0, 0u64);
        // Rejection sampling over the die's blocks: nearly all are closed at steady state.
        while drawn < self.d {
            draws += 1;
            if draws > 64 * blocks.blocks_per_die as u64 && best.is_none() {
                // (A die with no closed block, or almost none.)
                return (first..first + blocks.blocks_per_die).find(|&b| blocks.state[b as usize] == BlockState::Closed);
            }
            let b = first + self.rng.below(blocks.blocks_per_die as u64) as u32;
            if blocks.state[b as usize] != BlockState::Closed {
                continue;
            }
            drawn += 1;
            let v = blocks.valid[b as usize];
            if best.is_none_or(|(bv, _)| v < bv) {
                best = Some((v, b));
            }
        }
        best.map(|(_, b)| b)
    }
}

/// Van Houdt's mean-field write amplification of d-choices GC under uniform random writes, for
/// blocks of `b` pages (slots) and `user_over_raw` = user data / raw space in circulation.
///
/// With x_i the share of blocks holding i valid pages, F_i = sum of x_k for k >= i, and r the
/// collections per host write, the fixed point of the mean-field drift is
///     i x_i = rho b r (1 - F_i^d)   for i = 1..b,
/// solved from i = b down; r follows from the valid pages adding up, r sum_i (1 - F_i^d) = 1.
/// Each collection programs b pages for b - E[valid] host pages, so WA = b r. d = 1 gives
/// 1 / (1 - rho).
pub fn d_choices_wa_theory(user_over_raw: f64, b: u32, d: u32) -> f64 {
    let rho = user_over_raw;
    let pages = b as f64;
    // r sum (1 - F_i^d) - 1 for a trial WA (r = WA / b); it rises through 0 at the fixed point.
    let excess = |wa: f64| {
        let r = wa / pages;
        let c = rho * pages * r;
        let (mut tail, mut sum) = (0.0f64, 0.0f64);
        for i in (1..=b).rev() {
            // i x = c (1 - (tail + x)^d): the left side rises and the right falls in x.
            let (mut lo, mut hi) = (0.0f64, 1.0 - tail);
            for _ in 0..60 {
                let x = (lo + hi) / 2.0;
                if i as f64 * x < c * (1.0 - (tail + x).powi(d as i32)) {
                    lo = x;
                } else {
                    hi = x;
                }
            }
            tail += (lo + hi) / 2.0;
            sum += 1.0 - tail.powi(d as i32);
        }
        r * sum - 1.0
    };
    let (mut lo, mut hi) = (1.0f64, 1000.0f64);
    for _ in 0..60 {
        let wa = (lo + hi) / 2.0;
        if excess(wa) < 0.0 {
            lo = wa;
        } else {
            hi = wa;
        }
    }
    (lo + hi) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::drive::ftl::victim::greedy_wa_theory;

    #[test]
    fn mean_field_model_meets_its_known_limits() {
        for rho in [0.6, 0.7, 0.8] {
            // d = 1 is random GC: WA = 1 / (1 - rho).
            let random = d_choices_wa_theory(rho, 256, 1);
            assert!((random - 1.0 / (1.0 - rho)).abs() < 0.01 * random, "rho {}: {}", rho, random);
            // Large d approaches greedy, and more choices never cost more.
            let (d2, d10, d100) = (d_choices_wa_theory(rho, 256, 2), d_choices_wa_theory(rho, 256, 10), d_choices_wa_theory(rho, 256, 100));
            assert!(random > d2 && d2 > d10 && d10 > d100, "{} {} {} {}", random, d2, d10, d100);
            let greedy = greedy_wa_theory(rho);
            assert!((d100 - greedy).abs() < 0.05 * greedy, "rho {}: d=100 {} greedy {}", rho, d100, greedy);
        }
    }
}
