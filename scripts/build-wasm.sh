#!/usr/bin/env bash
# Builds the engine for the browser: web/src/engine/pkg/ssdlab_wasm.js + ssdlab_wasm_bg.wasm.
#
#   cargo build (wasm32, release) -> wasm-bindgen --target web -> wasm-opt -O3 (optional)
#
# Environment:
#   SSDLAB_WASM_OPT=0   skip wasm-opt (it is also skipped when the input has not changed)
#   SSDLAB_CACHE        where setup.sh put wasm-bindgen (default $HOME/.cache/ssdlab)
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '[build-wasm] %s\n' "$*"; }
out_dir=web/src/engine/pkg

wb_version="$(bash scripts/wasm-bindgen-version.sh)"
wb_bin="${SSDLAB_CACHE:-$HOME/.cache/ssdlab}/wasm-bindgen-$wb_version/bin/wasm-bindgen"
if [ ! -x "$wb_bin" ]; then
  echo "build-wasm.sh: $wb_bin is missing; run: bash scripts/setup.sh" >&2
  exit 1
fi

say "cargo build -p ssdlab-wasm --release --target wasm32-unknown-unknown"
cargo build -p ssdlab-wasm --release --target wasm32-unknown-unknown

target_dir="$(cargo metadata --format-version 1 --no-deps | node -e '
  let s = ""; process.stdin.on("data", d => (s += d)).on("end", () => console.log(JSON.parse(s).target_directory));')"
wasm_in="$target_dir/wasm32-unknown-unknown/release/ssdlab_wasm.wasm"

# wasm-bindgen and wasm-opt only rerun when the compiled module changed.
in_sum="$(sha256sum "$wasm_in" | cut -d' ' -f1)"
stamp="$out_dir/.build-stamp"
want_opt="${SSDLAB_WASM_OPT:-1}"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$in_sum opt=$want_opt" ] && [ -f "$out_dir/ssdlab_wasm.js" ]; then
  say "up to date ($out_dir)"
  exit 0
fi

say "wasm-bindgen $wb_version --target web --out-dir $out_dir"
rm -rf "$out_dir"
"$wb_bin" "$wasm_in" --target web --out-dir "$out_dir"

bg="$out_dir/ssdlab_wasm_bg.wasm"
if [ "$want_opt" != 0 ]; then
  wasm_opt=node_modules/.bin/wasm-opt
  if [ -x "$wasm_opt" ]; then
    before=$(stat -c %s "$bg")
    start=$(date +%s)
    # The features rustc enables by default for wasm32-unknown-unknown.
    if "$wasm_opt" -O3 \
        --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
        --enable-mutable-globals --enable-reference-types --enable-multivalue \
        "$bg" -o "$bg.opt"; then
      mv "$bg.opt" "$bg"
      say "wasm-opt -O3: $before -> $(stat -c %s "$bg") bytes in $(( $(date +%s) - start )) s"
    else
      rm -f "$bg.opt"
      say "WARNING: wasm-opt failed; keeping the unoptimised module"
    fi
  else
    say "wasm-opt not installed (npm package binaryen); skipping"
  fi
fi
echo "$in_sum opt=$want_opt" > "$stamp"
say "done: $(ls "$out_dir" | tr '\n' ' ')"
