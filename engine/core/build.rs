//! Turns the data files people edit (TOML: the drive presets, the array test bed and the
//! calibration targets) into JSON in
//! `OUT_DIR`, which the engine embeds and reads. The engine then carries no TOML parser for its
//! own data, which keeps the browser's wasm module smaller (a file's TOML errors fail the build).
//! A drive preset's `sources` go to a file of their own (`<file>.sources.json`, path -> text), so
//! a build that never asks for them (the page's first wasm module) does not embed their text.

use std::collections::BTreeMap;
use std::{env, fs, path::Path};

#[path = "src/config/presets/sources.rs"]
mod sources;

fn main() {
    let out = env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    for dir in ["presets", "presets/arrays"] {
        println!("cargo:rerun-if-changed={}", dir);
        let mut files: Vec<_> = fs::read_dir(dir).expect("the presets folder").flatten().map(|e| e.path()).collect();
        files.sort();
        for path in files.into_iter().filter(|p| p.extension().is_some_and(|e| e == "toml")) {
            let mut table = read(&path);
            if dir == "presets" {
                let mut found = BTreeMap::new();
                sources::take_sources("", &mut table, &mut found)
                    .unwrap_or_else(|e| panic!("{}: {}", path.display(), e));
                write(&path, "sources.json", serde_json::to_value(found).expect("strings are JSON"), &out);
            }
            write(&path, "json", table.into(), &out);
        }
    }
    println!("cargo:rerun-if-changed=src/config/presets/sources.rs");
    println!("cargo:rerun-if-changed=calibration.toml");
    let calibration = Path::new("calibration.toml");
    write(calibration, "json", read(calibration).into(), &out);
}

/// A TOML data file's table, as JSON values.
fn read(path: &Path) -> sources::JsonTable {
    let text = fs::read_to_string(path).expect("a readable data file");
    let table: toml::Table = toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {}", path.display(), e));
    let serde_json::Value::Object(table) = serde_json::to_value(table).expect("TOML values are JSON values") else {
        panic!("{}: a TOML table is a JSON object", path.display())
    };
    table
}

/// `OUT_DIR/<file name>.<ending>`: `value` as JSON.
fn write(path: &Path, ending: &str, value: serde_json::Value, out: &str) {
    let name = path.file_name().expect("a file name").to_string_lossy();
    fs::write(Path::new(out).join(format!("{}.{}", name, ending)), value.to_string()).expect("OUT_DIR is writable");
}
