//! The drive's two truths for power-loss tests: recent host writes with when the host was told
//! (`ack_ns`) and when the data became durable on NAND (`durable_ns`, when its program
//! completed). Kept only while power cuts are scheduled.

use std::collections::VecDeque;

/// Not yet known: the unit is still in the buffer, its program not booked.
pub const PENDING: u64 = u64::MAX;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WriteRecord {
    pub lpa: u32,
    /// Order of the write among all host writes, so "last version" is well defined.
    pub seq: u64,
    pub ack_ns: u64,
    pub durable_ns: u64,
}

/// Recent host writes whose durability a cut could still change.
#[derive(Debug, Clone, Default)]
pub struct DurabilityLog {
    records: VecDeque<WriteRecord>,
    /// `seq` of `records[0]`.
    first_seq: u64,
    next_seq: u64,
}

impl DurabilityLog {
    /// Records a host write entering the drive; returns its sequence number.
    pub fn written(&mut self, lpa: u32) -> u64 {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.records.push_back(WriteRecord { lpa, seq, ack_ns: PENDING, durable_ns: PENDING });
        seq
    }

    /// The host was told write `seq` is done at `ack_ns`.
    pub fn acknowledged(&mut self, seq: u64, ack_ns: u64) {
        if let Some(r) = self.get_mut(seq) {
            r.ack_ns = ack_ns;
        }
    }

    fn get_mut(&mut self, seq: u64) -> Option<&mut WriteRecord> {
        let i = seq.checked_sub(self.first_seq)? as usize;
        self.records.get_mut(i)
    }

    /// The write `seq` is durable once its program completes at `done_ns`.
    pub fn programmed(&mut self, seq: u64, done_ns: u64) {
        if let Some(r) = self.get_mut(seq) {
            r.durable_ns = done_ns;
        }
    }

    /// Drops records that were acknowledged and durable before `now_ns`: no cut from now on can
    /// lose them.
    pub fn forget_durable_before(&mut self, now_ns: u64) {
        while matches!(self.records.front(), Some(r) if r.durable_ns <= now_ns && r.ack_ns <= now_ns) {
            self.records.pop_front();
            self.first_seq += 1;
        }
    }

    pub fn records(&self) -> impl Iterator<Item = &WriteRecord> {
        self.records.iter()
    }

    pub fn clear(&mut self) {
        self.first_seq = self.next_seq;
        self.records.clear();
    }
}
