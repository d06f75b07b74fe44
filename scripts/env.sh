# Sourced by the other scripts: puts the pinned tools first on PATH and keeps every tool offline.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="$ROOT/node_modules/.bin:$HOME/.cargo/bin:$PATH"
# Trunk: never download wasm-bindgen or wasm-opt, never ask for newer versions.
export TRUNK_OFFLINE=true
export TRUNK_SKIP_VERSION_CHECK=true
# Playwright drives the system's Chromium; it must never fetch a browser of its own.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
export CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
TRUNK_VERSION=0.21.14
WASM_BINDGEN_VERSION=0.2.129
