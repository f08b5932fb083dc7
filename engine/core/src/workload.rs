//! What the host asks for: a stream of requests (read or write, where, how much), drawn from the
//! run's seeded generator.

use crate::config::ConfigError;
use crate::rng::Rng;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Read,
    Write,
}

/// One host command, in 4 KiB logical units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Request {
    pub op: Op,
    pub lpa: u32,
    pub units: u32,
}

/// The access pattern of a workload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pattern {
    /// Uniformly random aligned blocks over the tested span.
    Random,
    /// Consecutive blocks from the start of the span, wrapping around.
    Sequential,
}

/// A named workload: pattern, read share and default transfer size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WorkloadSpec {
    pub id: &'static str,
    pub pattern: Pattern,
    /// Percentage of requests that are reads (0..=100).
    pub read_percent: u32,
    /// Default transfer size, bytes.
    pub block_bytes: u32,
    /// Skew: this percentage of requests go to the first `hot_span_percent` of the span
    /// (0 for uniform).
    pub hot_percent: u32,
    pub hot_span_percent: u32,
    pub description: &'static str,
}

/// Every workload, by name. All start from a secure erase and a sequential fill of the span.
pub const WORKLOADS: [WorkloadSpec; 7] = [
    WorkloadSpec {
        id: "consistency",
        pattern: Pattern::Random,
        read_percent: 0,
        block_bytes: 4096,
        hot_percent: 0,
        hot_span_percent: 0,
        description: "the articles' IO-consistency test: 4 KB random writes over the whole span [000, 002]",
    },
    WorkloadSpec {
        id: "random-write",
        pattern: Pattern::Random,
        read_percent: 0,
        block_bytes: 4096,
        hot_percent: 0,
        hot_span_percent: 0,
        description: "random writes (set the size with block_bytes)",
    },
    WorkloadSpec {
        id: "random-read",
        pattern: Pattern::Random,
        read_percent: 100,
        block_bytes: 4096,
        hot_percent: 0,
        hot_span_percent: 0,
        description: "random reads of filled data [003]",
    },
    WorkloadSpec {
        id: "mixed-70-30",
        pattern: Pattern::Random,
        read_percent: 70,
        block_bytes: 4096,
        hot_percent: 0,
        hot_span_percent: 0,
        description: "70 % reads, 30 % writes, random [003]",
    },
    WorkloadSpec {
        id: "hot-cold",
        pattern: Pattern::Random,
        read_percent: 0,
        block_bytes: 4096,
        hot_percent: 90,
        hot_span_percent: 10,
        description: "random writes, 90 % of them to 10 % of the span (where GC victim policy matters)",
    },
    WorkloadSpec {
        id: "sequential-write",
        pattern: Pattern::Sequential,
        read_percent: 0,
        block_bytes: 131072,
        hot_percent: 0,
        hot_span_percent: 0,
        description: "128 KB sequential writes [000]",
    },
    WorkloadSpec {
        id: "sequential-read",
        pattern: Pattern::Sequential,
        read_percent: 100,
        block_bytes: 131072,
        hot_percent: 0,
        hot_span_percent: 0,
        description: "128 KB sequential reads [000]",
    },
];

impl WorkloadSpec {
    pub fn by_id(id: &str) -> Result<WorkloadSpec, ConfigError> {
        WORKLOADS.iter().find(|w| w.id == id).copied().ok_or_else(|| {
            let names: Vec<&str> = WORKLOADS.iter().map(|w| w.id).collect();
            ConfigError::new("workload", format!("unknown workload '{}' (allowed: {})", id, names.join(", ")))
        })
    }
}

/// Draws requests for one run.
#[derive(Debug, Clone)]
pub struct Generator {
    pattern: Pattern,
    read_percent: u64,
    units: u32,
    /// Aligned start positions available in the span, and in its hot part.
    slots: u64,
    hot_slots: u64,
    hot_percent: u64,
    cursor: u64,
}

impl Generator {
    pub fn new(spec: &WorkloadSpec, block_units: u32, span_units: u64) -> Self {
        let units = block_units.max(1);
        let slots = (span_units / units as u64).max(1);
        Generator {
            pattern: spec.pattern,
            read_percent: spec.read_percent as u64,
            units,
            slots,
            hot_slots: (slots * spec.hot_span_percent as u64 / 100).max(1),
            hot_percent: spec.hot_percent as u64,
            cursor: 0,
        }
    }

    #[inline]
    pub fn next(&mut self, rng: &mut Rng) -> Request {
        // Draw the op only for mixed workloads, so pure ones use one draw per request.
        let op = match self.read_percent {
            0 => Op::Write,
            100 => Op::Read,
            p => {
                if rng.below(100) < p {
                    Op::Read
                } else {
                    Op::Write
                }
            }
        };
        let slot = match self.pattern {
            Pattern::Random if self.hot_percent == 0 => rng.below(self.slots),
            Pattern::Random => {
                if rng.below(100) < self.hot_percent {
                    rng.below(self.hot_slots)
                } else {
                    self.hot_slots + rng.below(self.slots - self.hot_slots)
                }
            }
            Pattern::Sequential => {
                let s = self.cursor;
                self.cursor = (self.cursor + 1) % self.slots;
                s
            }
        };
        Request { op, lpa: (slot * self.units as u64) as u32, units: self.units }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_stay_in_the_span_and_follow_the_mix() {
        let mut rng = Rng::new(1);
        let spec = WorkloadSpec::by_id("mixed-70-30").unwrap();
        let mut g = Generator::new(&spec, 2, 1001);
        let mut reads = 0;
        for _ in 0..10_000 {
            let r = g.next(&mut rng);
            assert!(r.lpa % 2 == 0 && r.lpa + r.units <= 1001);
            reads += (r.op == Op::Read) as u32;
        }
        assert!((6_700..7_300).contains(&reads), "{}", reads);

        let spec = WorkloadSpec::by_id("sequential-write").unwrap();
        let mut g = Generator::new(&spec, 32, 100);
        let starts: Vec<u32> = (0..4).map(|_| g.next(&mut rng).lpa).collect();
        assert_eq!(starts, vec![0, 32, 64, 0]);
        assert!(WorkloadSpec::by_id("nope").unwrap_err().message.contains("random-read"));
    }
}
