//! Latencies as a log-linear histogram (as fio keeps them): exact below 128 ns, then 64 buckets
//! per power of two, so a percentile is within 1/128 of the true value whatever the range.

/// Values below this are counted exactly.
const LINEAR: u64 = 128;
/// Buckets per power of two above `LINEAR` (2^SUB_BITS).
const SUB_BITS: u32 = 6;
/// Powers of two covered above `LINEAR`: up to 2^48 ns (3.3 days); longer ones count in the top
/// bucket.
const GROUPS: usize = 48 - 7 + 1;
const BUCKETS: usize = LINEAR as usize + GROUPS * (1 << SUB_BITS);

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Histogram {
    /// Allocated at the first value (a job that never reads needs no read histogram).
    counts: Vec<u64>,
    total: u64,
}

fn index(v: u64) -> usize {
    if v < LINEAR {
        return v as usize;
    }
    let msb = 63 - v.leading_zeros(); // >= 7
    let group = (msb - 7) as usize;
    if group >= GROUPS {
        return BUCKETS - 1;
    }
    let sub = ((v >> (msb - SUB_BITS)) & ((1 << SUB_BITS) - 1)) as usize;
    LINEAR as usize + group * (1 << SUB_BITS) + sub
}

/// The value a bucket stands for: its middle.
fn value(i: usize) -> u64 {
    if i < LINEAR as usize {
        return i as u64;
    }
    let group = ((i - LINEAR as usize) >> SUB_BITS) as u32;
    let sub = ((i - LINEAR as usize) & ((1 << SUB_BITS) - 1)) as u64;
    let msb = group + 7;
    let width = 1u64 << (msb - SUB_BITS);
    (1u64 << msb) + sub * width + width / 2
}

impl Histogram {
    pub fn record(&mut self, v: u64) {
        if self.counts.is_empty() {
            self.counts = vec![0; BUCKETS];
        }
        self.counts[index(v)] += 1;
        self.total += 1;
    }

    pub fn merge(&mut self, other: &Histogram) {
        if other.counts.is_empty() {
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

    /// The value below which `p` percent of the values lie (fio's rule: the first bucket where
    /// the running count reaches p % of all).
    pub fn percentile(&self, p: f64) -> u64 {
        let target = p / 100.0 * self.total as f64;
        let mut sum = 0u64;
        for (i, &c) in self.counts.iter().enumerate() {
            sum += c;
            if c > 0 && sum as f64 >= target {
                return value(i);
            }
        }
        self.counts.iter().rposition(|&c| c > 0).map_or(0, value)
    }

    /// Share of values (percent) in each range `[bounds[i-1], bounds[i])` ns, and at or above
    /// the last bound.
    pub fn shares(&self, bounds: &[u64]) -> Vec<f64> {
        let mut out = vec![0u64; bounds.len() + 1];
        for (i, &c) in self.counts.iter().enumerate().filter(|(_, &c)| c > 0) {
            let v = value(i);
            out[bounds.iter().position(|&b| v < b).unwrap_or(bounds.len())] += c;
        }
        out.iter().map(|&c| if self.total == 0 { 0.0 } else { c as f64 * 100.0 / self.total as f64 }).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_are_within_one_128th() {
        let mut h = Histogram::default();
        for v in 1..=100_000u64 {
            h.record(v * 1000);
        }
        for p in [1.0, 50.0, 99.0, 99.99] {
            let exact = (p / 100.0 * 100_000.0) * 1000.0;
            let got = h.percentile(p) as f64;
            assert!((got / exact - 1.0).abs() < 1.0 / 64.0, "p{} {} vs {}", p, got, exact);
        }
        assert_eq!(index(127), 127);
        assert_eq!(value(index(5)), 5);
        assert!(value(index(u64::MAX)) > 1 << 47);
        let shares = h.shares(&[1_000_000, 10_000_000]);
        assert!((shares[0] - 1.0).abs() < 0.1 && (shares[2] - 90.0).abs() < 0.5, "{:?}", shares);
    }
}
