//! Models of the application traces the articles replay: statistical models built from the
//! published figures (commands, read/write shares, transfer sizes, queue depths, sequential
//! shares, data volume, working set), not the traces themselves, which were never published.
//! Each model is data in the jobs vocabulary (`config/job.rs`): streams of commands, each a job
//! template with the number of commands it issues at each queue depth; `phases` cuts them into
//! rounds of one-job phases, so every command is issued at its stream's queue depth exactly and
//! a run cut short (at `seconds`) is a smaller copy of the whole trace. One file per model, each
//! value with its source ([000]: AnandTech's Intel SSD DC S3700 review) or marked a model
//! choice where the article gives no figure.

mod sql_daily;
mod sql_weekly;
mod storage_bench_heavy;
mod storage_bench_light;
mod swingbench;

use crate::config::{BlockSizes, Distribution, JobSpec, Phase, Placement};
use crate::units::{SECTOR_BYTES, UNIT_BYTES};

/// Where a stream's commands land.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Region {
    /// A file at a fixed place: from `offset` bytes, `bytes` long (a database's data file).
    File { offset: u64, bytes: u64 },
    /// A sequential log file: each phase carries on where the stream's last phase stopped,
    /// going back to the file's start at its end (a circular redo log).
    Log { offset: u64, bytes: u64 },
    /// Each phase works in a window of `bytes` at its own place in the span (an application's
    /// files: pseudo-random locality).
    Windows { bytes: u64 },
}

/// One stream of a trace's commands (a job template).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stream {
    pub name: &'static str,
    /// Percentage of the stream's commands that read (the rest write).
    pub read_percent: u32,
    /// Percentage at random positions (the rest carry on where the stream's last sequential
    /// command ended).
    pub random_percent: u32,
    /// (bytes, weight) mixes, as fio's bssplit.
    pub read_sizes: &'static [(u32, u32)],
    pub write_sizes: &'static [(u32, u32)],
    pub region: Region,
    /// Commands the stream issues over the whole trace at each queue depth: (depth, commands).
    pub depths: &'static [(u32, u64)],
}

/// What the article publishes about the trace (None: not published).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Published {
    pub reads: u64,
    pub writes: u64,
    /// Bytes read / bytes written.
    pub read_write_bytes: Option<f64>,
    /// Bytes written over the whole trace.
    pub written_bytes: Option<u64>,
    /// Share of commands of each listed size (the rest of the sizes are not listed).
    pub sizes: &'static [(u32, f64)],
    /// (size, share): this share of commands is at most this size.
    pub at_most: Option<(u32, f64)>,
    pub sequential_share: Option<f64>,
    pub mean_queue_depth: f64,
    pub qd1_share: Option<f64>,
}

/// A named model of an application trace.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Model {
    /// The workload name (registered in `config/workload.rs`).
    pub id: &'static str,
    /// The trace it models, and where its figures come from.
    pub trace: &'static str,
    pub streams: &'static [Stream],
    /// The trace is issued in this many rounds; each round is every stream at every depth for
    /// its share of the commands (a round is a small copy of the whole trace).
    pub rounds: u32,
    pub published: Published,
    /// Each value the model uses: (what, where it comes from).
    pub sources: &'static [(&'static str, &'static str)],
}

/// Every model, by name.
pub const MODELS: [&Model; 5] = [
    &swingbench::MODEL,
    &sql_daily::MODEL,
    &sql_weekly::MODEL,
    &storage_bench_heavy::MODEL,
    &storage_bench_light::MODEL,
];

pub fn by_id(id: &str) -> Option<&'static Model> {
    MODELS.iter().copied().find(|m| m.id == id)
}

/// The statistics a model is built to have, from its data (what a run's completions should
/// show, and what is compared with the published figures).
#[derive(Debug, Clone, PartialEq)]
pub struct Declared {
    pub commands: f64,
    pub reads: f64,
    pub writes: f64,
    pub read_bytes: f64,
    pub written_bytes: f64,
    /// Share of commands of each size, ascending.
    pub sizes: Vec<(u32, f64)>,
    pub sequential_share: f64,
    /// Commands outstanding when each command is issued (itself included), averaged over
    /// commands, and the share issued alone.
    pub mean_queue_depth: f64,
    pub qd1_share: f64,
}

impl Declared {
    pub fn read_share(&self) -> f64 {
        self.reads / self.commands
    }
    pub fn size_share(&self, bytes: u32) -> f64 {
        self.sizes.iter().find(|s| s.0 == bytes).map_or(0.0, |s| s.1)
    }
    pub fn share_at_most(&self, bytes: u32) -> f64 {
        self.sizes.iter().filter(|s| s.0 <= bytes).map(|s| s.1).sum()
    }
}

fn mean(sizes: &[(u32, u32)]) -> f64 {
    let total: u64 = sizes.iter().map(|s| s.1 as u64).sum();
    sizes.iter().map(|s| s.0 as f64 * s.1 as f64).sum::<f64>() / total.max(1) as f64
}

fn shares(sizes: &[(u32, u32)]) -> impl Iterator<Item = (u32, f64)> + '_ {
    let total: u64 = sizes.iter().map(|s| s.1 as u64).sum();
    sizes.iter().map(move |s| (s.0, s.1 as f64 / total.max(1) as f64))
}

impl Stream {
    pub fn commands(&self) -> u64 {
        self.depths.iter().map(|d| d.1).sum()
    }

    fn read_fraction(&self) -> f64 {
        self.read_percent as f64 / 100.0
    }

    /// Mean bytes a command moves.
    pub fn mean_bytes(&self) -> f64 {
        let r = self.read_fraction();
        r * mean(self.read_sizes) + (1.0 - r) * mean(self.write_sizes)
    }
}

impl Model {
    pub fn declared(&self) -> Declared {
        let mut d = Declared {
            commands: 0.0,
            reads: 0.0,
            writes: 0.0,
            read_bytes: 0.0,
            written_bytes: 0.0,
            sizes: Vec::new(),
            sequential_share: 0.0,
            mean_queue_depth: 0.0,
            qd1_share: 0.0,
        };
        let mut sizes = std::collections::BTreeMap::<u32, f64>::new();
        for s in self.streams {
            let n = s.commands() as f64;
            let (reads, writes) = (n * s.read_fraction(), n * (1.0 - s.read_fraction()));
            d.commands += n;
            d.reads += reads;
            d.writes += writes;
            d.read_bytes += reads * mean(s.read_sizes);
            d.written_bytes += writes * mean(s.write_sizes);
            for (bytes, share) in shares(s.read_sizes) {
                *sizes.entry(bytes).or_default() += reads * share;
            }
            for (bytes, share) in shares(s.write_sizes) {
                *sizes.entry(bytes).or_default() += writes * share;
            }
            d.sequential_share += n * (100 - s.random_percent) as f64 / 100.0;
            for &(depth, commands) in s.depths {
                d.mean_queue_depth += (depth as u64 * commands) as f64;
                if depth == 1 {
                    d.qd1_share += commands as f64;
                }
            }
        }
        d.sizes = sizes.into_iter().map(|(b, n)| (b, n / d.commands)).collect();
        d.sequential_share /= d.commands;
        d.mean_queue_depth /= d.commands;
        d.qd1_share /= d.commands;
        d
    }

    /// The farthest byte the model's files reach (its working set, when it has fixed files).
    fn files_end(&self) -> u64 {
        self.streams
            .iter()
            .map(|s| match s.region {
                Region::File { offset, bytes } | Region::Log { offset, bytes } => offset + bytes,
                Region::Windows { .. } => 0,
            })
            .max()
            .unwrap_or(0)
    }
}

/// SplitMix64's finaliser: the place of a window, from its round and stream.
fn scatter(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn round_down(x: u64, to: u64) -> u64 {
    x / to * to
}

/// The model as phases over a workload span of `span_bytes`: `rounds` rounds, each one phase per
/// stream and queue depth, holding one job that moves that share of the stream's commands
/// (as bytes: commands x the stream's mean size). Files that do not fit the span shrink with it,
/// in proportion.
pub fn phases(model: &Model, span_bytes: u64) -> Vec<Phase> {
    let span = round_down(span_bytes, UNIT_BYTES).max(UNIT_BYTES);
    let end = model.files_end();
    let scale = |x: u64| -> u64 {
        if end <= span {
            x
        } else {
            round_down((x as u128 * span as u128 / end as u128) as u64, UNIT_BYTES)
        }
    };
    let rounds = model.rounds.max(1) as u64;
    // Bytes into each log stream's file where its next phase starts.
    let mut log_at = vec![0u64; model.streams.len()];
    let mut out = Vec::new();
    for round in 0..rounds {
        for (i, s) in model.streams.iter().enumerate() {
            let largest = s.read_sizes.iter().chain(s.write_sizes).map(|e| e.0 as u64).max().unwrap_or(UNIT_BYTES);
            for &(depth, commands) in s.depths {
                // This round's share of the commands (the rounds add up to all of them).
                let n = commands * (round + 1) / rounds - commands * round / rounds;
                if n == 0 {
                    continue;
                }
                let limit = ((n as f64 * s.mean_bytes()).round() as u64).max(1);
                let (offset, size) = match s.region {
                    Region::File { offset, bytes } => (scale(offset), scale(bytes)),
                    Region::Log { offset, bytes } => {
                        let (start, len) = (scale(offset), scale(bytes).max(largest));
                        if log_at[i] + limit + largest > len {
                            log_at[i] = 0;
                        }
                        let at = round_down(log_at[i], SECTOR_BYTES as u64);
                        log_at[i] += limit;
                        (start + at, len - at)
                    }
                    Region::Windows { bytes } => {
                        let len = bytes.min(span);
                        let places = (span - len) / (1 << 20) + 1;
                        let place = scatter(round << 16 | (i as u64) << 8 | depth as u64) % places;
                        (place << 20, len)
                    }
                };
                let (offset, size) = (offset.min(span - UNIT_BYTES), size.max(largest));
                out.push(Phase {
                    name: format!("{} round {} {} qd{}", model.id, round + 1, s.name, depth),
                    jobs: vec![JobSpec {
                        name: format!("{}-qd{}", s.name, depth),
                        read_percent: s.read_percent,
                        trim_percent: 0,
                        random_percent: s.random_percent,
                        read_sizes: BlockSizes { entries: s.read_sizes.to_vec() },
                        write_sizes: BlockSizes { entries: s.write_sizes.to_vec() },
                        align_bytes: 0,
                        queue_depth: depth,
                        offset_bytes: offset,
                        size_bytes: size,
                        distribution: Distribution::Uniform,
                        random_map: false,
                        rate_iops: 0,
                        thinktime_ns: 0,
                        io_limit_bytes: limit,
                        trace: None,
                        placement: Placement::Untagged,
                        zones: None,
                    }],
                    runtime_ns: 0,
                    ramp_ns: 0,
                });
            }
        }
    }
    out
}
