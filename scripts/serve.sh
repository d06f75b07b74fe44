#!/usr/bin/env bash
# Builds the release playground and serves it on http://127.0.0.1:${PORT:-8080}/ until stopped.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"
PORT="${PORT:-8080}"
./scripts/setup.sh build
trunk build --release
echo "serving the playground on http://127.0.0.1:$PORT/ (Ctrl-C stops it)"
exec python3 -m http.server "$PORT" --bind 127.0.0.1 --directory dist
