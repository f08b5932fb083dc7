#!/usr/bin/env bash
# The whole test suite, in order: Rust tests, wasm build, web unit tests,
# type check, production build, then Playwright against the built app.
set -euo pipefail
cd "$(dirname "$0")/.."

bin=node_modules/.bin
t_all=$(date +%s)
step() {
  local name="$1"; shift
  local t0; t0=$(date +%s)
  printf '\n[test] === %s ===\n' "$name"
  "$@"
  printf '[test] %s: %d s\n' "$name" $(( $(date +%s) - t0 ))
}

step "setup"           bash scripts/setup.sh --test
step "cargo fmt"       cargo fmt --all --check
step "cargo clippy"    cargo clippy --workspace --all-targets --profile ci -- -D warnings
step "cargo test"      cargo test --workspace --profile ci
# The page's first wasm module is the shell without its default feature (scripts/build-wasm.sh).
step "first module"    cargo clippy -p ssdlab-wasm --profile ci --no-default-features --all-targets -- -D warnings
step "first module"    cargo test -p ssdlab-wasm --profile ci --no-default-features --lib
step "build wasm"      bash scripts/build-wasm.sh
# The page's format (.prettierrc.json) and lint (eslint.config.js).
step "prettier"        "$bin/prettier" --check web eslint.config.js
step "eslint"          "$bin/eslint" --max-warnings 0 web
step "typecheck"       "$bin/tsc" -p tsconfig.json --noEmit
step "vitest"          "$bin/vitest" run
step "vite build"      "$bin/vite" build
step "playwright"      "$bin/playwright" test
printf '\n[test] all passed in %d s\n' $(( $(date +%s) - t_all ))
