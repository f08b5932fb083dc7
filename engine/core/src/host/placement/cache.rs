//! A flash cache in CacheLib's style (docs/design/placement.md section 4.4; cachelib.org): a
//! small-object cache (SOC) of 4 KiB buckets, each "always read entirely and written entirely",
//! rewritten in place at uniformly random buckets ("BigHash generates a random write pattern"),
//! and a large-object cache (LOC) of regions written sequentially in FIFO order ("BlockCache
//! generates a sequential write pattern"): when every region holds data, the oldest is evicted
//! (TRIMmed: through a zone store its units die together, so its zones are reset uncopied) and
//! rewritten. Both lie in the app's span less its host over-provisioning, which the cache TRIMs
//! first so it holds nothing.
//!
//! The SOC takes `soc_writes` of the bytes written (**model**: the FDP paper's per-trace shares
//! were not found): each command goes where the written bytes fall short of that share, so the
//! split needs no draw. The SOC is written once in order before the mix starts (the cache
//! warming up), so it holds data from the start.

use super::{AppCounters, TRIM_MAX_UNITS};
use crate::command::{Op, Request};
use crate::config::AppConfig;
use crate::rng::Rng;
use crate::units::UNIT_BYTES;

/// SOC handle 1, LOC handle 2 (tagged).
const SOC_TAG: u8 = 1;
const LOC_TAG: u8 = 2;

pub struct CacheHost {
    tagged: bool,
    soc_writes: f64,
    /// SOC buckets (4 KiB units from 0), LOC regions (from `soc_units`) of `region_units`.
    soc_units: u32,
    region_units: u32,
    regions: u32,
    /// Units used (SOC and LOC); from here to `span_units` the host's over-provisioning.
    used_units: u32,
    span_units: u32,
    /// Units of the LOC written per command.
    chunk: u32,
    /// Where the next command of the start goes: the TRIM of the unused span, then the SOC in
    /// order (`u32::MAX` once done).
    start_at: u32,
    /// The LOC region being written and how far; whether every region has been written once.
    region: u32,
    region_at: u32,
    wrapped: bool,
    counters: AppCounters,
}

impl CacheHost {
    /// The cache over `span_units` (4 KiB units from 0), writing at most `io_units` per command.
    pub fn new(app: &AppConfig, span_units: u64, io_units: u32) -> Self {
        let used = (span_units as f64 * (1.0 - app.host_op)).floor() as u32;
        let soc_units = ((used as f64 * app.soc_space).round() as u32).max(1);
        let region_units = (app.region_bytes / UNIT_BYTES) as u32;
        let regions = (used - soc_units) / region_units;
        CacheHost {
            tagged: app.tagged,
            soc_writes: app.soc_writes,
            soc_units,
            region_units,
            regions,
            used_units: soc_units + regions * region_units,
            span_units: span_units as u32,
            chunk: io_units.min(region_units),
            start_at: 0,
            region: 0,
            region_at: 0,
            wrapped: false,
            counters: AppCounters::default(),
        }
    }

    pub fn counters(&self) -> AppCounters {
        self.counters
    }

    fn write(&mut self, lpa: u32, units: u32, tag: u8) -> Request {
        let mut req = Request::at(Op::Write, lpa as u64 * UNIT_BYTES, units * UNIT_BYTES as u32);
        req.tag = if self.tagged { tag } else { 0 };
        req
    }

    fn trim(lpa: u32, units: u32) -> Request {
        Request::at(Op::Trim, lpa as u64 * UNIT_BYTES, units * UNIT_BYTES as u32)
    }

    /// The start: the unused span TRIMmed (in commands of at most `TRIM_MAX_UNITS`), then the
    /// SOC written in order. None once done.
    fn start(&mut self) -> Option<Request> {
        if self.start_at == u32::MAX {
            return None;
        }
        let unused = self.span_units - self.used_units;
        if self.start_at < unused {
            let units = (unused - self.start_at).min(TRIM_MAX_UNITS);
            self.start_at += units;
            return Some(Self::trim(self.span_units - unused + self.start_at - units, units));
        }
        let at = self.start_at - unused;
        if at >= self.soc_units {
            self.start_at = u32::MAX;
            return None;
        }
        let units = (self.soc_units - at).min(self.chunk);
        self.start_at += units;
        self.counters.soc_write_bytes += units as u64 * UNIT_BYTES;
        Some(self.write(at, units, SOC_TAG))
    }

    /// The LOC's next chunk: at the end of a region, the next one (FIFO), its old contents
    /// TRIMmed first once every region holds data.
    fn loc(&mut self) -> Request {
        if self.region_at == self.region_units {
            self.region = (self.region + 1) % self.regions;
            self.region_at = 0;
            self.wrapped |= self.region == 0;
            if self.wrapped {
                self.counters.evictions += 1;
                return Self::trim(self.soc_units + self.region * self.region_units, self.region_units);
            }
        }
        let units = self.chunk.min(self.region_units - self.region_at);
        let lpa = self.soc_units + self.region * self.region_units + self.region_at;
        self.region_at += units;
        self.counters.loc_write_bytes += units as u64 * UNIT_BYTES;
        self.write(lpa, units, LOC_TAG)
    }

    pub fn next(&mut self, rng: &mut Rng) -> Request {
        if let Some(req) = self.start() {
            return req;
        }
        let c = &self.counters;
        // The SOC's share of the bytes written in the mix (the start's SOC pass left out).
        let soc = c.soc_write_bytes - self.soc_units as u64 * UNIT_BYTES;
        let written = (soc + c.loc_write_bytes) as f64;
        if (soc as f64) < self.soc_writes * (written + UNIT_BYTES as f64) {
            self.counters.soc_write_bytes += UNIT_BYTES;
            let bucket = rng.below(self.soc_units as u64) as u32;
            return self.write(bucket, 1, SOC_TAG);
        }
        self.loc()
    }
}
