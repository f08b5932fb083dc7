//! AnandTech Storage Bench 2011, Heavy Workload (the "MOASB"): two weeks of a power user's
//! desktop (application installs, downloads, Photoshop, Visual Studio building Chromium,
//! games, virus scans) [000]. The article gives: 2,168,893 reads and 1,783,447 writes,
//! 106.32 GB written, sizes 4 KB 28 %, 16 KB 10 %, 32 KB 10 %, 64 KB 4 %, 42 % of commands
//! sequential ("the rest range from pseudo to fully random, most pseudo-random"), average
//! queue depth 4.625 with 59 % of commands at QD1.
//!
//! Derivation (model choices marked): reads and writes share the published size mix (model
//! choice: one breakdown is published for both). 106.32 GB over 1,783,447 writes is 59.6 KB a
//! write, so the 48 % of sizes not listed must average 103.6 KiB: 8 KB 9.75 % and 128 KB
//! 38.25 %. Pseudo-random locality: each phase works in its own 4 GiB window of the span
//! (model choice), sequential commands carrying on through it. Depths: 59 % at QD1, the rest
//! at QD9 (6.5 %) and QD10 (34.5 %), which average 4.625.

use super::{Model, Published, Region, Stream};

pub const MODEL: Model = Model {
    id: "storage-bench-2011-heavy",
    trace: "AnandTech Storage Bench 2011 Heavy Workload trace (AnandTech, Intel SSD DC S3700 review [000])",
    streams: &[Stream {
        name: "heavy",
        // 2,168,893 of 3,952,340 commands: 54.9 % [000].
        read_percent: 55,
        // 42 % sequential [000].
        random_percent: 58,
        read_sizes: SIZES,
        write_sizes: SIZES,
        region: Region::Windows { bytes: 4 << 30 },
        // 3,952,340 commands: 59 % at QD1 [000]; QD9 6.5 % and QD10 34.5 % (average 4.625 [000]).
        depths: &[(1, 2_331_881), (9, 256_902), (10, 1_363_557)],
    }],
    rounds: 1300,
    published: Published {
        reads: 2_168_893,
        writes: 1_783_447,
        read_write_bytes: None,
        written_bytes: Some(106_320_000_000),
        sizes: &[(4096, 0.28), (16384, 0.10), (32768, 0.10), (65536, 0.04)],
        at_most: None,
        sequential_share: Some(0.42),
        mean_queue_depth: 4.625,
        qd1_share: Some(0.59),
    },
    sources: &[
        ("reads, writes", "2,168,893 read operations and 1,783,447 write operations [000]"),
        ("written", "this benchmark writes 106.32GB [000]"),
        ("sizes", "4KB 28%, 16KB 10%, 32KB 10%, 64KB 4% [000]"),
        ("sequential", "only 42% of all operations are sequential [000]"),
        (
            "queue depth",
            "average queue depth is 4.625 IOs, with 59% of operations taking place in an IO queue of 1 [000]",
        ),
        ("other sizes", "derived: 8 KB 9.75 % and 128 KB 38.25 %, the mix that writes 106.32 GB"),
        ("read sizes", "model choice: reads share the published mix"),
        ("locality", "model choice: each phase in its own 4 GiB window (pseudo-random [000])"),
        ("depths above 1", "derived: QD9 and QD10 in the shares that give 4.625"),
    ],
};

/// 4 KB 28 %, 16 KB 10 %, 32 KB 10 %, 64 KB 4 % [000]; 8 KB 9.75 % and 128 KB 38.25 % (derived
/// from the 106.32 GB written).
const SIZES: &[(u32, u32)] = &[(4096, 2800), (8192, 975), (16384, 1000), (32768, 1000), (65536, 400), (131072, 3825)];
