//! The drive presets: the products the articles measured, as data files in
//! `engine/core/presets/`, one per drive, that a reader can open and diff. Each section of a
//! file ends with `sources.FIELD` lines saying where each value comes from; they are kept apart
//! from the drive's parameters.
//!
//! To add a drive: write its file (copy the nearest one) and add one line to `FILES`.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use super::DriveConfig;

type JsonTable = serde_json::Map<String, serde_json::Value>;
use crate::units::ConfigError;

/// A preset file as the engine embeds it: `build.rs` turns each TOML file into JSON.
macro_rules! preset_file {
    ($name:literal) => {
        ($name, include_str!(concat!(env!("OUT_DIR"), "/", $name, ".json")))
    };
}

/// Every preset file, in the order the UI lists them.
const FILES: [(&str, &str); 25] = [
    preset_file!("s3700-200.toml"),
    preset_file!("s3700-100.toml"),
    preset_file!("s3700-400.toml"),
    preset_file!("s3700-800.toml"),
    preset_file!("s3500-480.toml"),
    preset_file!("600pro-400.toml"),
    preset_file!("710-200.toml"),
    preset_file!("x25e-64.toml"),
    preset_file!("320-300.toml"),
    preset_file!("330-240.toml"),
    preset_file!("520-240.toml"),
    preset_file!("mk4001-400.toml"),
    preset_file!("p400e-400.toml"),
    preset_file!("840pro-256.toml"),
    preset_file!("ssd400s-400.toml"),
    preset_file!("p3700-400.toml"),
    preset_file!("p3700-1600.toml"),
    preset_file!("p3600-1600.toml"),
    preset_file!("p3500-1600.toml"),
    preset_file!("p420m-1400.toml"),
    preset_file!("910-800.toml"),
    preset_file!("980pro-1000.toml"),
    preset_file!("980-1000.toml"),
    preset_file!("870qvo-1000.toml"),
    preset_file!("rc100-480.toml"),
];

/// A drive as its file gives it, with the source of each value (by parameter path).
#[derive(Debug, Clone)]
pub struct Preset {
    pub drive: DriveConfig,
    pub sources: BTreeMap<String, String>,
}

/// Parses one preset file (TOML); errors name the file and the field's path. The engine reads
/// its own presets from JSON without this path tracking (see `presets`); the tests check that
/// both readings of every file give the same drive.
pub fn parse(file_name: &str, text: &str) -> Result<Preset, ConfigError> {
    let table: toml::Table = toml::from_str(text)
        .map_err(|e| ConfigError::new(file_name, format!("is not valid TOML ({})", e.message())))?;
    let tree = serde_json::to_value(table).map_err(|e| ConfigError::new(file_name, e.to_string()))?;
    from_tree(file_name, tree, |tree| {
        serde_path_to_error::deserialize(tree)
            .map_err(|e| ConfigError::new(format!("{}: {}", file_name, e.path()), e.inner().to_string()))
    })
}

/// A preset from its file's values, its drive decoded by `decode`.
fn from_tree(
    file_name: &str,
    mut tree: serde_json::Value,
    decode: impl FnOnce(serde_json::Value) -> Result<DriveConfig, ConfigError>,
) -> Result<Preset, ConfigError> {
    let table = tree.as_object_mut().ok_or_else(|| ConfigError::new(file_name, "must be a table of settings"))?;
    let mut sources = BTreeMap::new();
    take_sources("", table, &mut sources).map_err(|m| ConfigError::new(file_name, m))?;
    let drive = decode(tree)?;
    drive.validate().map_err(|e| ConfigError::new(format!("{}: {}", file_name, e.field), e.message))?;
    if let Some(path) = sources.keys().find(|p| !super::parameter_paths(&drive).contains(p)) {
        return Err(ConfigError::new(file_name, format!("a source is given for '{}', which is not a parameter", path)));
    }
    Ok(Preset { drive, sources })
}

/// Removes every `sources` table from `table` and its sections, collecting them by path.
fn take_sources(prefix: &str, table: &mut JsonTable, out: &mut BTreeMap<String, String>) -> Result<(), String> {
    if let Some(sources) = table.remove("sources") {
        let serde_json::Value::Object(sources) = sources else {
            return Err(format!("{}sources must be a table", prefix));
        };
        for (field, text) in sources {
            let serde_json::Value::String(text) = text else {
                return Err(format!("{}sources.{} must be a string", prefix, field));
            };
            out.insert(format!("{}{}", prefix, field), text);
        }
    }
    for (key, value) in table.iter_mut() {
        if let serde_json::Value::Object(section) = value {
            take_sources(&format!("{}{}.", prefix, key), section, out)?;
        }
    }
    Ok(())
}

/// Every preset, parsed once from the JSON `build.rs` made of its file. Decoded without `parse`'s
/// path tracking, which would double the decoding code in the browser's wasm module; a file that
/// does not decode is named by the presets test, through `parse`.
pub fn presets() -> &'static [Preset] {
    static PRESETS: OnceLock<Vec<Preset>> = OnceLock::new();
    PRESETS.get_or_init(|| {
        FILES
            .iter()
            .map(|(name, json)| {
                let tree = serde_json::from_str(json).unwrap_or_else(|e| panic!("built-in preset {}: {}", name, e));
                from_tree(name, tree, |tree| {
                    serde_json::from_value(tree).map_err(|e| ConfigError::new(*name, e.to_string()))
                })
                .unwrap_or_else(|e| panic!("built-in preset {}", e))
            })
            .collect()
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
            assert_eq!(parsed.drive, built_in.drive, "{}", name);
            assert_eq!(parsed.sources, built_in.sources, "{}", name);
        }
        let ids: std::collections::BTreeSet<&str> = presets().iter().map(|p| p.drive.id.as_str()).collect();
        assert_eq!(ids.len(), FILES.len());
        for p in presets() {
            assert!(p.sources.contains_key("geometry.dies"), "{} gives no source for its dies", p.drive.id);
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
