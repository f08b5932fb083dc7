//! Microsoft SQL Server UpdateDailyStats: AnandTech's own statistics database, its daily and
//! monthly stats procedure [000]. The article gives: 431 K reads and 179 K writes, 3:1 by
//! bytes, average queue depth 4.2 with 34 % of commands at QD1, transfer sizes 8 KB 21 %,
//! 64 KB 35 %, 128 KB 35 %. The database is 30 GB (the WeeklyMaintenance test's "30GB
//! database", the same stats DB [000]).
//!
//! Derivation (model choices marked): the 9 % of sizes not listed are modelled as 32 KB. Reads
//! and writes share the published mix except for the split that gives 3:1 by bytes: writes
//! 8 KB 33 %, 32 KB 5 %, 64 KB 35 %, 128 KB 27 % (model choice), so reads (the rest of each size)
//! are 8 KB 16.0 %, 32 KB 10.7 %, 64 KB 35.0 %, 128 KB 38.3 %. Depths: 34 % at QD1, and the
//! rest at QD5 and QD6 in the shares that average 4.2 (10 % and 56 %). Not published: the
//! sequential share (model choice: random, uniform over the database).

use super::{Model, Published, Region, Stream};

const GB: u64 = 1_000_000_000;

pub const MODEL: Model = Model {
    id: "sql-update-daily-stats",
    trace: "Microsoft SQL Server UpdateDailyStats trace (AnandTech, Intel SSD DC S3700 review [000])",
    streams: &[Stream {
        name: "sql",
        // 431 K of 610 K commands: 70.7 % [000].
        read_percent: 71,
        random_percent: 100,
        read_sizes: &[(8192, 1602), (32768, 1066), (65536, 3500), (131072, 3832)],
        write_sizes: &[(8192, 3300), (32768, 500), (65536, 3500), (131072, 2700)],
        region: Region::File { offset: 0, bytes: 30 * GB },
        // 610 K commands: 34 % at QD1 [000], 10 % at QD5 and 56 % at QD6 (average 4.2 [000]).
        depths: &[(1, 207_400), (5, 61_000), (6, 341_600)],
    }],
    rounds: 200,
    published: Published {
        reads: 431_000,
        writes: 179_000,
        read_write_bytes: Some(3.0),
        written_bytes: None,
        sizes: &[(8192, 0.21), (65536, 0.35), (131072, 0.35)],
        at_most: None,
        sequential_share: None,
        mean_queue_depth: 4.2,
        qd1_share: Some(0.34),
    },
    sources: &[
        ("reads, writes", "431K read operations and 179K write ops [000]"),
        ("read/write bytes", "mostly reads (3:1 ratio of GB reads to writes) [000]"),
        ("queue depth", "average queue depth is 4.2 and only 34% of all IOs are issued at a queue depth of 1 [000]"),
        ("sizes", "8KB 21%, 64KB 35%, 128KB 35% [000]"),
        ("database size", "a consistency check on the 30GB database (the same stats DB) [000]"),
        ("other sizes", "model choice: the 9 % not listed as 32 KB"),
        ("read/write sizes", "model choice: the split of each size between reads and writes that gives 3:1 by bytes"),
        ("depths above 1", "derived: QD5 and QD6 in the shares that give the average of 4.2"),
        ("pattern", "model choice: random over the database (the sequential share is not published)"),
    ],
};
