// Registers ptxlab's service worker (sw.js, beside this script), which keeps the playground, the
// embed, the docs pages and the JavaScript module usable offline after one visit.
(function () {
  'use strict';
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  var here = (document.currentScript && document.currentScript.src) || document.baseURI;
  var worker = new URL('sw.js', here);
  window.addEventListener('load', function () {
    navigator.serviceWorker.register(worker.href).catch(function (e) {
      // Offline use is an extra: without a worker the pages still work online.
      console.warn('ptxlab: no offline copy (' + e.message + ')');
    });
  });
})();
