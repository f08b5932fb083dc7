#!/usr/bin/env bash
# Builds the engine for the browser, as two modules of the wasm shell (engine/wasm):
#   web/src/engine/pkg/ssdlab_wasm.js + ssdlab_wasm_bg.wasm       the first view's (no fio job
#       files, traces or experiments: `--no-default-features`), loaded with the page
#   web/src/engine/pkg-full/ssdlab_full.js + ssdlab_full_bg.wasm  everything, loaded when first
#       needed (web/src/engine/worker.ts, experimentWorker.ts)
#
#   cargo build (wasm32, release) -> wasm-bindgen --target web -> wasm-opt -O3 (optional), the two
#   modules side by side (the first in target/wasm-first, the full one in target)
#
# Environment:
#   SSDLAB_WASM_OPT=0   skip wasm-opt (it is also skipped when the input has not changed)
#   SSDLAB_CACHE        where setup.sh put wasm-bindgen (default $HOME/.cache/ssdlab)
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '[build-wasm] %s\n' "$*"; }

wb_version="$(bash scripts/wasm-bindgen-version.sh)"
wb_bin="${SSDLAB_CACHE:-$HOME/.cache/ssdlab}/wasm-bindgen-$wb_version/bin/wasm-bindgen"
if [ ! -x "$wb_bin" ]; then
  echo "build-wasm.sh: $wb_bin is missing; run: bash scripts/setup.sh" >&2
  exit 1
fi

# Compiles the shell with `$features` into `$target_dir` and prints the path of the module.
compile_module() {
  local features="$1" target_dir="$2"
  say "cargo build -p ssdlab-wasm --release --target wasm32-unknown-unknown $features --target-dir $target_dir" >&2
  cargo build -p ssdlab-wasm --release --target wasm32-unknown-unknown $features \
      --target-dir "$target_dir" --message-format=json-render-diagnostics \
    | node -e '
      let s = ""; process.stdin.on("data", d => (s += d)).on("end", () => {
        const files = s.split("\n").filter(Boolean).map(l => JSON.parse(l))
          .filter(m => m.reason === "compiler-artifact" && m.target && m.target.name === "ssdlab_wasm")
          .flatMap(m => m.filenames).filter(f => f.endsWith(".wasm"));
        if (!files.length) process.exit(1);
        console.log(files[files.length - 1]);
      });'
}

# The compiled module `$wasm_in` into `$out_dir` as `$name.js` + `${name}_bg.wasm`: wasm-bindgen,
# then wasm-opt; both only rerun when the compiled module changed.
finish_module() {
  local wasm_in="$1" out_dir="$2" name="$3"
  local in_sum stamp want_opt
  in_sum="$(sha256sum "$wasm_in" | cut -d' ' -f1)"
  stamp="$out_dir/.build-stamp"
  want_opt="${SSDLAB_WASM_OPT:-1}"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$in_sum opt=$want_opt" ] && [ -f "$out_dir/$name.js" ]; then
    say "up to date ($out_dir)"
    return 0
  fi

  say "wasm-bindgen $wb_version --target web --out-dir $out_dir --out-name $name"
  rm -rf "$out_dir"
  "$wb_bin" "$wasm_in" --target web --out-dir "$out_dir" --out-name "$name"

  local bg="$out_dir/${name}_bg.wasm"
  if [ "$want_opt" != 0 ]; then
    local wasm_opt=node_modules/.bin/wasm-opt
    if [ -x "$wasm_opt" ]; then
      local before start
      before=$(stat -c %s "$bg")
      start=$(date +%s)
      # The features rustc enables by default for wasm32-unknown-unknown.
      if "$wasm_opt" -O3 \
          --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
          --enable-mutable-globals --enable-reference-types --enable-multivalue \
          "$bg" -o "$bg.opt"; then
        mv "$bg.opt" "$bg"
        say "wasm-opt -O3 ($name): $before -> $(stat -c %s "$bg") bytes in $(( $(date +%s) - start )) s"
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
}

# Both modules, compiled and finished side by side. Each has its own target directory: a cdylib's
# file has no hash in its name, so in one directory the two builds would overwrite each other's
# module and recompile at every start; apart, a warm start compiles nothing, and the two compiles,
# each ending in a one-core link, can run at once.
build_module() {
  local features="$1" target_dir="$2" out_dir="$3" name="$4" wasm_in
  wasm_in="$(compile_module "$features" "$target_dir")"
  finish_module "$wasm_in" "$out_dir" "$name"
}
# The page's first module: drives, synthetic workloads, one run (what the first view needs).
build_module --no-default-features target/wasm-first web/src/engine/pkg ssdlab_wasm 2>&1 \
  | sed -u 's/^/[first module] /' &
first_pid=$!
# Everything (fio job files, traces, experiments, fio output): fetched when first needed.
build_module "" target web/src/engine/pkg-full ssdlab_full 2>&1 | sed -u 's/^/[full module] /'
wait "$first_pid"
