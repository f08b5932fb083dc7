//! SAS: one port with a tagged command queue (the SCSI task set): the drive holds as many
//! commands as it advertises (64-256 on SAS SSDs of the articles' time), and the host's initiator
//! keeps the rest until a tag frees. One queue, as SATA's, but deeper.

use crate::config::HostInterface;

pub fn accepted_commands(host: &HostInterface, queue_depth: u32) -> u32 {
    queue_depth.min(host.max_queue_depth)
}
