//! Latencies in a log-linear histogram: exact below 32 ns, then 32 buckets per power of two
//! (within 3 %), up to 2^50 ns. Cheap to add to (a shift and an increment), so every completion
//! goes in, and percentiles up to 99.99 % come out of each second.

const SUB_BITS: u32 = 5;
const SUB: u64 = 1 << SUB_BITS;
/// Buckets for values up to 2^50 ns (13 days).
const BUCKETS: usize = ((50 - SUB_BITS as usize) << SUB_BITS) + SUB as usize;

#[derive(Debug, Clone, Default)]
pub struct Histogram {
    /// Empty until the first value (most future seconds' bins never get one).
    counts: Vec<u32>,
    total: u64,
}

#[inline]
fn index(v: u64) -> usize {
    let v = v.min((1u64 << 50) - 1);
    if v < SUB {
        return v as usize;
    }
    let msb = 63 - v.leading_zeros();
    let shift = msb - SUB_BITS;
    (((shift + 1) as usize) << SUB_BITS) + ((v >> shift) - SUB) as usize
}

/// The smallest value in bucket `i`.
fn lower(i: usize) -> u64 {
    if (i as u64) < SUB {
        return i as u64;
    }
    let shift = (i >> SUB_BITS) as u32 - 1;
    (SUB + (i as u64 & (SUB - 1))) << shift
}

impl Histogram {
    #[inline]
    pub fn add(&mut self, v: u64) {
        if self.counts.is_empty() {
            self.counts = vec![0; BUCKETS];
        }
        self.counts[index(v)] += 1;
        self.total += 1;
    }

    pub fn count(&self) -> u64 {
        self.total
    }

    /// The value below which `percent` of the values lie (the middle of its bucket); 0 if empty.
    pub fn percentile(&self, percent: f64) -> u64 {
        if self.total == 0 {
            return 0;
        }
        let target = ((percent / 100.0 * self.total as f64).ceil() as u64).clamp(1, self.total);
        let mut seen = 0u64;
        for (i, &c) in self.counts.iter().enumerate() {
            seen += c as u64;
            if seen >= target {
                let (lo, hi) = (lower(i), lower(i + 1));
                return lo + (hi - lo) / 2;
            }
        }
        lower(BUCKETS - 1)
    }

    /// Each non-empty bucket as (its lowest value, the next bucket's lowest value, count).
    pub fn buckets(&self) -> impl Iterator<Item = (u64, u64, u64)> + '_ {
        self.counts.iter().enumerate().filter(|(_, &c)| c > 0).map(|(i, &c)| (lower(i), lower(i + 1), c as u64))
    }

    /// Adds every value of `other`.
    pub fn merge(&mut self, other: &Histogram) {
        if other.total == 0 {
            return;
        }
        if self.counts.is_empty() {
            self.counts = vec![0; BUCKETS];
        }
        for (a, b) in self.counts.iter_mut().zip(&other.counts) {
            *a += b;
        }
        self.total += other.total;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_tile_the_line_and_percentiles_are_within_three_percent() {
        for i in 0..BUCKETS - 1 {
            assert!(lower(i) < lower(i + 1));
            assert_eq!(index(lower(i)), i);
            assert_eq!(index(lower(i + 1) - 1), i);
        }
        let mut h = Histogram::default();
        for v in 1..=100_000u64 {
            h.add(v * 1000);
        }
        for (p, want) in [(50.0, 50_000_000.0), (99.0, 99_000_000.0), (99.99, 99_990_000.0)] {
            let got = h.percentile(p) as f64;
            assert!((got / want - 1.0).abs() < 0.03, "p{} {} vs {}", p, got, want);
        }
        assert_eq!(Histogram::default().percentile(50.0), 0);
    }
}
