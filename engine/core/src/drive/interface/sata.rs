//! SATA with AHCI: one native command queue (NCQ) of up to 32 commands. A host that keeps more
//! outstanding holds the rest in its own queue until a slot frees.

use crate::config::HostInterface;

pub fn accepted_commands(host: &HostInterface, queue_depth: u32) -> u32 {
    queue_depth.min(host.max_queue_depth)
}
