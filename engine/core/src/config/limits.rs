//! What each drive parameter accepts, as data. Every section lists the limits of its numbers for
//! the drive at hand (some follow from other parameters: GC thresholds from the blocks per die,
//! a queue's depth from the protocol); its `check` enforces exactly that list, and the page reads
//! the same list (wasm `parameter_info`), so a refusal and the limit shown cannot disagree. The
//! named parameters' choices come from their enums' lists here too.

use std::fmt;

use serde::Serialize;

use super::{CellType, Cooling, DriveConfig, GcPacing, Isolation, MapScheme, PlacementKind, Protocol, WhenFull};
use crate::units::{between, ConfigError};

/// What a whole number without a limit accepts (it is unsigned).
pub const UNSIGNED: &str = "must be 0 or more";

/// A number in a limit: whole parameters compare and print as integers, the others as reals.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Bound {
    Whole(u64),
    Real(f64),
}

impl Bound {
    pub fn as_f64(self) -> f64 {
        match self {
            Bound::Whole(n) => n as f64,
            Bound::Real(x) => x,
        }
    }
}

impl fmt::Display for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Bound::Whole(n) => write!(f, "{}", n),
            Bound::Real(x) => write!(f, "{}", x),
        }
    }
}

/// One parameter's allowed range and its value in the drive checked.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limit {
    pub path: &'static str,
    pub value: Bound,
    pub min: Bound,
    pub max: Bound,
}

impl Limit {
    pub fn whole(path: &'static str, value: u64, min: u64, max: u64) -> Self {
        Limit { path, value: Bound::Whole(value), min: Bound::Whole(min), max: Bound::Whole(max) }
    }

    pub fn real(path: &'static str, value: f64, min: f64, max: f64) -> Self {
        Limit { path, value: Bound::Real(value), min: Bound::Real(min), max: Bound::Real(max) }
    }

    /// The range as a refusal says it: "must be between 10 and 1000".
    pub fn words(&self) -> String {
        between(self.min, self.max)
    }

    /// The value must lie in `min..=max` (a real that is not a number lies nowhere).
    pub fn check(&self) -> Result<(), ConfigError> {
        let inside = match (self.value, self.min, self.max) {
            (Bound::Whole(v), Bound::Whole(lo), Bound::Whole(hi)) => (lo..=hi).contains(&v),
            (v, lo, hi) => v.as_f64() >= lo.as_f64() && v.as_f64() <= hi.as_f64(),
        };
        if inside {
            Ok(())
        } else {
            Err(ConfigError::new(self.path, format!("{} (got {})", self.words(), self.value)))
        }
    }
}

/// Each limit in order; the first refusal.
pub fn check_limits(limits: &[Limit]) -> Result<(), ConfigError> {
    limits.iter().try_for_each(Limit::check)
}

/// The limit on the parameter at `path` in `drive`, if its number has one.
pub fn limit_of(drive: &DriveConfig, path: &str) -> Option<Limit> {
    drive.limits().into_iter().find(|l| l.path == path)
}

/// The names a named parameter accepts, for those the config defines. (`gc.victim` takes a
/// policy's name, registered with the policies in `drive::ftl::victim`.)
pub fn choices(path: &str) -> Option<Vec<String>> {
    fn names<T: Serialize>(all: &[T]) -> Vec<String> {
        all.iter().filter_map(|v| serde_json::to_value(v).ok()?.as_str().map(str::to_string)).collect()
    }
    match path {
        "host.protocol" => Some(names(&Protocol::ALL)),
        "nand.cell" => Some(names(&CellType::ALL)),
        "gc.pacing" => Some(names(&GcPacing::ALL)),
        "map.scheme" => Some(names(&MapScheme::ALL)),
        "slc_cache.when_full" => Some(names(&WhenFull::ALL)),
        "placement.kind" => Some(names(&PlacementKind::ALL)),
        "placement.isolation" => Some(names(&Isolation::ALL)),
        "thermal.cooling" => Some(names(&Cooling::ALL)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{parameter_values, presets, set_parameter};

    /// Every limit in the table is the one the check enforces: each bound is accepted and the
    /// number just beyond it refused, with the table's words when the refusal names the path
    /// (a bound can first break another parameter's limit that follows from this one).
    #[test]
    fn the_check_enforces_the_table_for_every_parameter_of_every_preset() {
        let mut refused_in_words = 0;
        for drive in presets::all() {
            let limits = drive.limits();
            assert!(limits.len() >= 40, "{}: {}", drive.id, limits.len());
            for limit in &limits {
                let named = |value: serde_json::Value| match set_parameter(&drive, limit.path, value) {
                    Err(e) if e.field == limit.path => Some(e.message),
                    _ => None,
                };
                for bound in [limit.min, limit.max] {
                    assert_eq!(named(json(bound)), None, "{}: {} at its bound {}", drive.id, limit.path, bound);
                }
                let beyond = match (limit.min, limit.max) {
                    (Bound::Whole(lo), Bound::Whole(hi)) => {
                        [lo.checked_sub(1).map(Bound::Whole), hi.checked_add(1).map(Bound::Whole)]
                    }
                    (lo, hi) => [Some(Bound::Real(lo.as_f64() - 0.001)), Some(Bound::Real(hi.as_f64() + 0.001))],
                };
                for out in beyond.into_iter().flatten() {
                    let refusal = set_parameter(&drive, limit.path, json(out));
                    assert!(refusal.is_err(), "{}: {} = {} accepted", drive.id, limit.path, out);
                    if let Some(message) = named(json(out)) {
                        assert_eq!(message, format!("{} (got {})", limit.words(), out), "{}", drive.id);
                        refused_in_words += 1;
                    }
                }
            }
        }
        assert!(refused_in_words > 500, "{}", refused_in_words);
    }

    #[test]
    fn every_number_with_a_limit_is_a_parameter_and_every_name_lists_what_it_takes() {
        let drive = presets::by_id("s3700-200").unwrap();
        let values = parameter_values(&drive);
        for limit in drive.limits() {
            assert!(values.iter().any(|(p, _)| p == limit.path), "{}", limit.path);
        }
        for (path, value) in values.iter().filter(|(_, v)| v.is_string()) {
            let Some(names) = choices(path) else { continue };
            assert!(names.contains(&value.as_str().unwrap().to_string()), "{path}");
            // Each name is taken (a scheme can then ask more of another parameter: a cache).
            for name in &names {
                let field = set_parameter(&drive, path, name.as_str().into()).err().map(|e| e.field);
                assert!(field.is_none_or(|f| f != *path && f != "set"), "{path} = {name}");
            }
            // serde's own list of the enum's names is the same.
            let e = set_parameter(&drive, path, "?".into()).unwrap_err();
            let listed: Vec<&str> = e.message.split('`').skip(3).step_by(2).collect();
            assert_eq!(listed, names, "{path}");
        }
        assert_eq!(choices("gc.pacing").unwrap(), ["consistency-first", "lazy"]);
        assert_eq!(choices("name"), None);
    }

    fn json(b: Bound) -> serde_json::Value {
        match b {
            Bound::Whole(n) => n.into(),
            Bound::Real(x) => x.into(),
        }
    }
}
