//! The host interface: the link commands and data cross, and the command slots the protocol
//! gives (one file per protocol: how many commands the drive holds at once: `sata.rs`, `sas.rs`,
//! `nvme.rs`).

mod nvme;
mod sas;
mod sata;

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::config::{HostInterface, Protocol};
use crate::timeline::Calendar;
use crate::units::ps_per_byte;

pub struct Interface {
    /// Host to drive: commands and write data (and, half duplex, read data too).
    link: Calendar,
    /// Full duplex: drive to host, read data.
    to_host: Option<Calendar>,
    /// Link time per byte of a write's data fetched by the drive, picoseconds (0: the link's).
    fetch_ps_per_byte: u64,
    /// Link time per byte of payload, picoseconds (the throttle's, while the drive throttles).
    ps_per_byte: u64,
    /// The link's own, unthrottled.
    link_ps_per_byte: u64,
    /// Fixed link time per command (command, status and frame headers), ns.
    overhead_ns: u64,
    /// When each of the drive's command slots frees; kept only when the host keeps more
    /// commands outstanding than the drive accepts (the rest wait in the host).
    slots: Option<BinaryHeap<Reverse<u64>>>,
}

/// Commands the drive holds at once when the host keeps `queue_depth` outstanding.
pub fn accepted_commands(host: &HostInterface, queue_depth: u32) -> u32 {
    match host.protocol {
        Protocol::Sata => sata::accepted_commands(host, queue_depth),
        Protocol::Nvme => nvme::accepted_commands(host, queue_depth),
        Protocol::Sas => sas::accepted_commands(host, queue_depth),
    }
}

impl Interface {
    pub fn new(host: &HostInterface, queue_depth: u32) -> Self {
        let accepted = accepted_commands(host, queue_depth);
        Interface {
            link: Calendar::default(),
            to_host: host.full_duplex.then(Calendar::default),
            fetch_ps_per_byte: ps_per_byte(host.write_fetch_mb_s),
            ps_per_byte: ps_per_byte(host.link_mb_s),
            link_ps_per_byte: ps_per_byte(host.link_mb_s),
            overhead_ns: host.link_overhead_ns,
            slots: (queue_depth > accepted).then(|| (0..accepted).map(|_| Reverse(0)).collect()),
        }
    }

    pub fn memory_bytes(&self) -> u64 {
        self.link.memory_bytes()
            + self.to_host.as_ref().map_or(0, |c| c.memory_bytes())
            + self.slots.as_ref().map_or(0, |s| s.capacity() as u64 * 8)
    }

    /// A command issued at `issue_ns` waits in the host for a free command slot; returns when
    /// the drive takes it.
    #[inline]
    pub fn admit(&mut self, issue_ns: u64) -> u64 {
        match self.slots.as_mut().and_then(|s| s.pop()) {
            Some(Reverse(free_ns)) => issue_ns.max(free_ns),
            None => issue_ns,
        }
    }

    /// The command admitted last completes at `done_ns`, freeing its slot then.
    #[inline]
    pub fn complete(&mut self, done_ns: u64) {
        if let Some(slots) = self.slots.as_mut() {
            slots.push(Reverse(done_ns));
        }
    }

    /// No command slot frees before `t_ns` (the drive is off, or the host idle, until then).
    pub fn stall_until(&mut self, t_ns: u64) {
        if let Some(slots) = self.slots.as_mut() {
            *slots = slots.iter().map(|&Reverse(t)| Reverse(t.max(t_ns))).collect();
        }
    }

    /// Payload crosses the link no faster than `cap_mb_s` from now on (a thermal throttle; None:
    /// at the link's own speed). Commands already booked keep their times.
    pub fn set_throttle_mb_s(&mut self, cap_mb_s: Option<u32>) {
        self.ps_per_byte =
            cap_mb_s.map_or(self.link_ps_per_byte, |mb_s| self.link_ps_per_byte.max(ps_per_byte(mb_s as u64)));
    }

    /// Link time for `bytes` of payload.
    #[inline]
    pub fn payload_ns(&self, bytes: u32) -> u64 {
        bytes as u64 * self.ps_per_byte / 1000
    }

    /// A command (with `payload_bytes` of data, for a write) crosses the link, starting at
    /// `ready_ns` or the first gap after; returns when it has arrived. A write's data fetched
    /// slower than the link arrives no sooner than its fetch allows; the link is free for
    /// other commands' data meanwhile.
    #[inline]
    pub fn send_command(&mut self, ready_ns: u64, payload_bytes: u32, now_ns: u64) -> u64 {
        let len = self.overhead_ns + self.payload_ns(payload_bytes);
        self.link.book(ready_ns, len, now_ns) + self.arrival_ns(payload_bytes)
    }

    /// From the start of a command's transfer to its arrival, ns: its frames and its data at
    /// the link's rate, or the rate one command's data is fetched at if that is slower.
    #[inline]
    pub fn arrival_ns(&self, payload_bytes: u32) -> u64 {
        let ps_per_byte = self.ps_per_byte.max(self.fetch_ps_per_byte);
        self.overhead_ns + payload_bytes as u64 * ps_per_byte / 1000
    }

    /// A read's data crosses the link back; returns when the host has it.
    #[inline]
    pub fn return_data(&mut self, ready_ns: u64, bytes: u32, now_ns: u64) -> u64 {
        let len = self.payload_ns(bytes);
        let link = self.to_host.as_mut().unwrap_or(&mut self.link);
        link.book(ready_ns, len, now_ns) + len
    }
}
