//! A block trace as data: timed commands to replay (MSR Cambridge / SNIA CSV, blkparse,
//! DiskSim ASCII and fio iologs are read into this by `host/trace/`).

use crate::command::Op;

/// One traced command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TraceRecord {
    /// When the command was issued, ns from the trace's first command.
    pub time_ns: u64,
    pub op: Op,
    pub offset_bytes: u64,
    pub bytes: u32,
}

/// A trace and how to replay it.
#[derive(Debug, Clone, PartialEq)]
pub struct Trace {
    /// Where it came from (a file name), for messages and results.
    pub name: String,
    pub records: Vec<TraceRecord>,
    /// Open loop: each command issues at its time (times `time_scale`), whatever the drive does
    /// (at most the job's queue depth outstanding). Closed loop: at the job's queue depth, as
    /// fast as the drive answers, times ignored.
    pub open_loop: bool,
    /// Open loop: stretch (> 1) or compress (< 1) the trace's clock.
    pub time_scale: f64,
}
