//! Microsoft SQL Server WeeklyMaintenance: a consistency check of AnandTech's 30 GB stats
//! database followed by an index rebuild of every table [000]. The article gives: about 1.8 M
//! reads and 1 M writes, 3:1 by bytes, average queue depth 5.43.
//!
//! Derivation (model choices marked): transfer sizes are not published; the model takes
//! UpdateDailyStats' mix (same server and database [000]: 8 KB 21 %, 64 KB 35 %, 128 KB 35 %,
//! and 32 KB for the 9 % not listed) and splits each size between reads and writes to give 3:1
//! by bytes: writes 8 KB 42.1 %, 32 KB 5 %, 64 KB 35 %, 128 KB 17.9 %, reads the rest. Depths:
//! QD5 and QD6 in the shares that average 5.43 (57 % and 43 %; the QD1 share is not published).
//! The check and the rebuild are one mixed stream (model choice), random over the database.

use super::{Model, Published, Region, Stream};

const GB: u64 = 1_000_000_000;

pub const MODEL: Model = Model {
    id: "sql-weekly-maintenance",
    trace: "Microsoft SQL Server WeeklyMaintenance trace (AnandTech, Intel SSD DC S3700 review [000])",
    streams: &[Stream {
        name: "sql",
        // 1.8 M of 2.8 M commands: 64.3 % [000].
        read_percent: 64,
        random_percent: 100,
        read_sizes: &[(8192, 926), (32768, 1122), (65536, 3500), (131072, 4452)],
        write_sizes: &[(8192, 4214), (32768, 500), (65536, 3500), (131072, 1786)],
        region: Region::File { offset: 0, bytes: 30 * GB },
        // 2.8 M commands, average depth 5.43 [000]: 57 % at QD5, 43 % at QD6.
        depths: &[(5, 1_596_000), (6, 1_204_000)],
    }],
    rounds: 1400,
    published: Published {
        reads: 1_800_000,
        writes: 1_000_000,
        read_write_bytes: Some(3.0),
        written_bytes: None,
        sizes: &[],
        at_most: None,
        sequential_share: None,
        mean_queue_depth: 5.43,
        qd1_share: None,
    },
    sources: &[
        ("reads, writes", "approximately 1.8M reads and 1M writes [000]"),
        ("read/write bytes", "the read:write ratio here remains around 3:1 [000]"),
        ("queue depth", "average queue depth is up to 5.43 [000]"),
        ("database size", "a consistency check on the 30GB database followed by a rebuild index [000]"),
        ("sizes", "model choice: UpdateDailyStats' published mix (same database), 32 KB for the rest"),
        ("read/write sizes", "model choice: the split of each size between reads and writes that gives 3:1 by bytes"),
        ("depths", "derived: QD5 and QD6 in the shares that give 5.43"),
        ("pattern", "model choice: random over the database (the sequential share is not published)"),
    ],
};
