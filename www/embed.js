/*
 * ptxlab embed: turns elements such as
 *
 *   <div data-ptxlab="vabsdiff4.u32.u32.u32.add d, a, b, c;" data-a="0x01020304"></div>
 *
 * into live ptxlab widgets (iframes of the playground with embed=1). Optional attributes:
 * data-a, data-b, data-c, data-e (operand values in hex), data-height (initial height in
 * pixels), data-title (the iframe's accessible title), data-predict (present: the widget opens
 * in predict mode, d hidden until the reader checks a value). ptxlab's lessons use exactly
 * these elements for their live figures. Include it once, anywhere in the page:
 *
 *   <script src="https://example.org/ptxlab/embed.js" defer></script>
 *
 * The playground is looked for next to this script; set data-ptxlab-base on the <script>
 * element to use another address. Each widget reports its height with postMessage and its
 * iframe is resized to fit; messages from any other window or origin are ignored.
 */
(function () {
  'use strict';
  var HEIGHT_MESSAGE = 'ptxlab:height';
  var MIN_HEIGHT = 120;
  var MAX_HEIGHT = 4000;
  var DEFAULT_HEIGHT = 460;

  var script = document.currentScript;
  var base;
  try {
    var given = script && script.getAttribute('data-ptxlab-base');
    base = new URL(given || './', (script && script.src) || document.baseURI);
  } catch (e) {
    base = new URL('./', document.baseURI);
  }
  var frames = [];

  function widgetUrl(el) {
    var params = new URLSearchParams();
    params.set('i', el.getAttribute('data-ptxlab') || '');
    ['a', 'b', 'c', 'e'].forEach(function (k) {
      var v = el.getAttribute('data-' + k);
      if (v !== null && v !== '') params.set(k, v);
    });
    if (el.hasAttribute('data-predict')) params.set('predict', '1');
    params.set('embed', '1');
    var url = new URL(base.href);
    url.search = params.toString();
    url.hash = '';
    return url;
  }

  function mount(el) {
    if (el.getAttribute('data-ptxlab-mounted') === '1') return;
    el.setAttribute('data-ptxlab-mounted', '1');
    var url = widgetUrl(el);
    var frame = document.createElement('iframe');
    var initial = parseInt(el.getAttribute('data-height') || '', 10);
    if (!(initial >= MIN_HEIGHT && initial <= MAX_HEIGHT)) initial = DEFAULT_HEIGHT;
    frame.src = url.href;
    frame.title = el.getAttribute('data-title') || 'ptxlab: ' + (el.getAttribute('data-ptxlab') || 'instruction');
    frame.loading = 'lazy';
    frame.style.width = '100%';
    frame.style.height = initial + 'px';
    frame.style.border = '1px solid #d4d4d0';
    frame.style.borderRadius = '8px';
    frame.style.display = 'block';
    frame.style.boxSizing = 'content-box';
    frame.setAttribute('data-ptxlab-frame', '');
    while (el.firstChild) el.removeChild(el.firstChild);
    el.appendChild(frame);
    frames.push({ frame: frame, origin: url.origin });
  }

  function onMessage(event) {
    var d = event.data;
    if (!d || typeof d !== 'object' || d.type !== HEIGHT_MESSAGE) return;
    var h = Number(d.height);
    if (!isFinite(h)) return;
    for (var i = 0; i < frames.length; i++) {
      var f = frames[i];
      if (event.source === f.frame.contentWindow && event.origin === f.origin) {
        h = Math.max(MIN_HEIGHT, Math.min(MAX_HEIGHT, Math.ceil(h)));
        f.frame.style.height = h + 'px';
        f.frame.setAttribute('data-ptxlab-sized', '1');
        return;
      }
    }
  }

  function mountAll() {
    var els = document.querySelectorAll('[data-ptxlab]');
    for (var i = 0; i < els.length; i++) mount(els[i]);
  }

  window.addEventListener('message', onMessage);
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', mountAll);
  } else {
    mountAll();
  }
  window.ptxlabEmbed = { mountAll: mountAll };
})();
