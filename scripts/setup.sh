#!/usr/bin/env bash
# Installs what SSD Lab needs to build and test, and nothing that is already there.
#
#   bash scripts/setup.sh         Rust wasm target, wasm-bindgen-cli, npm packages (npm start, build)
#   bash scripts/setup.sh --test  the same, plus what the tests need: fio and Debian's Chromium
#
# Idempotent: when everything is present it only checks, in about a second. On a fresh machine
# the one long step is compiling wasm-bindgen-cli (once; see README for the times); the npm
# packages install beside it.
# Environment:
#   CHROMIUM_PATH   Chromium executable Playwright uses (default /usr/bin/chromium)
#   SSDLAB_CACHE    where pinned tools go (default $HOME/.cache/ssdlab)
set -euo pipefail
cd "$(dirname "$0")/.."

for_tests=0
for arg in "$@"; do
  case "$arg" in
    --test) for_tests=1 ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
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

# --- npm packages, installed in the background while Rust compiles -------------
# A stamp of package.json + package-lock.json says whether node_modules is current.
stamp=node_modules/.ssdlab-install-stamp
npm_sum="$(cat package.json package-lock.json 2>/dev/null | sha256sum | cut -d' ' -f1)"
npm_pid=
npm_log="$(mktemp)"
# If a later step fails, the install in the background stops with it.
stop_npm() {
  if [ -n "$npm_pid" ]; then kill "$npm_pid" 2>/dev/null || true; fi
  rm -f "$npm_log"
}
trap stop_npm EXIT
if [ ! -f package-lock.json ] || [ ! -d node_modules ] || [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$npm_sum" ]; then
  if [ -f package-lock.json ]; then npm_cmd=ci; else npm_cmd=install; fi
  say "npm $npm_cmd (in the background)"
  npm "$npm_cmd" --no-audit --no-fund >"$npm_log" 2>&1 &
  npm_pid=$!
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
  say "compiling wasm-bindgen-cli $wb_version into $wb_root: once per machine, about 1.5 minutes on 2 cores"
  t0=$(date +%s)
  # Only the `wasm-bindgen` binary, without the test runner's TLS stack (default feature), and
  # unoptimised: that halves the compile (95 s against 200 s at opt-level 1 on 2 cores), the
  # larger part of a first start, and leaves its output byte for byte the same, in 0.4-0.6 s a
  # module instead of 0.1-0.2 s. Not --locked: its lock file names crate versions that a
  # registry mirror may not have yet.
  CARGO_PROFILE_RELEASE_OPT_LEVEL=0 CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_DEBUG=false \
    cargo install wasm-bindgen-cli --version "$wb_version" --root "$wb_root" \
      --no-default-features --bin wasm-bindgen
  say "wasm-bindgen-cli compiled in $(( $(date +%s) - t0 )) s"
fi

if [ -n "$npm_pid" ]; then
  if ! wait "$npm_pid"; then
    cat "$npm_log" >&2
    echo "setup.sh: npm $npm_cmd failed" >&2
    exit 1
  fi
  tail -n 3 "$npm_log" | sed 's/^/[setup] npm: /'
  echo "$npm_sum" > "$stamp"
fi

# --- fio: the fio tests compare the simulator's output with real fio's (--test) --
# Debian's fio (3.33); without it those tests skip with a message.
if [ "$for_tests" = 1 ] && ! command -v fio >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    say "installing Debian's fio"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y fio || { apt-get update && apt-get install -y fio; }
  else
    say "fio not found: the tests against real fio will skip (as root: apt-get install -y fio)"
  fi
fi

# --- Chromium for Playwright (--test) --------------------------------------
# Playwright's own browser download is not used: it drives Debian's Chromium.
if [ "$for_tests" = 1 ]; then
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
