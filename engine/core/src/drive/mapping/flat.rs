//! Flat: the whole table in DRAM, one entry per 4 KB (the S3700: ~1 MB of DRAM per GB [000]).
//! Lookups and updates cost nothing beyond the controller's own time per command.

use super::MapWork;

pub struct FlatMap;

impl FlatMap {
    #[inline]
    pub fn access(&mut self, _lpa: u32, _update: bool) -> MapWork {
        MapWork::default()
    }
}
