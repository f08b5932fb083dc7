//! Hosts that place data by lifetime (issue 21, docs/design/placement.md section 4): a flash
//! cache and an LSM tree, and the log-structured store a host keeps on a zoned drive, whose app
//! is either of them or a synthetic job.

mod cache;
mod lsm;
pub(crate) mod zone_store;

pub use cache::CacheHost;
pub use lsm::LsmHost;
pub use zone_store::{StoreCounters, ZoneStore};

use crate::command::Request;
use crate::config::{AppConfig, AppKind};
use crate::rng::Rng;

/// Units one TRIM covers at most (1 GiB: a command's bytes fit a u32).
const TRIM_MAX_UNITS: u32 = 1 << 18;

/// What an app host asked of the drive, counted as it plans its commands.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AppCounters {
    /// Cache: bytes written to the small-object cache and the large-object log; LOC regions
    /// evicted.
    pub soc_write_bytes: u64,
    pub loc_write_bytes: u64,
    pub evictions: u64,
    /// LSM: bytes put (keys x value), written by flushes and by compactions, read by
    /// compactions.
    pub put_bytes: u64,
    pub flush_write_bytes: u64,
    pub compaction_write_bytes: u64,
    pub compaction_read_bytes: u64,
}

impl AppCounters {
    /// The LSM's own write amplification: bytes its flushes and compactions wrote per byte put
    /// (0 before any put).
    pub fn lsm_write_amplification(&self) -> f64 {
        if self.put_bytes == 0 {
            return 0.0;
        }
        (self.flush_write_bytes + self.compaction_write_bytes) as f64 / self.put_bytes as f64
    }
}

/// A host app (`RunConfig::app`), run as a job's source or as a zone store's app.
pub enum AppHost {
    Cache(CacheHost),
    Lsm(Box<LsmHost>),
}

impl AppHost {
    /// `app` over `span_units` 4 KiB units from 0, with commands of at most `io_units` and
    /// `tags` tags to use when tagged.
    pub fn new(app: &AppConfig, span_units: u64, io_units: u32, tags: u8) -> Self {
        match app.kind {
            AppKind::Cache => AppHost::Cache(CacheHost::new(app, span_units, io_units)),
            AppKind::Lsm => AppHost::Lsm(Box::new(LsmHost::new(app, span_units, io_units, tags))),
        }
    }

    pub fn next(&mut self, rng: &mut Rng) -> Request {
        match self {
            AppHost::Cache(c) => c.next(rng),
            AppHost::Lsm(l) => l.next(rng),
        }
    }

    pub fn counters(&self) -> AppCounters {
        match self {
            AppHost::Cache(c) => c.counters(),
            AppHost::Lsm(l) => l.counters(),
        }
    }
}

impl crate::host::WorkloadSource for AppHost {
    fn next(&mut self, rng: &mut Rng) -> Request {
        AppHost::next(self, rng)
    }
}
