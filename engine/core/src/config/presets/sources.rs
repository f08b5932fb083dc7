//! A preset file's `sources` tables: where each value comes from, by parameter path. `build.rs`
//! includes this file too, to write each preset's sources apart from its drive (see `SOURCES`).

use std::collections::BTreeMap;

pub type JsonTable = serde_json::Map<String, serde_json::Value>;

/// Removes every `sources` table from `table` and its sections, collecting them by path.
pub fn take_sources(prefix: &str, table: &mut JsonTable, out: &mut BTreeMap<String, String>) -> Result<(), String> {
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
