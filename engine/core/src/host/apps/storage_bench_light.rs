//! AnandTech Storage Bench 2011, Light Workload: everyday desktop use (web browsing, photo
//! viewing and editing, video playback, some installs and games) [000]. The article gives:
//! 372,630 reads and 459,709 writes, sizes 4 KB 27 %, 16 KB 8 %, 32 KB 6 %, 64 KB 5 % ("far fewer
//! large IO transfers" than the Heavy workload), over 60 % of commands perfectly sequential,
//! average queue depth 2.2029.
//!
//! Derivation (model choices marked): the 54 % of sizes not listed are modelled as 8 KB 44 %
//! and 128 KB 10 % (model choice, keeping large transfers fewer than Heavy's; the volume is not
//! published). 60 % sequential. The QD1 share is not published: the model takes Heavy's 59 %
//! (model choice), the rest at QD3 (2.71 %) and QD4 (38.29 %), which average 2.2029. Each phase
//! works in its own 4 GiB window of the span, as Heavy.

use super::{Model, Published, Region, Stream};

pub const MODEL: Model = Model {
    id: "storage-bench-2011-light",
    trace: "AnandTech Storage Bench 2011 Light Workload trace (AnandTech, Intel SSD DC S3700 review [000])",
    streams: &[Stream {
        name: "light",
        // 372,630 of 832,339 commands: 44.8 % [000].
        read_percent: 45,
        // over 60 % sequential [000].
        random_percent: 40,
        read_sizes: SIZES,
        write_sizes: SIZES,
        region: Region::Windows { bytes: 4 << 30 },
        // 832,339 commands, average depth 2.2029 [000]: QD1 59 % (Heavy's share, model choice),
        // QD3 2.71 %, QD4 38.29 %.
        depths: &[(1, 491_080), (3, 22_556), (4, 318_703)],
    }],
    rounds: 280,
    published: Published {
        reads: 372_630,
        writes: 459_709,
        read_write_bytes: None,
        written_bytes: None,
        sizes: &[(4096, 0.27), (16384, 0.08), (32768, 0.06), (65536, 0.05)],
        at_most: None,
        sequential_share: Some(0.60),
        mean_queue_depth: 2.2029,
        qd1_share: None,
    },
    sources: &[
        ("reads, writes", "372,630 reads and 459,709 writes [000]"),
        ("sizes", "4KB 27%, 16KB 8%, 32KB 6%, 64KB 5% [000]"),
        ("sequential", "over 60% of all operations are perfectly sequential [000]"),
        ("queue depth", "average queue depth is a lighter 2.2029 IOs [000]"),
        ("other sizes", "model choice: 8 KB 44 % and 128 KB 10 % (far fewer large transfers than Heavy [000])"),
        ("QD1 share", "model choice: Heavy's 59 % at QD1; QD3 and QD4 in the shares that give 2.2029"),
        ("locality", "model choice: each phase in its own 4 GiB window, as Heavy"),
    ],
};

/// 4 KB 27 %, 16 KB 8 %, 32 KB 6 %, 64 KB 5 % [000]; 8 KB 44 % and 128 KB 10 % (model choice).
const SIZES: &[(u32, u32)] = &[(4096, 27), (8192, 44), (16384, 8), (32768, 6), (65536, 5), (131072, 10)];
