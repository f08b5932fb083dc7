//! Oracle Swingbench (OLTP, 100-150 users, a 10 GB database) with its redo log on the same
//! drive, as AnandTech replays it [000]. The article gives: 1.28 M reads and 3.55 M writes,
//! nearly 1:1 by bytes ("bigger reads than writes"), 88 % of commands 8 KB or smaller, database
//! accesses 8 KB and random, the redo log 1-1.5 KB sequential writes at QD1, average queue
//! depth 1.33.
//!
//! Derivation (model choices marked): the 12 % of commands above 8 KB are taken to be 16 KB
//! multiblock reads (model choice: 0.58 M of the 1.28 M reads); with the database's writes at
//! 8 KB and the redo log's at 1.25 KB on average, bytes read = bytes written gives 1.55 M
//! database writes and 2.00 M redo writes. The redo log is at QD1 (article); the database's
//! commands then need an average depth of 1.56 for the trace's 1.33: 1.23 M at QD1 and 1.59 M
//! at QD2.

use super::{Model, Published, Region, Stream};

const GB: u64 = 1_000_000_000;

pub const MODEL: Model = Model {
    id: "swingbench",
    trace: "Oracle Swingbench OLTP trace with its redo log (AnandTech, Intel SSD DC S3700 review [000])",
    streams: &[
        Stream {
            name: "redo-log",
            read_percent: 0,
            random_percent: 0,
            read_sizes: &[(1024, 1)],
            // 1 KB - 1.5 KB [000]: half of each (model choice).
            write_sizes: &[(1024, 50), (1536, 50)],
            // After the data file; 1 GiB (model choice: the article gives no size).
            region: Region::Log { offset: 10 * GB, bytes: 1 << 30 },
            depths: &[(1, 2_003_400)],
        },
        Stream {
            name: "database",
            // 1.28 M reads of 2.8266 M database commands: 45.3 % [000].
            read_percent: 45,
            random_percent: 100,
            // 0.7004 M 8 KB reads and 0.5796 M 16 KB multiblock reads (model choice for the 12 %
            // above 8 KB [000]).
            read_sizes: &[(8192, 7004), (16384, 5796)],
            write_sizes: &[(8192, 1)],
            // The 10 GB database [000].
            region: Region::File { offset: 0, bytes: 10 * GB },
            depths: &[(1, 1_232_700), (2, 1_593_900)],
        },
    ],
    rounds: 1600,
    published: Published {
        reads: 1_280_000,
        writes: 3_550_000,
        read_write_bytes: Some(1.0),
        written_bytes: None,
        sizes: &[],
        at_most: Some((8192, 0.88)),
        sequential_share: None,
        mean_queue_depth: 1.33,
        qd1_share: None,
    },
    sources: &[
        ("reads, writes", "over 1.28 million read IOs and 3.55 million writes [000]"),
        ("read/write bytes", "the read/write GB ratio is nearly 1:1 (bigger reads than writes) [000]"),
        ("sizes", "88% of the operations are 8KB or smaller; DB accesses 8KB and random [000]"),
        ("redo log", "a bunch of 1KB - 1.5KB, QD1, sequential accesses [000]"),
        ("queue depth", "its queue depth averages only 1.33 [000]"),
        ("database size", "the database size is fairly small at 10GB [000]"),
        ("16 KB reads", "model choice: the 12 % of commands above 8 KB as 16 KB multiblock reads"),
        ("redo log file", "model choice: 1 GiB after the data file, written round and round"),
        ("database depths", "derived: QD1 and QD2 in the shares that give 1.33 with the redo log at QD1"),
    ],
};
