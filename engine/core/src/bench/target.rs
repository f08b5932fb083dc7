//! What the bench drives: one drive, or a RAID 0 array of them. One enum, so the single drive's
//! hot path stays a direct call behind one well-predicted branch.

use super::array::Array;
use crate::command::{Completion, Request};
use crate::config::{Precondition, RunConfig};
use crate::drive::power::{CapacitorState, PowerCutReport};
use crate::drive::{Counters, Drive, Status};
use crate::units::ConfigError;

// The drive is the hot path and stays inline; the array is boxed.
#[allow(clippy::large_enum_variant)]
pub enum Target {
    Drive(Drive),
    Array(Box<Array>),
}

/// Brings a secure-erased drive to the state the test starts from (`seed`: its own stream).
pub fn precondition(drive: &mut Drive, cfg: &RunConfig, seed: u64) {
    match cfg.precondition {
        Precondition::None => {}
        Precondition::Fill => drive.fill_sequential(cfg.span_units(), cfg.workload_units()),
        Precondition::Random { passes } => {
            drive.fill_sequential(cfg.span_units(), cfg.workload_units());
            let units = cfg.workload_units();
            let writes = (units as f64 * passes).round() as u64;
            drive.overwrite_random(units, writes, seed ^ 0x5EED_F111_0000_0001);
        }
    }
}

impl Target {
    /// The drive, or the array of them, for `cfg`, preconditioned.
    pub fn new(cfg: &RunConfig) -> Result<Self, ConfigError> {
        match &cfg.raid {
            None => {
                let mut drive = Drive::new(cfg)?;
                precondition(&mut drive, cfg, cfg.seed);
                Ok(Target::Drive(drive))
            }
            Some(raid) => {
                let mut array = Array::new(cfg, raid)?;
                for (i, drive) in array.members_mut().iter_mut().enumerate() {
                    precondition(drive, cfg, super::array::member_seed(cfg.seed, i as u32));
                }
                Ok(Target::Array(Box::new(array)))
            }
        }
    }

    /// The drive, or the array's first member.
    pub fn first(&self) -> &Drive {
        match self {
            Target::Drive(d) => d,
            Target::Array(a) => &a.members()[0],
        }
    }

    pub fn array(&self) -> Option<&Array> {
        match self {
            Target::Drive(_) => None,
            Target::Array(a) => Some(a),
        }
    }

    fn each(&mut self, mut f: impl FnMut(&mut Drive)) {
        match self {
            Target::Drive(d) => f(d),
            Target::Array(a) => a.members_mut().iter_mut().for_each(f),
        }
    }

    #[inline]
    pub fn submit(&mut self, req: Request, issue_ns: u64) -> (u64, Completion) {
        match self {
            Target::Drive(d) => d.submit(req, issue_ns),
            Target::Array(a) => a.submit(req, issue_ns),
        }
    }

    /// Load hints for a group of commands coming (a drive's addresses: an array's would need
    /// the stripe; it skips them): every map entry first, then every old block.
    #[inline]
    pub fn prefetch_group(&self, group: &[(u32, u32)]) {
        if let Target::Drive(d) = self {
            d.prefetch_group(group);
        }
    }

    pub fn counters(&self) -> Counters {
        match self {
            Target::Drive(d) => d.counters(),
            Target::Array(a) => a.counters(),
        }
    }

    pub fn status(&self, t_ns: u64) -> Status {
        match self {
            Target::Drive(d) => d.status(t_ns),
            Target::Array(a) => a.status(t_ns),
        }
    }

    pub fn second_ended(&mut self) {
        self.each(Drive::second_ended);
    }

    pub fn second_began(&mut self, second: u32) {
        self.each(|d| d.second_began(second));
    }

    pub fn idle(&mut self, from_ns: u64, until_ns: u64) {
        self.each(|d| d.idle(from_ns, until_ns));
    }

    /// Every drive programs what its write buffer holds, from `at_ns`.
    pub fn flush_buffer(&mut self, at_ns: u64) {
        self.each(|d| d.flush_buffer(at_ns));
    }

    pub fn set_capacitors_healthy(&mut self, healthy: bool) {
        self.each(|d| d.set_capacitors_healthy(healthy));
    }

    /// Every member keeps its log of writes at risk from `now_ns` on (see
    /// `Drive::watch_durability`): None if they kept it already, else when the programs booked
    /// before now complete on every member.
    pub fn watch_durability(&mut self, now_ns: u64) -> Option<u64> {
        let mut settled = None;
        self.each(|d| settled = settled.max(d.watch_durability(now_ns)));
        settled
    }

    /// The capacitors of the drive, or of the first member that is not healthy.
    pub fn capacitors(&self) -> CapacitorState {
        self.status(0).capacitors
    }

    /// Power fails at `at_ns`: the drive, or every member of the array at once.
    pub fn power_cut(&mut self, at_ns: u64) -> (PowerCutReport, u64) {
        match self {
            Target::Drive(d) => d.power_cut(at_ns),
            Target::Array(a) => a.power_cut(at_ns),
        }
    }

    pub fn memory_bytes(&self) -> u64 {
        match self {
            Target::Drive(d) => d.memory_bytes(),
            Target::Array(a) => a.memory_bytes(),
        }
    }
}
