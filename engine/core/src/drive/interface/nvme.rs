//! NVMe: many submission/completion queue pairs (one per host core, so cores never contend for
//! a queue lock), each up to 65,536 deep. The host spreads its commands evenly over as many
//! queues as it may use; each holds at most `host.max_queue_depth`.

use crate::config::HostInterface;

pub fn accepted_commands(host: &HostInterface, queue_depth: u32) -> u32 {
    let queues = queue_depth.min(host.queues).max(1);
    let (each, extra) = (queue_depth / queues, queue_depth % queues);
    (0..queues).map(|q| (each + (q < extra) as u32).min(host.max_queue_depth)).sum()
}
