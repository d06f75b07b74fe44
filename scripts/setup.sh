#!/usr/bin/env bash
# Installs what building (and, with `test`, testing) the playground needs, at pinned versions.
# Idempotent: whatever is already present at the right version is skipped, so a second run takes
# seconds. Usage: scripts/setup.sh [build|test]   (default: test)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"
WHAT="${1:-test}"
say() { echo "setup: $*"; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

if trunk --version 2>/dev/null | grep -qw "$TRUNK_VERSION"; then
  say "trunk $TRUNK_VERSION present"
else
  say "installing trunk $TRUNK_VERSION (takes a few minutes)"
  CARGO_PROFILE_RELEASE_LTO=off CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
    cargo install trunk --version "$TRUNK_VERSION" --locked
fi

if wasm-bindgen --version 2>/dev/null | grep -qw "$WASM_BINDGEN_VERSION"; then
  say "wasm-bindgen $WASM_BINDGEN_VERSION present"
else
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION"
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --locked
fi

# binaryen (wasm-opt) and Playwright come from package-lock.json.
if [ -x node_modules/.bin/wasm-opt ] && [ -d node_modules/@playwright/test ] \
  && [ node_modules/.package-lock.json -nt package-lock.json ]; then
  say "npm packages present"
else
  say "installing npm packages (binaryen, @playwright/test)"
  npm ci --no-audit --no-fund
fi
say "$(wasm-opt --version)"

if [ "$WHAT" = test ]; then
  if [ -x "$CHROMIUM" ]; then
    say "chromium present at $CHROMIUM"
  else
    say "installing Debian's chromium"
    SUDO=""
    if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
    $SUDO apt-get update
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y chromium chromium-driver
  fi
fi
