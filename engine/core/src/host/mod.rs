//! What issues commands: a closed-loop host keeping `queue_depth` commands outstanding, drawing
//! them from a workload source, and optionally resting between bursts. Workload sources sit
//! behind one trait, one file each (today the synthetic patterns).

mod synthetic;

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::command::{Op, Request};
use crate::config::RunConfig;
use crate::rng::Rng;
use crate::units::NS_PER_S;

pub use synthetic::Generator;

/// Where a host's commands come from.
pub trait WorkloadSource {
    /// The next command, drawing from `rng` if it needs chance.
    fn next(&mut self, rng: &mut Rng) -> Request;
}

/// The run's source (an enum, so the hot path dispatches statically).
pub enum Source {
    Synthetic(Generator),
}

impl Source {
    #[inline]
    fn next(&mut self, rng: &mut Rng) -> Request {
        match self {
            Source::Synthetic(g) => g.next(rng),
        }
    }
}

/// How many requests are drawn ahead of use, so their map entries and block metadata can be
/// loaded into cache meanwhile; the sequence is unchanged.
const LOOKAHEAD: usize = 32;

pub struct Host {
    source: Source,
    rng: Rng,
    /// Requests drawn ahead of use, a ring read at `upcoming_pos`.
    upcoming: [Request; LOOKAHEAD],
    upcoming_pos: usize,
    /// When each of the host's queue slots can issue its next command.
    slots: BinaryHeap<Reverse<u64>>,
    /// Bursts of work and rests between them: (burst, burst + rest), ns.
    burst_period_ns: Option<(u64, u64)>,
}

impl Host {
    pub fn new(cfg: &RunConfig) -> Self {
        let generator = Generator::new(&cfg.workload, cfg.block_bytes, cfg.align_bytes, cfg.workload_units());
        let mut source = Source::Synthetic(generator);
        let mut rng = Rng::new(cfg.seed);
        let upcoming = std::array::from_fn(|_| source.next(&mut rng));
        let burst_ns = cfg.burst_s as u64 * NS_PER_S;
        Host {
            source,
            rng,
            upcoming,
            upcoming_pos: 0,
            slots: (0..cfg.queue_depth).map(|_| Reverse(0)).collect(),
            burst_period_ns: (cfg.idle_s > 0).then_some((burst_ns, burst_ns + cfg.idle_s as u64 * NS_PER_S)),
        }
    }

    /// When the host issues its next command: as soon as one of its queue slots is free.
    #[inline]
    pub fn next_issue_ns(&self) -> u64 {
        self.slots.peek().expect("queue depth >= 1").0
    }

    /// The next command, and two load hints for the drive: the logical unit of the command
    /// just drawn for later, and of the one halfway along.
    #[inline]
    pub fn next_request(&mut self) -> (Request, u32, u32) {
        let i = self.upcoming_pos;
        let req = self.upcoming[i];
        let drawn = self.source.next(&mut self.rng);
        self.upcoming[i] = drawn;
        self.upcoming_pos = (i + 1) % LOOKAHEAD;
        (req, drawn.lpa, self.upcoming[(i + LOOKAHEAD / 2) % LOOKAHEAD].lpa)
    }

    /// The command issued last completes at `done_ns`: its slot issues again then.
    #[inline]
    pub fn completed(&mut self, done_ns: u64) {
        *self.slots.peek_mut().expect("queue depth >= 1") = Reverse(done_ns);
    }

    /// If `issue_ns` falls in one of the host's rests, the rest: (from, until).
    #[inline]
    pub fn rest_at(&self, issue_ns: u64) -> Option<(u64, u64)> {
        let (burst_ns, period_ns) = self.burst_period_ns?;
        let into_period = issue_ns % period_ns;
        (into_period >= burst_ns).then(|| (issue_ns - into_period + burst_ns, issue_ns - into_period + period_ns))
    }

    /// Nothing is issued before `t_ns` (the host rests, or the drive is off).
    pub fn wait_until(&mut self, t_ns: u64) {
        self.slots = self.slots.iter().map(|&Reverse(t)| Reverse(t.max(t_ns))).collect();
    }
}

/// Host payload a command moves (a TRIM moves none).
#[inline]
pub fn payload_bytes(req: &Request) -> u64 {
    if req.op == Op::Trim {
        0
    } else {
        req.bytes as u64
    }
}
