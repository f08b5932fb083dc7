#!/usr/bin/env bash
# Prints the version of the wasm-bindgen crate that Cargo.lock resolved.
set -euo pipefail
cd "$(dirname "$0")/.."
version="$(awk '
  /^\[\[package\]\]/ { name = ""; next }
  /^name = / { gsub(/"/, "", $3); name = $3; next }
  /^version = / && name == "wasm-bindgen" { gsub(/"/, "", $3); print $3; exit }
' Cargo.lock)"
if [ -z "$version" ]; then
  echo "wasm-bindgen-version.sh: Cargo.lock has no wasm-bindgen package" >&2
  exit 1
fi
echo "$version"
