//! A workload in fio's vocabulary: jobs, each a stream of commands with its own mix of reads,
//! writes and TRIMs, request sizes, access pattern, range of the LBA span, queue depth and pace,
//! run together in phases, one phase after another (fio's `stonewall`). The named workloads and
//! the run's simple fields (block size, queue depth, threads) are the one-phase shorthand.

use super::trace::Trace;
use super::workload::{Pattern, WorkloadSpec};
use crate::units::{range, ConfigError, SECTOR_BYTES};

/// Request sizes: one size, or a mix by weight (fio's `bssplit`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockSizes {
    /// (bytes, weight), weights summing to more than 0.
    pub entries: Vec<(u32, u32)>,
}

impl BlockSizes {
    pub fn fixed(bytes: u32) -> Self {
        BlockSizes { entries: vec![(bytes, 1)] }
    }

    /// One size (`4k`, `8192`) or fio's bssplit (`4k/50:64k/50`; a missing weight shares what
    /// the others leave of 100). `field` names the setting in errors.
    pub fn parse(field: &str, text: &str) -> Result<Self, ConfigError> {
        // (bytes, weight); None: no weight given.
        let mut given = Vec::new();
        for part in text.split(':').filter(|p| !p.trim().is_empty()) {
            let (size, weight) = match part.split_once('/') {
                Some((s, w)) => (s, Some(w.trim())),
                None => (part, None),
            };
            let bytes = parse_size(size).ok_or_else(|| {
                ConfigError::new(field, format!("'{}' is not a size (e.g. 4k, 64k, 1m or 4096)", size.trim()))
            })?;
            let weight = match weight {
                Some(w) if !w.is_empty() => Some(w.parse::<u32>().map_err(|_| {
                    ConfigError::new(field, format!("'{}' is not a whole percentage (e.g. 4k/50:64k/50)", w))
                })?),
                _ => None,
            };
            if bytes > u32::MAX as u64 {
                return Err(ConfigError::new(field, format!("{} bytes is too large a request", bytes)));
            }
            given.push((bytes as u32, weight));
        }
        if given.is_empty() {
            return Err(ConfigError::new(field, "needs at least one size (e.g. 4k or 4k/50:64k/50)"));
        }
        // Summed in 64 bits: weights are any whole numbers, and u32 sums wrap.
        let weighted: u64 = given.iter().filter_map(|e| e.1).map(u64::from).sum();
        let unweighted = given.iter().filter(|e| e.1.is_none()).count() as u64;
        let share = 100u64.saturating_sub(weighted).checked_div(unweighted).unwrap_or(0).max(1) as u32;
        let entries: Vec<(u32, u32)> = given.into_iter().map(|(bytes, w)| (bytes, w.unwrap_or(share))).collect();
        if entries.iter().map(|e| e.1 as u64).sum::<u64>() == 0 {
            return Err(ConfigError::new(field, "the weights add up to 0"));
        }
        Ok(BlockSizes { entries })
    }

    pub fn is_fixed(&self) -> bool {
        self.entries.len() == 1
    }

    pub fn largest(&self) -> u32 {
        self.entries.iter().map(|e| e.0).max().unwrap_or(SECTOR_BYTES)
    }

    pub fn smallest(&self) -> u32 {
        self.entries.iter().map(|e| e.0).min().unwrap_or(SECTOR_BYTES)
    }

    /// Every size must be whole sectors, from 512 bytes to `max_bytes`.
    pub fn check(&self, field: &str, max_bytes: u64) -> Result<(), ConfigError> {
        for &(bytes, _) in &self.entries {
            if !bytes.is_multiple_of(SECTOR_BYTES) {
                return Err(ConfigError::new(field, format!("must be a multiple of 512 (got {})", bytes)));
            }
            range(field, bytes as u64, SECTOR_BYTES as u64, max_bytes)?;
        }
        Ok(())
    }
}

/// A size as fio writes it: `4096`, `4k`, `64KiB`, `1m`, `1g` (k, m, g, t are powers of 1024, as
/// fio reads them by default).
pub fn parse_size(text: &str) -> Option<u64> {
    let t = text.trim().to_ascii_lowercase();
    let digits_end = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (number, unit) = t.split_at(digits_end);
    let n: u64 = number.parse().ok()?;
    let scale: u64 = match unit.trim_end_matches("ib").trim_end_matches('b') {
        "" => 1,
        "k" => 1 << 10,
        "m" => 1 << 20,
        "g" => 1 << 30,
        "t" => 1 << 40,
        _ => return None,
    };
    n.checked_mul(scale)
}

/// Where random requests land (fio's `random_distribution`).
#[derive(Debug, Clone, PartialEq)]
pub enum Distribution {
    Uniform,
    /// Zipf with exponent theta (> 0, not 1): a few blocks take most of the accesses.
    Zipf(f64),
    /// Pareto with shape h (0 < h < 1): h = 0.2 puts 80 % of accesses on 20 % of the blocks.
    Pareto(f64),
    /// Zones of the range, in order, each taking a share of the accesses (hot/cold data).
    Zoned(Vec<Zone>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Zone {
    /// Percentage of accesses that land in this zone.
    pub access_percent: u32,
    /// Percentage of the range the zone covers.
    pub size_percent: u32,
}

impl Distribution {
    /// fio's syntax: `random`, `zipf:1.2`, `pareto:0.9`, `zoned:60/10:30/20:10/70`
    /// (access%/size% per zone, summing to 100 each).
    pub fn parse(field: &str, text: &str) -> Result<Self, ConfigError> {
        let t = text.trim();
        let (kind, arg) = t.split_once(':').unwrap_or((t, ""));
        let number = |what: &str| -> Result<f64, ConfigError> {
            arg.trim()
                .parse::<f64>()
                .map_err(|_| ConfigError::new(field, format!("{} needs a number, e.g. {}", kind, what)))
        };
        match kind {
            "random" | "uniform" => Ok(Distribution::Uniform),
            "zipf" => {
                let theta = number("zipf:1.2")?;
                if !(theta > 0.0 && theta != 1.0 && theta <= 10.0) {
                    return Err(ConfigError::new(
                        field,
                        format!("zipf's theta must be above 0, at most 10 and not 1 (got {})", theta),
                    ));
                }
                Ok(Distribution::Zipf(theta))
            }
            "pareto" => {
                let h = number("pareto:0.9")?;
                if !(h > 0.0 && h < 1.0) {
                    return Err(ConfigError::new(field, format!("pareto's h must be between 0 and 1 (got {})", h)));
                }
                Ok(Distribution::Pareto(h))
            }
            "zoned" => Self::parse_zones(field, arg),
            _ => Err(ConfigError::new(
                field,
                format!(
                    "unknown distribution '{}' (allowed: random, zipf:THETA, pareto:H, zoned:ACCESS/SIZE:...)",
                    kind
                ),
            )),
        }
    }

    fn parse_zones(field: &str, arg: &str) -> Result<Self, ConfigError> {
        let mut zones = Vec::new();
        for part in arg.split(':').filter(|p| !p.trim().is_empty()) {
            let (a, s) = part.split_once('/').ok_or_else(|| {
                ConfigError::new(
                    field,
                    format!("zone '{}' must be ACCESS/SIZE percentages, e.g. zoned:90/10:10/90", part),
                )
            })?;
            let pct = |x: &str| match x.trim().parse::<u32>() {
                Ok(p) if p <= 100 => Ok(p),
                _ => Err(ConfigError::new(field, format!("'{}' is not a whole percentage from 0 to 100", x))),
            };
            zones.push(Zone { access_percent: pct(a)?, size_percent: pct(s)? });
        }
        let access: u32 = zones.iter().map(|z| z.access_percent).sum();
        let size: u32 = zones.iter().map(|z| z.size_percent).sum();
        if zones.is_empty() || access != 100 || size != 100 || zones.iter().any(|z| z.size_percent == 0) {
            return Err(ConfigError::new(
                field,
                format!(
                    "zones' accesses and sizes must each add up to 100, every zone with some size (got {} and {})",
                    access, size
                ),
            ));
        }
        Ok(Distribution::Zoned(zones))
    }

    /// The named hot-cold workloads' skew: `hot_percent` of accesses to the first
    /// `hot_span_percent` of the range.
    pub fn hot_cold(hot_percent: u32, hot_span_percent: u32) -> Self {
        if hot_percent == 0 {
            return Distribution::Uniform;
        }
        Distribution::Zoned(vec![
            Zone { access_percent: hot_percent, size_percent: hot_span_percent },
            Zone { access_percent: 100 - hot_percent, size_percent: 100 - hot_span_percent },
        ])
    }
}

/// One stream of commands (a fio job; `numjobs` clones are separate jobs).
#[derive(Debug, Clone, PartialEq)]
pub struct JobSpec {
    pub name: String,
    /// Percentage of commands that read (the rest write), before TRIMs are drawn.
    pub read_percent: u32,
    /// Percentage of commands that TRIM instead.
    pub trim_percent: u32,
    /// Percentage of commands at a random position (100: random, 0: sequential).
    pub random_percent: u32,
    pub read_sizes: BlockSizes,
    pub write_sizes: BlockSizes,
    /// Random requests start at multiples of this many bytes (0: each request's own size).
    pub align_bytes: u32,
    /// Commands this job keeps outstanding (fio's `iodepth`).
    pub queue_depth: u32,
    /// The job's range of the workload span: from `offset_bytes`, `size_bytes` long (0: to the
    /// end).
    pub offset_bytes: u64,
    pub size_bytes: u64,
    pub distribution: Distribution,
    /// Random positions visit every block once per pass (fio's default random map); false draws
    /// with replacement (fio's `norandommap`, and the articles' tools).
    pub random_map: bool,
    /// At most this many commands per second (0: as fast as the drive answers).
    pub rate_iops: u32,
    /// Pause after each completion before the slot issues again, ns (fio's `thinktime`).
    pub thinktime_ns: u64,
    /// The job stops after moving this many bytes (0: no limit; fio's `size` / `io_size` when
    /// not time-based).
    pub io_limit_bytes: u64,
    /// Replay this trace instead of drawing commands (the mix, sizes and pattern above are then
    /// unused; the queue depth bounds what is outstanding).
    pub trace: Option<std::sync::Arc<Trace>>,
    /// The placement handle its writes carry (a stream, an FDP handle).
    pub placement: Placement,
    /// fio's `zonemode=zbd`: writes go to zones' write pointers (None: where they are drawn).
    pub zones: Option<ZoneMode>,
}

/// fio's `zonemode=zbd` for one job (its `zbd.c`): each write lands at the write pointer of a
/// zone (a random write's zone is the one its drawn position falls in, a sequential write
/// continues the job's current zone), a zone picked while full is reset first, and at most
/// `max_open` zones are written at once. The job's range is whole zones.
#[derive(Debug, Clone, PartialEq)]
pub struct ZoneMode {
    pub zone_bytes: u64,
    /// The writable part of each zone, from its start.
    pub capacity_bytes: u64,
    /// The drive is zoned: resets and finishes are sent to it. False: zones emulated as fio does
    /// on a regular block device, where a reset only moves the host's write pointer.
    pub device: bool,
    /// Zones all jobs write to at once (fio's `max_open_zones`; 0: no limit).
    pub max_open: u32,
    /// Zones this job writes to at once (fio's `job_max_open_zones`; 0: no limit).
    pub job_max_open: u32,
    /// fio's `zone_reset_threshold` and `zone_reset_frequency`: once the zones' written bytes
    /// exceed `reset_threshold` of the range, every (1 / `reset_frequency`)-th write resets its
    /// zone first (frequency 0: never).
    pub reset_threshold: f64,
    pub reset_frequency: f64,
    /// Reads may land above a zone's write pointer (fio's `read_beyond_wp`); else they are
    /// moved below it, as fio moves them.
    pub read_beyond_wp: bool,
}

/// Which placement handle a job's writes carry: one, or one of a list per write, chosen as fio's
/// `plid_select` chooses among its `plids`, or by the zone of the job's distribution the write
/// falls in (hot and cold data tagged by temperature).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Placement {
    /// No handle: handle 0, as on a drive without placement.
    #[default]
    Untagged,
    Handle(u8),
    /// The list's handles in turn, one write each (fio's `plid_select=roundrobin`).
    RoundRobin(Vec<u8>),
    /// A handle of the list drawn uniformly per write (fio's `plid_select=random`).
    Random(Vec<u8>),
    /// The i-th handle for writes in the i-th zone of the job's zoned distribution.
    ByZone(Vec<u8>),
}

impl Placement {
    /// The handles it may tag a write with.
    pub fn handles(&self) -> &[u8] {
        match self {
            Placement::Untagged => &[],
            Placement::Handle(h) => std::slice::from_ref(h),
            Placement::RoundRobin(l) | Placement::Random(l) | Placement::ByZone(l) => l,
        }
    }
}

/// Jobs that run together; the next phase starts when all of them are done.
#[derive(Debug, Clone, PartialEq)]
pub struct Phase {
    pub name: String,
    pub jobs: Vec<JobSpec>,
    /// The phase ends this long after it starts (0: when every job has reached its byte limit).
    pub runtime_ns: u64,
    /// The first part of the phase, not counted in its results (fio's `ramp_time`), ns.
    pub ramp_ns: u64,
}

impl JobSpec {
    /// A named workload as one job: `block_bytes` requests aligned to `align_bytes`, at
    /// `queue_depth`, over the whole workload span, drawing with replacement.
    pub fn named(w: &WorkloadSpec, block_bytes: u32, align_bytes: u32, queue_depth: u32) -> Self {
        JobSpec {
            name: w.id.to_string(),
            read_percent: w.read_percent,
            trim_percent: w.trim_percent,
            random_percent: if w.pattern == Pattern::Random { 100 } else { 0 },
            read_sizes: BlockSizes::fixed(block_bytes),
            write_sizes: BlockSizes::fixed(block_bytes),
            align_bytes,
            queue_depth,
            offset_bytes: 0,
            size_bytes: 0,
            distribution: Distribution::hot_cold(w.hot_percent, w.hot_span_percent),
            random_map: false,
            rate_iops: 0,
            thinktime_ns: 0,
            io_limit_bytes: 0,
            trace: None,
            placement: Placement::Untagged,
            zones: None,
        }
    }

    /// Checks the job against a workload span of `span_bytes`; errors name `field.what`.
    pub fn check(&self, field: &str, span_bytes: u64) -> Result<(), ConfigError> {
        let f = |what: &str| format!("{}.{}", field, what);
        range(&f("read_percent"), self.read_percent as u64, 0, 100)?;
        range(&f("trim_percent"), self.trim_percent as u64, 0, 100)?;
        range(&f("random_percent"), self.random_percent as u64, 0, 100)?;
        range(&f("queue_depth"), self.queue_depth as u64, 1, 65536)?;
        if self.offset_bytes >= span_bytes {
            return Err(ConfigError::new(
                f("offset"),
                format!("must lie inside the tested span of {} bytes (got {})", span_bytes, self.offset_bytes),
            ));
        }
        let range_bytes = self.range_bytes(span_bytes);
        self.read_sizes.check(&f("read_sizes"), range_bytes.min(1 << 24))?;
        self.write_sizes.check(&f("write_sizes"), range_bytes.min(1 << 24))?;
        if !self.align_bytes.is_multiple_of(SECTOR_BYTES) {
            return Err(ConfigError::new(f("align"), format!("must be a multiple of 512 (got {})", self.align_bytes)));
        }
        range(&f("align"), self.align_bytes as u64, 0, range_bytes)?;
        range(&f("rate_iops"), self.rate_iops as u64, 0, 100_000_000)?;
        range(&f("thinktime_ns"), self.thinktime_ns, 0, 1_000_000_000_000)
    }

    /// Bytes of the workload span the job's requests land in.
    pub fn range_bytes(&self, span_bytes: u64) -> u64 {
        let rest = span_bytes.saturating_sub(self.offset_bytes);
        if self.size_bytes == 0 {
            rest
        } else {
            self.size_bytes.min(rest)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_distributions_read_as_fio_writes_them() {
        assert_eq!(parse_size("4k"), Some(4096));
        assert_eq!(parse_size("64KiB"), Some(65536));
        assert_eq!(parse_size("1m"), Some(1 << 20));
        assert_eq!(parse_size("x"), None);
        let mix = BlockSizes::parse("bssplit", "4k/10:64k/50:32k").unwrap();
        assert_eq!(mix.entries, vec![(4096, 10), (65536, 50), (32768, 40)]);
        assert!(BlockSizes::parse("bssplit", "4k/x").unwrap_err().message.contains("percentage"));
        assert_eq!(Distribution::parse("d", "zipf:1.2").unwrap(), Distribution::Zipf(1.2));
        assert!(Distribution::parse("d", "zipf:1").is_err());
        assert_eq!(Distribution::parse("d", "zoned:90/10:10/90").unwrap(), Distribution::hot_cold(90, 10));
        assert!(Distribution::parse("d", "zoned:90/10:20/90").unwrap_err().message.contains("100"));
        assert!(Distribution::parse("d", "gauss:2").unwrap_err().message.contains("allowed"));
    }
}
