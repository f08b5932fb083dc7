//! Where random requests land: a position (in units of the job's alignment) drawn by the job's
//! distribution. Floating-point maths goes through `libm`, so native and wasm draw the same.

use crate::config::{Distribution, Zone};
use crate::rng::Rng;

/// SplitMix64's finaliser: scatters a rank over the range, so a skewed distribution's hot
/// blocks are spread out as fio spreads them.
#[inline]
fn scatter(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A uniform draw in [0, 1) from 53 random bits.
#[inline]
fn unit(rng: &mut Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

pub enum Positions {
    Uniform,
    /// Cumulative access percentages and the first position of each zone (and the end).
    Zoned {
        access_below: Vec<u64>,
        starts: Vec<u64>,
    },
    /// Gray et al.'s Zipf generator (as YCSB and fio use): zeta(n), eta and alpha precomputed.
    Zipf {
        theta: f64,
        zetan: f64,
        eta: f64,
        alpha: f64,
    },
    Pareto {
        power: f64,
    },
    /// Every position once per pass, in a random order (fio's random map).
    Map(Permutation),
}

impl Positions {
    /// Draws over `slots` positions.
    pub fn new(distribution: &Distribution, slots: u64, random_map: bool, seed: u64) -> Self {
        match distribution {
            Distribution::Uniform if random_map => Positions::Map(Permutation::new(slots, seed)),
            Distribution::Uniform => Positions::Uniform,
            Distribution::Zoned(zones) => Self::zoned(zones, slots),
            &Distribution::Zipf(theta) => {
                let n = slots.max(2) as f64;
                let zetan = zeta(slots.max(2), theta);
                let zeta2 = 1.0 + libm::pow(0.5, theta);
                let eta = (1.0 - libm::pow(2.0 / n, 1.0 - theta)) / (1.0 - zeta2 / zetan);
                Positions::Zipf { theta, zetan, eta, alpha: 1.0 / (1.0 - theta) }
            }
            &Distribution::Pareto(h) => Positions::Pareto { power: libm::log(h) / libm::log(1.0 - h) },
        }
    }

    fn zoned(zones: &[Zone], slots: u64) -> Self {
        let (mut access_below, mut starts) = (Vec::new(), vec![0u64]);
        let (mut access, mut size) = (0u64, 0u64);
        for z in zones {
            access += z.access_percent as u64;
            size += z.size_percent as u64;
            access_below.push(access);
            // Each zone keeps at least one position.
            let prev = *starts.last().unwrap_or(&0);
            starts.push((slots * size / 100).max(prev + 1).min(slots));
        }
        *starts.last_mut().unwrap_or(&mut 0) = slots;
        Positions::Zoned { access_below, starts }
    }

    /// The zone of a zoned distribution position `slot` lies in (0 for other distributions).
    pub fn zone_of(&self, slot: u64) -> usize {
        match self {
            Positions::Zoned { starts, .. } => starts.partition_point(|&s| s <= slot).clamp(1, starts.len() - 1) - 1,
            _ => 0,
        }
    }

    #[inline(always)]
    pub fn draw(&mut self, rng: &mut Rng, slots: u64) -> u64 {
        match self {
            Positions::Uniform => rng.below(slots),
            Positions::Zoned { access_below, starts } => {
                let r = rng.below(100);
                let zone = access_below.iter().position(|&a| r < a).unwrap_or(access_below.len() - 1);
                let (from, to) = (starts[zone], starts[zone + 1]);
                from + rng.below(to.saturating_sub(from).max(1))
            }
            Positions::Zipf { theta, zetan, eta, alpha } => {
                let u = unit(rng);
                let uz = u * *zetan;
                let rank = if uz < 1.0 {
                    0
                } else if uz < 1.0 + libm::pow(0.5, *theta) {
                    1
                } else {
                    (slots as f64 * libm::pow(*eta * u - *eta + 1.0, *alpha)) as u64
                };
                scatter(rank) % slots
            }
            Positions::Pareto { power } => {
                let rank = ((slots - 1) as f64 * libm::pow(unit(rng), *power)) as u64;
                scatter(rank) % slots
            }
            Positions::Map(p) => p.next(rng),
        }
    }
}

/// zeta(n, theta) = sum of 1 / i^theta for i = 1..n: exact for the first 100,000 terms, then
/// the Euler-Maclaurin estimate of the rest (well under 1e-9 relative error).
fn zeta(n: u64, theta: f64) -> f64 {
    let exact = n.min(100_000);
    let mut sum: f64 = (1..=exact).map(|i| libm::pow(i as f64, -theta)).sum();
    if n > exact {
        let (a, b) = (exact as f64, n as f64);
        let f = |x: f64| libm::pow(x, -theta);
        let integral = (libm::pow(b, 1.0 - theta) - libm::pow(a, 1.0 - theta)) / (1.0 - theta);
        sum +=
            integral + (f(b) - f(a)) / 2.0 - theta * (libm::pow(b, -theta - 1.0) - libm::pow(a, -theta - 1.0)) / 12.0;
    }
    sum
}

/// A random order of 0..n, produced lazily: a bijection of the next power of two (odd multiply
/// and xor-shift rounds under a per-pass key) walked in order, skipping values >= n.
pub struct Permutation {
    n: u64,
    bits: u32,
    mask: u64,
    key: u64,
    counter: u64,
}

impl Permutation {
    fn new(n: u64, seed: u64) -> Self {
        let bits = 64 - n.max(2).saturating_sub(1).leading_zeros();
        Permutation { n: n.max(1), bits, mask: (1u64 << bits) - 1, key: scatter(seed), counter: 0 }
    }

    #[inline(always)]
    fn mix(&self, mut x: u64) -> u64 {
        let half = self.bits.div_ceil(2).max(1);
        for round in 0..3u64 {
            x = (x ^ (self.key.rotate_left(round as u32 * 21) & self.mask)) & self.mask;
            x = x.wrapping_mul(0x9E37_79B9_7F4A_7C15 | 1) & self.mask;
            x ^= x >> half;
        }
        x
    }

    #[inline(always)]
    fn next(&mut self, rng: &mut Rng) -> u64 {
        loop {
            if self.counter > self.mask {
                // A pass is complete: the next visits every position again, in a new order.
                self.counter = 0;
                self.key = rng.next_u64();
            }
            let x = self.mix(self.counter);
            self.counter += 1;
            if x < self.n {
                return x;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_random_map_visits_every_position_once_per_pass() {
        let mut rng = Rng::new(3);
        for n in [1u64, 2, 7, 1000, 4097] {
            let mut p = Permutation::new(n, 9);
            let mut seen = vec![0u32; n as usize];
            for _ in 0..n {
                seen[p.next(&mut rng) as usize] += 1;
            }
            assert!(seen.iter().all(|&c| c == 1), "n {}", n);
        }
    }

    #[test]
    fn skewed_distributions_put_most_accesses_on_few_positions() {
        let mut rng = Rng::new(5);
        let slots = 100_000u64;
        let share_of_top_fifth = |d: Distribution, rng: &mut Rng| {
            let mut p = Positions::new(&d, slots, false, 1);
            let mut counts = vec![0u32; slots as usize];
            for _ in 0..200_000 {
                counts[p.draw(rng, slots) as usize] += 1;
            }
            counts.sort_unstable_by(|a, b| b.cmp(a));
            counts[..slots as usize / 5].iter().map(|&c| c as f64).sum::<f64>() / 200_000.0
        };
        let uniform = share_of_top_fifth(Distribution::Uniform, &mut rng);
        let zipf = share_of_top_fifth(Distribution::Zipf(1.2), &mut rng);
        let pareto = share_of_top_fifth(Distribution::Pareto(0.2), &mut rng);
        // Uniform: the busiest fifth of positions takes ~41 % (Poisson noise over 2 draws each);
        // pareto h = 0.2 puts 80 % on a fifth of the ranks, zipf 1.2 nearly everything.
        assert!(uniform < 0.5, "uniform {}", uniform);
        assert!(zipf > 0.95 && pareto > 0.8, "zipf {} pareto {}", zipf, pareto);
        // Zones: 90 % of accesses to the first 10 %.
        let mut p = Positions::new(&Distribution::hot_cold(90, 10), slots, false, 1);
        let hot = (0..100_000).filter(|_| p.draw(&mut rng, slots) < slots / 10).count();
        assert!((89_000..91_000).contains(&hot), "{}", hot);
    }

    #[test]
    fn zeta_matches_the_sum() {
        let exact: f64 = (1..=300_000u64).map(|i| (i as f64).powf(-0.9)).sum();
        assert!((zeta(300_000, 0.9) - exact).abs() / exact < 1e-9);
    }
}
