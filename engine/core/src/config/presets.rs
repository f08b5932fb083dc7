//! The drive presets: the products the articles measured, as data files in
//! `engine/core/presets/`, one per drive, that a reader can open and diff. Each section of a
//! file ends with `sources.FIELD` lines saying where each value comes from; they are kept apart
//! from the drive's parameters.
//!
//! To add a drive: write its file (copy the nearest one) and add one line to `FILES`.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use super::DriveConfig;
use crate::units::ConfigError;

/// Every preset file, in the order the UI lists them.
const FILES: [(&str, &str); 21] = [
    ("s3700-200.toml", include_str!("../../presets/s3700-200.toml")),
    ("s3700-100.toml", include_str!("../../presets/s3700-100.toml")),
    ("s3700-400.toml", include_str!("../../presets/s3700-400.toml")),
    ("s3700-800.toml", include_str!("../../presets/s3700-800.toml")),
    ("s3500-480.toml", include_str!("../../presets/s3500-480.toml")),
    ("600pro-400.toml", include_str!("../../presets/600pro-400.toml")),
    ("710-200.toml", include_str!("../../presets/710-200.toml")),
    ("x25e-64.toml", include_str!("../../presets/x25e-64.toml")),
    ("320-300.toml", include_str!("../../presets/320-300.toml")),
    ("330-240.toml", include_str!("../../presets/330-240.toml")),
    ("520-240.toml", include_str!("../../presets/520-240.toml")),
    ("mk4001-400.toml", include_str!("../../presets/mk4001-400.toml")),
    ("p400e-400.toml", include_str!("../../presets/p400e-400.toml")),
    ("840pro-256.toml", include_str!("../../presets/840pro-256.toml")),
    ("ssd400s-400.toml", include_str!("../../presets/ssd400s-400.toml")),
    ("p3700-400.toml", include_str!("../../presets/p3700-400.toml")),
    ("p3700-1600.toml", include_str!("../../presets/p3700-1600.toml")),
    ("p3600-1600.toml", include_str!("../../presets/p3600-1600.toml")),
    ("p3500-1600.toml", include_str!("../../presets/p3500-1600.toml")),
    ("p420m-1400.toml", include_str!("../../presets/p420m-1400.toml")),
    ("910-800.toml", include_str!("../../presets/910-800.toml")),
];

/// A drive as its file gives it, with the source of each value (by parameter path).
#[derive(Debug, Clone)]
pub struct Preset {
    pub drive: DriveConfig,
    pub sources: BTreeMap<String, String>,
}

/// Parses one preset file (TOML); errors name the file and the field.
pub fn parse(file_name: &str, text: &str) -> Result<Preset, ConfigError> {
    let mut table: toml::Table = toml::from_str(text)
        .map_err(|e| ConfigError::new(file_name, format!("is not valid TOML ({})", e.message())))?;
    let mut sources = BTreeMap::new();
    take_sources("", &mut table, &mut sources).map_err(|m| ConfigError::new(file_name, m))?;
    let drive: DriveConfig = serde_path_to_error::deserialize(toml::Value::Table(table))
        .map_err(|e| ConfigError::new(format!("{}: {}", file_name, e.path()), e.inner().message().to_string()))?;
    drive.validate().map_err(|e| ConfigError::new(format!("{}: {}", file_name, e.field), e.message))?;
    if let Some(path) = sources.keys().find(|p| !super::parameter_paths(&drive).contains(p)) {
        return Err(ConfigError::new(file_name, format!("a source is given for '{}', which is not a parameter", path)));
    }
    Ok(Preset { drive, sources })
}

/// Removes every `sources` table from `table` and its sections, collecting them by path.
fn take_sources(prefix: &str, table: &mut toml::Table, out: &mut BTreeMap<String, String>) -> Result<(), String> {
    if let Some(sources) = table.remove("sources") {
        let toml::Value::Table(sources) = sources else { return Err(format!("{}sources must be a table", prefix)) };
        for (field, text) in sources {
            let toml::Value::String(text) = text else {
                return Err(format!("{}sources.{} must be a string", prefix, field));
            };
            out.insert(format!("{}{}", prefix, field), text);
        }
    }
    for (key, value) in table.iter_mut() {
        if let toml::Value::Table(section) = value {
            take_sources(&format!("{}{}.", prefix, key), section, out)?;
        }
    }
    Ok(())
}

/// Every preset, parsed once.
pub fn presets() -> &'static [Preset] {
    static PRESETS: OnceLock<Vec<Preset>> = OnceLock::new();
    PRESETS.get_or_init(|| {
        FILES.iter().map(|(name, text)| parse(name, text).unwrap_or_else(|e| panic!("built-in preset {}", e))).collect()
    })
}

/// Every preset drive, in the order the UI lists them.
pub fn all() -> Vec<DriveConfig> {
    presets().iter().map(|p| p.drive.clone()).collect()
}

pub fn by_id(id: &str) -> Result<DriveConfig, ConfigError> {
    presets().iter().find(|p| p.drive.id == id).map(|p| p.drive.clone()).ok_or_else(|| {
        let ids: Vec<&str> = presets().iter().map(|p| p.drive.id.as_str()).collect();
        ConfigError::new("drive", format!("unknown drive '{}' (allowed: {})", id, ids.join(", ")))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_file_loads_with_sources_and_ids_are_unique() {
        let ids: std::collections::BTreeSet<&str> = presets().iter().map(|p| p.drive.id.as_str()).collect();
        assert_eq!(ids.len(), FILES.len());
        for p in presets() {
            assert!(p.sources.contains_key("geometry.dies"), "{} gives no source for its dies", p.drive.id);
        }
    }

    #[test]
    fn a_bad_file_is_named_with_its_field() {
        let text = FILES[0].1.replace("dies = 33", "dies = \"many\"");
        let e = parse("x.toml", &text).unwrap_err();
        assert_eq!(e.field, "x.toml: geometry.dies");
        assert!(e.message.contains("u32"), "{}", e.message);
        let text = FILES[0].1.replace("channels = 8", "channels = 8\nchanels = 9");
        assert!(parse("x.toml", &text).unwrap_err().message.contains("chanels"));
        let text = FILES[0].1.replace("dies = 33", "dies = 3");
        assert_eq!(parse("x.toml", &text).unwrap_err().field, "x.toml: geometry.dies");
    }
}
