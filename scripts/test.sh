#!/usr/bin/env bash
# Runs every check, stopping at the first failure: formatting, lints, unit and conformance tests
# of the whole workspace, the release build, then the end-to-end tests in headless Chromium
# against that build. Ends with a plain "N passed, M failed" line for the end-to-end suite.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"
step() { echo; echo "==> $*"; }
# Without the measured data the conformance tests only explain what is missing; here that fails.
export PTXLAB_REQUIRE_SHARED=1

./scripts/setup.sh test

step "cargo fmt --all --check"
cargo fmt --all --check
step "cargo clippy --workspace --all-targets -- -D warnings"
cargo clippy --workspace --all-targets -- -D warnings
step "cargo clippy (browser build of the playground) -- -D warnings"
cargo clippy -p ptxlab-web --target wasm32-unknown-unknown -- -D warnings
step "cargo clippy (the JavaScript module of the core) -- -D warnings"
cargo clippy -p ptxlab-js --target wasm32-unknown-unknown -- -D warnings
step "cargo test --workspace"
cargo test --workspace
step "cargo doc -p ptxlab-core (every public item documented, warnings denied)"
RUSTDOCFLAGS="-D warnings" cargo doc -p ptxlab-core --no-deps
step "cargo package -p ptxlab-core -p ptxlab-cli (what crates.io would get, built from the packages)"
# A clean checkout (CI) packages as it is; a working copy with uncommitted edits needs
# --allow-dirty, or cargo refuses to package it.
DIRTY=()
if [ -n "$(git status --porcelain 2>/dev/null)" ]; then DIRTY=(--allow-dirty); fi
# ptxlab-cli is verified against the packaged ptxlab-core through a local registry. Cargo takes
# registry packages to be immutable per version, so with the usual target folder it would reuse
# an earlier run's build of ptxlab-core 0.1.0; a fresh target folder builds today's package.
# Unpacked copies of earlier packages are removed from the registry cache for the same reason.
rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/ptxlab-core-[0-9]*
PACKAGE_TARGET="$(mktemp -d)"
cargo package -p ptxlab-core -p ptxlab-cli "${DIRTY[@]}" --target-dir "$PACKAGE_TARGET"
rm -rf "$PACKAGE_TARGET" "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/ptxlab-core-[0-9]*
step "trunk build --release"
trunk build --release

step "end-to-end tests against dist/"
PORT_E2E="${E2E_PORT:-$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}"
python3 -m http.server "$PORT_E2E" --bind 127.0.0.1 --directory dist >/dev/null 2>&1 &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true' EXIT
for _ in $(seq 1 50); do
  if python3 -c "import urllib.request,sys; urllib.request.urlopen('http://127.0.0.1:$PORT_E2E/')" 2>/dev/null; then break; fi
  sleep 0.2
done
rm -rf test-results
set +e
PTXLAB_URL="http://127.0.0.1:$PORT_E2E/" playwright test
E2E=$?
set -e
kill "$SERVER" 2>/dev/null || true
if ls test-results/timings*.txt >/dev/null 2>&1; then
  echo; echo "==> measured (release build, headless Chromium)"; cat test-results/timings*.txt
fi
echo
node -e '
  const fs = require("fs");
  let s = { expected: 0, flaky: 0, unexpected: 0 };
  try { s = JSON.parse(fs.readFileSync("test-results/e2e-report.json", "utf8")).stats; } catch (e) {}
  console.log(`${s.expected + s.flaky} passed, ${s.unexpected} failed`);
'
exit "$E2E"
