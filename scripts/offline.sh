#!/usr/bin/env bash
# Writes DIR/sw.js, the service worker that keeps the site in DIR usable offline, from the
# template www/sw.js: the list of every file in DIR (relative paths, and "./" for the folder
# itself) and a hash of their contents, which names the cache, so that each new deploy replaces
# the previous one's cache. Usage: scripts/offline.sh DIR   (scripts/build-api.sh runs it).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIR="${1:?usage: scripts/offline.sh DIR}"
cd "$DIR"
# Every file but the worker itself and TypeScript declarations (which no page loads).
mapfile -t FILES < <(find . -type f ! -path ./sw.js ! -name '*.d.ts' | sed 's|^\./||' | LC_ALL=C sort)
BUILD="$(for f in "${FILES[@]}"; do printf '%s\n' "$f"; sha256sum < "$f"; done | sha256sum | cut -c1-16)"
LIST='["./"'
for f in "${FILES[@]}"; do
  case "$f" in *[\"\\]*) echo "offline.sh: cannot list a file name with quotes: $f" >&2; exit 1 ;; esac
  LIST+=", \"./$f\""
done
LIST+=']'
sed -e "s|__PTXLAB_BUILD__|$BUILD|" -e "s|__PTXLAB_FILES__|$LIST|" "$ROOT/www/sw.js" > sw.js
echo "offline.sh: sw.js caches ${#FILES[@]} files as build $BUILD"
