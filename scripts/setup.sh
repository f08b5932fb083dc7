#!/usr/bin/env bash
# Installs what SSD Lab needs to build and test, and nothing that is already there.
#
#   bash scripts/setup.sh            Rust wasm target, wasm-bindgen-cli, npm packages, fio
#   bash scripts/setup.sh --browser  the same, plus Debian's Chromium for Playwright
#
# Idempotent: when everything is present it only checks, in about a second.
# Environment:
#   CHROMIUM_PATH   Chromium executable Playwright uses (default /usr/bin/chromium)
#   SSDLAB_CACHE    where pinned tools go (default $HOME/.cache/ssdlab)
set -euo pipefail
cd "$(dirname "$0")/.."

want_browser=0
for arg in "$@"; do
  case "$arg" in
    --browser) want_browser=1 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "setup.sh: unknown argument: $arg" >&2; exit 2 ;;
  esac
done

say() { printf '[setup] %s\n' "$*"; }

# --- Rust: the wasm target -------------------------------------------------
if ! command -v cargo >/dev/null 2>&1; then
  echo "setup.sh: cargo not found; install Rust (https://rustup.rs) first" >&2
  exit 1
fi
if command -v rustup >/dev/null 2>&1; then
  if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    say "adding Rust target wasm32-unknown-unknown"
    rustup target add wasm32-unknown-unknown
  fi
else
  say "rustup not found; assuming the wasm32-unknown-unknown target is installed"
fi

# --- wasm-bindgen-cli, pinned to the wasm-bindgen crate in Cargo.lock ------
# The CLI and the crate must be the very same version or the glue won't load.
if [ ! -f Cargo.lock ]; then
  say "no Cargo.lock yet; resolving the workspace"
  cargo generate-lockfile
fi
wb_version="$(bash scripts/wasm-bindgen-version.sh)"
cache="${SSDLAB_CACHE:-$HOME/.cache/ssdlab}"
wb_root="$cache/wasm-bindgen-$wb_version"
wb_bin="$wb_root/bin/wasm-bindgen"
if [ ! -x "$wb_bin" ] || ! "$wb_bin" --version 2>/dev/null | grep -q " $wb_version\$"; then
  say "installing wasm-bindgen-cli $wb_version into $wb_root (takes a few minutes)"
  cargo install wasm-bindgen-cli --version "$wb_version" --root "$wb_root"
fi

# --- npm packages ----------------------------------------------------------
# A stamp of package.json + package-lock.json says whether node_modules is current.
stamp=node_modules/.ssdlab-install-stamp
if [ -f package-lock.json ]; then
  sum="$(cat package.json package-lock.json | sha256sum | cut -d' ' -f1)"
  if [ ! -d node_modules ] || [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$sum" ]; then
    say "npm ci"
    npm ci --no-audit --no-fund
    echo "$sum" > "$stamp"
  fi
else
  say "no package-lock.json; npm install"
  npm install --no-audit --no-fund
  cat package.json package-lock.json | sha256sum | cut -d' ' -f1 > "$stamp"
fi

# --- fio: the fio tests compare the simulator's output with real fio's -----
# Debian's fio (3.33); without it those tests skip with a message.
if ! command -v fio >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    say "installing Debian's fio"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y fio || { apt-get update && apt-get install -y fio; }
  else
    say "fio not found: the tests against real fio will skip (as root: apt-get install -y fio)"
  fi
fi

# --- Chromium for Playwright (only with --browser) -------------------------
# Playwright's own browser download is not used: it drives Debian's Chromium.
if [ "$want_browser" = 1 ]; then
  chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
  if [ ! -x "$chromium" ]; then
    if [ "$(id -u)" != 0 ]; then
      echo "setup.sh: $chromium is missing; as root run: apt-get update && apt-get install -y chromium" >&2
      exit 1
    fi
    say "installing Debian's chromium (for $chromium)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update
    apt-get install -y chromium
    if [ ! -x "$chromium" ]; then
      echo "setup.sh: chromium installed but $chromium does not exist; set CHROMIUM_PATH" >&2
      exit 1
    fi
  fi
fi
say "ok"
