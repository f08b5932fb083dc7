//! The ground floor: unit sizes, time constants and the configuration error every part reports.

use std::fmt;

/// Bytes in one mapping unit: the FTL maps logical 4 KiB units to physical 4 KiB slots.
pub const UNIT_BYTES: u64 = 4096;
/// Bytes in one host sector: request sizes and offsets are whole sectors.
pub const SECTOR_BYTES: u32 = 512;
pub const NS_PER_S: u64 = 1_000_000_000;
/// The longest run, simulated seconds.
pub const MAX_SECONDS: u32 = 1_000_000;
/// The most jobs (command streams) a workload phase may run at once.
pub const MAX_JOBS: u32 = 1 << 14;
/// "No unit" / "no block" in the FTL's tables.
pub const NONE: u32 = u32::MAX;

/// A configuration error: which field, and what is allowed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    pub field: String,
    pub message: String,
}

impl ConfigError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        ConfigError { field: field.into(), message: message.into() }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for ConfigError {}

/// Time per byte at `mb_s` (bytes per microsecond), picoseconds, rounded; 0 for 0.
pub fn ps_per_byte(mb_s: u64) -> u64 {
    (1_000_000 + mb_s / 2).checked_div(mb_s).unwrap_or(0)
}

/// A range in the words every refusal uses: "must be between 10 and 1000".
pub fn between(min: impl fmt::Display, max: impl fmt::Display) -> String {
    format!("must be between {} and {}", min, max)
}

/// `value` must lie in `min..=max`; the error names `field` and the range.
pub fn range(field: &str, value: u64, min: u64, max: u64) -> Result<(), ConfigError> {
    if value < min || value > max {
        Err(ConfigError::new(field, format!("{} (got {})", between(min, max), value)))
    } else {
        Ok(())
    }
}

/// A fraction (or any real) must lie in `min..=max` and be a number; the error says what it is.
pub fn real_range(field: &str, value: f64, min: f64, max: f64, what: &str) -> Result<(), ConfigError> {
    if value >= min && value <= max {
        Ok(())
    } else {
        Err(ConfigError::new(field, format!("must be between {} (got {})", what, value)))
    }
}

/// Division by a number fixed when a drive is built: a shift when it is a power of two (block
/// and page sizes nearly always are), a plain division otherwise. Divisions sit on the hot path
/// of every write, and a shift costs a cycle where a division costs dozens.
#[derive(Debug, Clone, Copy)]
pub struct Divisor {
    d: u32,
    /// log2(d) if d is a power of two, else 32.
    shift: u32,
}

impl Divisor {
    pub fn new(d: u32) -> Self {
        let d = d.max(1);
        Divisor { d, shift: if d.is_power_of_two() { d.trailing_zeros() } else { 32 } }
    }

    #[inline(always)]
    pub fn get(self) -> u32 {
        self.d
    }

    #[inline(always)]
    pub fn quotient(self, x: u32) -> u32 {
        if self.shift < 32 {
            x >> self.shift
        } else {
            x / self.d
        }
    }

    #[inline(always)]
    pub fn remainder(self, x: u32) -> u32 {
        if self.shift < 32 {
            x & (self.d - 1)
        } else {
            x % self.d
        }
    }
}
