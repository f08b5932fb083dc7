//! The drive presets: the products the articles measured, as data files in
//! `engine/core/presets/`, one per drive, that a reader can open and diff. Each section of a
//! file ends with `sources.FIELD` lines saying where each value comes from; they are kept apart
//! from the drive's parameters (`sources`).
//!
//! To add a drive: write its file (copy the nearest one) and add one line to `preset_files!`.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use super::DriveConfig;
use crate::units::ConfigError;

mod sources;

/// The preset files as the engine embeds them: `build.rs` turns each TOML file into the JSON of
/// its drive (`FILES`) and of its sources (`SOURCES`), in the order the UI lists them.
macro_rules! preset_files {
    ($($name:literal),* $(,)?) => {
        const FILES: &[(&str, &str)] = &[$(($name, include_str!(concat!(env!("OUT_DIR"), "/", $name, ".json")))),*];
        /// Only `sources` reads these, so a build that never calls it (the page's first wasm
        /// module) leaves their text out: most of a preset's bytes.
        const SOURCES: &[&str] = &[$(include_str!(concat!(env!("OUT_DIR"), "/", $name, ".sources.json"))),*];
    };
}

preset_files![
    "s3700-200.toml",
    "s3700-100.toml",
    "s3700-400.toml",
    "s3700-800.toml",
    "s3500-480.toml",
    "600pro-400.toml",
    "710-200.toml",
    "x25e-64.toml",
    "320-300.toml",
    "330-240.toml",
    "520-240.toml",
    "mk4001-400.toml",
    "p400e-400.toml",
    "840pro-256.toml",
    "ssd400s-400.toml",
    "p3700-400.toml",
    "p3700-1600.toml",
    "p3600-1600.toml",
    "p3500-1600.toml",
    "p420m-1400.toml",
    "910-800.toml",
    "980pro-1000.toml",
    "980-1000.toml",
    "nm800pro-2000.toml",
    "atom50-1000.toml",
    "870qvo-1000.toml",
    "870qvo-4000.toml",
    "rc100-480.toml",
    "m390-1000.toml",
    "fdp-s3700-200.toml",
    "zn540-small.toml",
];

/// A drive as its file gives it, with the source of each value (by parameter path).
#[derive(Debug, Clone)]
pub struct Preset {
    pub drive: DriveConfig,
    pub sources: BTreeMap<String, String>,
}

/// Parses one preset file (TOML); errors name the file and the field's path, or a source given
/// for a path that is not a parameter. The engine reads its own presets from JSON without this
/// path tracking (see `presets`); the tests check that both readings of every file give the
/// same drive and sources.
pub fn parse(file_name: &str, text: &str) -> Result<Preset, ConfigError> {
    let table: toml::Table = toml::from_str(text)
        .map_err(|e| ConfigError::new(file_name, format!("is not valid TOML ({})", e.message())))?;
    let mut tree = serde_json::to_value(table).map_err(|e| ConfigError::new(file_name, e.to_string()))?;
    let table = tree.as_object_mut().ok_or_else(|| ConfigError::new(file_name, "must be a table of settings"))?;
    let mut sources = BTreeMap::new();
    sources::take_sources("", table, &mut sources).map_err(|m| ConfigError::new(file_name, m))?;
    let drive = serde_path_to_error::deserialize(tree)
        .map_err(|e| ConfigError::new(format!("{}: {}", file_name, e.path()), e.inner().to_string()));
    let drive = validated(file_name, drive)?;
    if let Some(path) = sources.keys().find(|p| !super::parameter_paths(&drive).contains(p)) {
        return Err(ConfigError::new(file_name, format!("a source is given for '{}', which is not a parameter", path)));
    }
    Ok(Preset { drive, sources })
}

/// A decoded drive, checked; errors name the file.
fn validated(file_name: &str, drive: Result<DriveConfig, ConfigError>) -> Result<DriveConfig, ConfigError> {
    let drive = drive?;
    drive.validate().map_err(|e| ConfigError::new(format!("{}: {}", file_name, e.field), e.message))?;
    Ok(drive)
}

/// Every preset drive, parsed once from the JSON `build.rs` made of its file. Decoded without
/// `parse`'s path tracking, which would double the decoding code in the browser's wasm module; a
/// file that does not decode is named by the presets test, through `parse`.
pub fn presets() -> &'static [DriveConfig] {
    static PRESETS: OnceLock<Vec<DriveConfig>> = OnceLock::new();
    PRESETS.get_or_init(|| {
        FILES
            .iter()
            .map(|(name, json)| {
                // Through a `Value`, as overrides and requests decode: reading a drive straight
                // from text would add a second copy of its decoding code (33 KB of wasm).
                let drive = serde_json::from_str(json)
                    .and_then(serde_json::from_value)
                    .map_err(|e| ConfigError::new(*name, e.to_string()));
                validated(name, drive).unwrap_or_else(|e| panic!("built-in preset {}", e))
            })
            .collect()
    })
}

/// Every preset drive, in the order the UI lists them.
pub fn all() -> Vec<DriveConfig> {
    presets().to_vec()
}

pub fn by_id(id: &str) -> Result<DriveConfig, ConfigError> {
    index_of(id).map(|i| presets()[i].clone())
}

/// Where each of a preset's values comes from: parameter path -> text (`ssdlab presets
/// --sources`, the page's drive sources from the full wasm module).
pub fn sources(id: &str) -> Result<BTreeMap<String, String>, ConfigError> {
    let i = index_of(id)?;
    serde_json::from_str(SOURCES[i])
        .and_then(serde_json::from_value)
        .map_err(|e| ConfigError::new(FILES[i].0, e.to_string()))
}

fn index_of(id: &str) -> Result<usize, ConfigError> {
    presets().iter().position(|d| d.id == id).ok_or_else(|| {
        let ids: Vec<&str> = presets().iter().map(|d| d.id.as_str()).collect();
        ConfigError::new("drive", format!("unknown drive '{}' (allowed: {})", id, ids.join(", ")))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A preset file's TOML text, as people edit it.
    fn toml_text(file_name: &str) -> String {
        std::fs::read_to_string(format!("{}/presets/{}", env!("CARGO_MANIFEST_DIR"), file_name)).unwrap()
    }

    #[test]
    fn every_preset_file_loads_with_sources_and_ids_are_unique() {
        // Through `parse` first, so a bad file is named with its field, and its drive and sources
        // must be what the engine reads from the embedded JSON.
        let parsed: Vec<Preset> =
            FILES.iter().map(|(name, _)| parse(name, &toml_text(name)).unwrap_or_else(|e| panic!("{}", e))).collect();
        for (((name, _), parsed), built_in) in FILES.iter().zip(parsed).zip(presets()) {
            assert_eq!(&parsed.drive, built_in, "{}", name);
            assert_eq!(parsed.sources, sources(&built_in.id).unwrap(), "{}", name);
        }
        let ids: std::collections::BTreeSet<&str> = presets().iter().map(|d| d.id.as_str()).collect();
        assert_eq!(ids.len(), FILES.len());
        for d in presets() {
            assert!(sources(&d.id).unwrap().contains_key("geometry.dies"), "{} gives no source for its dies", d.id);
        }
    }

    #[test]
    fn a_bad_file_is_named_with_its_field() {
        let text = toml_text(FILES[0].0).replace("dies = 33", "dies = \"many\"");
        let e = parse("x.toml", &text).unwrap_err();
        assert_eq!(e.field, "x.toml: geometry.dies");
        assert!(e.message.contains("u32"), "{}", e.message);
        let text = toml_text(FILES[0].0).replace("channels = 8", "channels = 8\nchanels = 9");
        assert!(parse("x.toml", &text).unwrap_err().message.contains("chanels"));
        let text = toml_text(FILES[0].0).replace("dies = 33", "dies = 3");
        assert_eq!(parse("x.toml", &text).unwrap_err().field, "x.toml: geometry.dies");
    }
}
