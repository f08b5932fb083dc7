//! A RAID 0 array of identical drives behind a shared host bus adapter [004]: how many, the
//! stripe, and what the path from the host to each member costs. Values a run does not give come
//! from the test bed of [004] (`engine/core/presets/arrays/tomshardware-2013.toml`, with the
//! source of each).

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::units::{range, ConfigError};

/// The most members an array may have.
pub const MAX_DRIVES: u32 = 64;

/// An array: `drives` copies of the run's drive, striped in `stripe_kib` chunks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RaidConfig {
    /// Member drives, 1 to 64.
    pub drives: u32,
    /// Stripe chunk: consecutive KiB of the array's space on one member before the next, a
    /// power of two from 4 to 1024.
    pub stripe_kib: u32,
    /// The host bus adapter and backplane all members share, MB/s (10^6 bytes) over both
    /// directions; 0: no shared limit.
    pub hba_mb_s: u64,
    /// Time each command (each member's piece of a host command) holds the shared link besides
    /// its payload, ns.
    pub hba_command_ns: u64,
    /// Time each command holds its member's own path to the host (expander port, the adapter's
    /// per-device handling), one command at a time, ns; 0: none.
    pub port_command_ns: u64,
}

/// The test bed's file, as `build.rs` embeds it (JSON).
const TESTBED_FILE: &str = include_str!(concat!(env!("OUT_DIR"), "/tomshardware-2013.toml.json"));

/// The values of [004]'s test bed and where each comes from.
#[derive(Debug, Clone)]
pub struct Testbed {
    pub stripe_kib: u32,
    pub hba_mb_s: u64,
    pub hba_command_ns: u64,
    pub port_command_ns: u64,
    /// Field -> where its value comes from.
    pub sources: Vec<(String, String)>,
}

/// [004]'s test bed, parsed once.
pub fn testbed() -> &'static Testbed {
    static TESTBED: OnceLock<Testbed> = OnceLock::new();
    TESTBED.get_or_init(|| {
        let table: serde_json::Value = serde_json::from_str(TESTBED_FILE).expect("the built-in array test bed is JSON");
        let int = |k: &str| table.get(k).and_then(|v| v.as_u64()).unwrap_or_else(|| panic!("test bed: {}", k));
        let sources = match table.get("sources") {
            Some(serde_json::Value::Object(t)) => {
                t.iter().map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string())).collect()
            }
            _ => Vec::new(),
        };
        Testbed {
            stripe_kib: int("stripe_kib") as u32,
            hba_mb_s: int("hba_mb_s"),
            hba_command_ns: int("hba_command_ns"),
            port_command_ns: int("port_command_ns"),
            sources,
        }
    })
}

impl RaidConfig {
    /// `drives` members on [004]'s test bed.
    pub fn testbed(drives: u32) -> Self {
        let t = testbed();
        RaidConfig {
            drives,
            stripe_kib: t.stripe_kib,
            hba_mb_s: t.hba_mb_s,
            hba_command_ns: t.hba_command_ns,
            port_command_ns: t.port_command_ns,
        }
    }

    /// `drives` members and nothing between them and the host (no shared limit, no port cost).
    pub fn direct(drives: u32, stripe_kib: u32) -> Self {
        RaidConfig { drives, stripe_kib, hba_mb_s: 0, hba_command_ns: 0, port_command_ns: 0 }
    }

    /// Stripe chunk in 4 KiB units.
    pub fn stripe_units(&self) -> u64 {
        self.stripe_kib as u64 / 4
    }

    pub fn check(&self) -> Result<(), ConfigError> {
        range("raid.drives", self.drives as u64, 1, MAX_DRIVES as u64)?;
        if !(4..=1024).contains(&self.stripe_kib) || !self.stripe_kib.is_power_of_two() {
            return Err(ConfigError::new(
                "raid.stripe_kib",
                format!("must be a power of two from 4 to 1024 (got {})", self.stripe_kib),
            ));
        }
        if self.hba_mb_s != 0 {
            range("raid.hba_mb_s", self.hba_mb_s, 10, 1_000_000)
                .map_err(|e| ConfigError::new(e.field, format!("{}; or 0 for no shared limit", e.message)))?;
        }
        range("raid.hba_command_ns", self.hba_command_ns, 0, 1_000_000)?;
        range("raid.port_command_ns", self.port_command_ns, 0, 1_000_000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_testbed_loads_with_a_source_for_every_value() {
        let t = testbed();
        assert_eq!((t.stripe_kib, t.hba_mb_s), (64, 4200));
        for field in ["stripe_kib", "hba_mb_s", "hba_command_ns", "port_command_ns"] {
            assert!(t.sources.iter().any(|(k, _)| k == field), "no source for {}", field);
        }
        RaidConfig::testbed(24).check().unwrap();
    }

    #[test]
    fn bad_values_name_their_field_and_range() {
        let bad = |r: RaidConfig| r.check().unwrap_err();
        let ok = RaidConfig::testbed(4);
        assert_eq!(bad(RaidConfig { drives: 0, ..ok }).field, "raid.drives");
        assert_eq!(bad(RaidConfig { drives: 65, ..ok }).message, "must be between 1 and 64 (got 65)");
        assert_eq!(bad(RaidConfig { stripe_kib: 48, ..ok }).field, "raid.stripe_kib");
        assert_eq!(bad(RaidConfig { stripe_kib: 2048, ..ok }).field, "raid.stripe_kib");
        assert_eq!(bad(RaidConfig { hba_mb_s: 5, ..ok }).field, "raid.hba_mb_s");
        assert_eq!(bad(RaidConfig { hba_command_ns: 2_000_000, ..ok }).field, "raid.hba_command_ns");
        assert_eq!(bad(RaidConfig { port_command_ns: 2_000_000, ..ok }).field, "raid.port_command_ns");
        RaidConfig { hba_mb_s: 0, ..ok }.check().unwrap();
    }
}
