//! Turns the data files people edit (TOML: the drive presets, the array test bed and the
//! calibration targets) into JSON in
//! `OUT_DIR`, which the engine embeds and reads. The engine then carries no TOML parser for its
//! own data, which keeps the browser's wasm module smaller (a file's TOML errors fail the build).

use std::{env, fs, path::Path};

fn main() {
    let out = env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    for dir in ["presets", "presets/arrays"] {
        println!("cargo:rerun-if-changed={}", dir);
        let mut files: Vec<_> = fs::read_dir(dir).expect("the presets folder").flatten().map(|e| e.path()).collect();
        files.sort();
        for path in files.into_iter().filter(|p| p.extension().is_some_and(|e| e == "toml")) {
            to_json(&path, &out);
        }
    }
    println!("cargo:rerun-if-changed=calibration.toml");
    to_json(Path::new("calibration.toml"), &out);
}

/// `OUT_DIR/<file name>.json`: the TOML file's table as JSON.
fn to_json(path: &Path, out: &str) {
    let text = fs::read_to_string(path).expect("a readable data file");
    let table: toml::Table = toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {}", path.display(), e));
    let name = path.file_name().expect("a file name").to_string_lossy();
    let json = serde_json::to_string(&table).expect("TOML values are JSON values");
    fs::write(Path::new(out).join(format!("{}.json", name)), json).expect("OUT_DIR is writable");
}
