//! Hosts that place data by lifetime (issue 21, docs/design/placement.md section 4): today the
//! log-structured store a host keeps on a zoned drive.

mod zone_store;

pub use zone_store::{StoreCounters, ZoneStore};
