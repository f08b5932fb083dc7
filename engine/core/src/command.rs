//! What crosses from host to drive: one command, the 4 KiB logical units it touches, and its
//! payload. The drive knows commands, never workloads.

use crate::units::UNIT_BYTES;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Read,
    Write,
    /// The host says it no longer needs these LBAs (ATA DATA SET MANAGEMENT / NVMe deallocate).
    Trim,
    /// Zoned drives: Zone Append names the zone (its first LBA); the drive writes at the zone's
    /// write pointer and says where (`Completion::Appended`).
    Append,
    /// Zoned drives' Zone Management Send, one zone (named by its first LBA) per command.
    ZoneReset,
    ZoneFinish,
    ZoneOpen,
    ZoneClose,
}

impl Op {
    /// Zone Management Send: a command about a zone, moving no data.
    #[inline]
    pub fn manages_zones(self) -> bool {
        matches!(self, Op::ZoneReset | Op::ZoneFinish | Op::ZoneOpen | Op::ZoneClose)
    }
}

/// How the drive ended a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Completion {
    Done,
    /// A write refused by a worn-out drive (it has gone read-only).
    ReadOnly,
    /// A Zone Append stored its data from this 4 KiB unit on.
    Appended {
        lpa: u32,
    },
    /// Refused with an NVMe status.
    Failed(Status),
}

impl Completion {
    /// The drive did what the command asked.
    #[inline]
    pub fn accepted(self) -> bool {
        matches!(self, Completion::Done | Completion::Appended { .. })
    }
}

/// The NVMe statuses a command can fail with here: generic ones and the zoned command set's
/// (codes as in QEMU's `include/block/nvme.h`, type and code together).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u16)]
pub enum Status {
    InvalidOpcode = 0x01,
    InvalidField = 0x02,
    ZoneBoundaryError = 0x1b8,
    ZoneIsFull = 0x1b9,
    ZoneInvalidWrite = 0x1bc,
    TooManyActiveZones = 0x1bd,
    TooManyOpenZones = 0x1be,
    InvalidZoneStateTransition = 0x1bf,
}

impl Status {
    pub fn code(self) -> u16 {
        self as u16
    }

    /// The status's name in the NVMe specification.
    pub fn name(self) -> &'static str {
        match self {
            Status::InvalidOpcode => "Invalid Command Opcode",
            Status::InvalidField => "Invalid Field in Command",
            Status::ZoneBoundaryError => "Zone Boundary Error",
            Status::ZoneIsFull => "Zone Is Full",
            Status::ZoneInvalidWrite => "Zone Invalid Write",
            Status::TooManyActiveZones => "Too Many Active Zones",
            Status::TooManyOpenZones => "Too Many Open Zones",
            Status::InvalidZoneStateTransition => "Invalid Zone State Transition",
        }
    }
}

/// One host command: the 4 KiB logical units it touches, its payload, and whether its first or
/// last unit is only partly covered (a write there must merge with the unit's old contents).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Request {
    pub op: Op,
    /// Where the command starts, bytes into the host's LBA space. A drive reads `lpa`; an
    /// array's space can pass 2^32 units (24 x 800 GB is 4.7 G), and its stripe splits
    /// commands at byte offsets, so the array reads this.
    pub offset_bytes: u64,
    /// First 4 KiB unit (the low 32 bits of `offset_bytes / 4096` in an array's space).
    pub lpa: u32,
    pub units: u32,
    pub bytes: u32,
    pub partial_head: bool,
    pub partial_tail: bool,
    /// The write's placement handle (0: untagged; a drive's `[placement]` says which it takes).
    /// In the struct's padding: a request is no larger for it.
    pub tag: u8,
}

impl Request {
    /// The command covering `bytes` from byte `offset` of the LBA space.
    pub fn at(op: Op, offset: u64, bytes: u32) -> Request {
        let end = offset + bytes as u64;
        let lpa = offset / UNIT_BYTES;
        Request {
            op,
            offset_bytes: offset,
            lpa: lpa as u32,
            units: (end.div_ceil(UNIT_BYTES) - lpa) as u32,
            bytes,
            partial_head: !offset.is_multiple_of(UNIT_BYTES),
            partial_tail: !end.is_multiple_of(UNIT_BYTES),
            tag: 0,
        }
    }

    /// True if the `i`-th unit of the command is only partly written.
    #[inline]
    pub fn partial(&self, i: u32) -> bool {
        (i == 0 && self.partial_head) || (i + 1 == self.units && self.partial_tail)
    }

    /// True if the command writes all of unit `lpa`.
    #[inline]
    pub fn covers(&self, lpa: u32) -> bool {
        lpa >= self.lpa && lpa < self.lpa + self.units && !self.partial(lpa - self.lpa)
    }

    /// The units a write must store when each map entry spans `entry_units` units: its own,
    /// widened to whole entries (below `limit`, the end of the LBA space).
    #[inline]
    pub fn entry_span(&self, entry_units: u32, limit: u32) -> (u32, u32) {
        let end = self.lpa + self.units;
        if entry_units == 1 {
            return (self.lpa, end);
        }
        (self.lpa / entry_units * entry_units, (end.div_ceil(entry_units) * entry_units).min(limit))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The host's ring of drawn requests and the drive's queues copy requests by value: the
    /// placement tag sits in the padding, so a request stays 24 bytes.
    #[test]
    fn a_request_is_no_larger_for_its_tag() {
        assert_eq!(std::mem::size_of::<Request>(), 24);
    }
}
