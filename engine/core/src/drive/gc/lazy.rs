//! Lazy pacing (the P400e's wall [000]): no collection while a die has free blocks; when one
//! runs out, it stops the host and cleans in bulk until it is back at `start_free_blocks`.

use crate::config::GcConfig;

/// How many free blocks a die that ran out cleans up to before the host may go on.
pub fn foreground_target(cfg: &GcConfig) -> u32 {
    cfg.start_free_blocks
}
