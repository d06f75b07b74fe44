// Runs before the playground loads: the playground is WebAssembly with SIMD instructions
// (see .cargo/config.toml). A browser that cannot compile them would stay at "Loading" for
// ever; this says why instead, in an alert above the app.
(function () {
  'use strict';
  // The smallest module with one SIMD instruction: a function returning v128.const 0.
  var simd = new Uint8Array([
    0, 97, 115, 109, 1, 0, 0, 0, // magic, version
    1, 5, 1, 96, 0, 1, 123, // type section: () -> v128
    3, 2, 1, 0, // function section: one function of that type
    10, 22, 1, 20, 0, 253, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 11, // code
  ]);
  var ok = false;
  try {
    ok = typeof WebAssembly === 'object' && WebAssembly.validate(simd);
  } catch (e) {
    ok = false;
  }
  if (ok) return;
  function show() {
    var p = document.createElement('p');
    p.id = 'wasm-unsupported';
    p.setAttribute('role', 'alert');
    p.className = 'loading';
    p.textContent =
      'This browser cannot run ptxlab: it needs WebAssembly with SIMD ' +
      '(Chrome or Edge 91, Firefox 89, Safari 16.4, or later).';
    document.body.insertBefore(p, document.body.firstChild);
    var loading = document.querySelector('#app .loading');
    if (loading) loading.textContent = '';
  }
  if (document.body) show();
  else document.addEventListener('DOMContentLoaded', show);
})();
