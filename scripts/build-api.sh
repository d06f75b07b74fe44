#!/usr/bin/env bash
# Builds the JavaScript module of the core (crates/ptxlab-js, without the playground) into
# DIR/api/: ptxlab.js, an ES module made by the wasm-bindgen CLI with --target web, its
# ptxlab_bg.wasm (shrunk by wasm-opt -Oz in release builds) and ptxlab.d.ts. Then the
# playground's second module (src/views.rs: the Program, intrinsic, lesson and exercise views,
# which the page fetches when one of them opens) into DIR/views/ptxlab-views.js and its wasm,
# with the page's size-optimised profile. Then writes DIR/sw.js, the offline service worker
# (scripts/offline.sh), since its file list must include both modules. `trunk build` runs this after every build (the post_build hook in Trunk.toml), with
# DIR its staging folder; by hand: scripts/build-api.sh [DIR]   (default: dist)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"
OUT="${1:-${TRUNK_STAGING_DIR:-$ROOT/dist}}"
TARGET_DIR="$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')"
if [ "${TRUNK_PROFILE:-release}" = debug ]; then
  PROFILE=debug
  cargo build -p ptxlab-js --target wasm32-unknown-unknown
else
  PROFILE=release
  cargo build -p ptxlab-js --target wasm32-unknown-unknown --release
fi
mkdir -p "$OUT/api"
wasm-bindgen --target web --out-dir "$OUT/api" --out-name ptxlab \
  "$TARGET_DIR/wasm32-unknown-unknown/$PROFILE/ptxlab_js.wasm"
if [ "$PROFILE" = release ]; then
  # The features rustc enables by default for wasm32, and SIMD (.cargo/config.toml), so wasm-opt
  # accepts the module as it is.
  wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-mutable-globals --enable-reference-types --enable-multivalue --enable-simd \
    "$OUT/api/ptxlab_bg.wasm" -o "$OUT/api/ptxlab_bg.wasm"
fi
echo "build-api.sh: $OUT/api/ptxlab_bg.wasm is $(wc -c < "$OUT/api/ptxlab_bg.wasm") bytes ($PROFILE)"

# The views module: the profile the page's own wasm uses (index.html asks Trunk for `web`).
if [ "$PROFILE" = debug ]; then
  VIEWS_PROFILE=debug
  cargo build -p ptxlab-web --bin ptxlab-views --target wasm32-unknown-unknown
else
  VIEWS_PROFILE=web
  cargo build -p ptxlab-web --bin ptxlab-views --target wasm32-unknown-unknown --profile web
fi
rm -rf "$OUT/views"
mkdir -p "$OUT/views"
wasm-bindgen --target web --no-typescript --out-dir "$OUT/views" --out-name ptxlab-views \
  "$TARGET_DIR/wasm32-unknown-unknown/$VIEWS_PROFILE/ptxlab-views.wasm"
if [ "$PROFILE" = release ]; then
  # As the page's wasm: -Oz, and the low 1 KiB of memory is never addressed (see index.html).
  wasm-opt -Oz --low-memory-unused --enable-bulk-memory --enable-nontrapping-float-to-int \
    --enable-sign-ext --enable-mutable-globals --enable-reference-types --enable-multivalue \
    --enable-simd "$OUT/views/ptxlab-views_bg.wasm" -o "$OUT/views/ptxlab-views_bg.wasm"
fi
echo "build-api.sh: $OUT/views/ptxlab-views_bg.wasm is $(wc -c < "$OUT/views/ptxlab-views_bg.wasm") bytes ($VIEWS_PROFILE)"
"$ROOT/scripts/offline.sh" "$OUT"
