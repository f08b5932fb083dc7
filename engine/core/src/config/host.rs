//! The host interface section: protocol, link and queues.

use serde::{Deserialize, Serialize};

use super::limits::{check_limits, Limit};
use crate::units::ConfigError;

/// The command protocol between host and drive (each has one file in `drive/interface/`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Protocol {
    /// SATA with AHCI: one native command queue (NCQ) of at most 32 commands.
    Sata,
    /// NVMe: many submission/completion queue pairs, each up to 65,536 deep.
    Nvme,
    /// SAS: one port with a tagged command queue, as deep as the drive advertises (up to 256).
    Sas,
}

impl Protocol {
    pub const ALL: [Protocol; 3] = [Protocol::Sata, Protocol::Nvme, Protocol::Sas];
}

/// The host link and command protocol.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HostInterface {
    /// Human-readable name, e.g. "SATA 6Gb/s".
    pub name: String,
    pub protocol: Protocol,
    /// Submission/completion queue pairs the drive offers (AHCI: 1; NVMe: many, one per host
    /// core, so cores never contend for a queue lock).
    pub queues: u32,
    /// Commands each queue holds (NCQ: 32).
    pub max_queue_depth: u32,
    /// Payload rate of the link, MB/s (bytes per microsecond).
    pub link_mb_s: u64,
    /// Fixed link time per command (command, status and data frame headers), ns.
    pub link_overhead_ns: u64,
    /// The link carries each direction separately (PCIe, SAS): read data going to the host
    /// does not wait for commands and write data coming in. SATA is half duplex (false).
    pub full_duplex: bool,
    /// NVMe: the drive fetches a write's data from host memory with a limited number of PCIe
    /// reads in flight per command, so one command's data arrives at most this fast, MB/s;
    /// several commands in flight share the link's full rate. 0: at the link's rate.
    pub write_fetch_mb_s: u64,
    /// Host CPU cycles spent per IO by the storage stack (AHCI ~27,000, NVMe ~10,000) [003].
    pub host_cpu_cycles_per_io: u64,
}

/// Commands one NCQ queue holds (SATA 3.x).
pub const NCQ_DEPTH: u32 = 32;

/// The most tagged commands the model lets a SAS drive advertise (SAS SSDs of the articles' time
/// took 64-256).
pub const SAS_MAX_TAGS: u32 = 256;

impl HostInterface {
    /// The queues' limits are the protocol's.
    pub fn limits(&self) -> Vec<Limit> {
        let (queues, depth) = match self.protocol {
            Protocol::Sata => (1, NCQ_DEPTH as u64),
            Protocol::Nvme => (65535, 65536),
            Protocol::Sas => (1, SAS_MAX_TAGS as u64),
        };
        vec![
            Limit::whole("host.queues", self.queues as u64, 1, queues),
            Limit::whole("host.max_queue_depth", self.max_queue_depth as u64, 1, depth),
            Limit::whole("host.link_mb_s", self.link_mb_s, 1, 1_000_000),
            Limit::whole("host.link_overhead_ns", self.link_overhead_ns, 0, 1_000_000),
            Limit::whole("host.write_fetch_mb_s", self.write_fetch_mb_s, 0, 1_000_000),
            Limit::whole("host.host_cpu_cycles_per_io", self.host_cpu_cycles_per_io, 0, 10_000_000),
        ]
    }

    pub fn check(&self) -> Result<(), ConfigError> {
        check_limits(&self.limits())?;
        if self.full_duplex && self.protocol == Protocol::Sata {
            return Err(ConfigError::new("host.full_duplex", "must be false for SATA, whose link is half duplex"));
        }
        Ok(())
    }
}
