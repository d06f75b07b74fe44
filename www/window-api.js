// Exposes the JavaScript module of the core (api/ptxlab.js) as window.ptxlab on the playground
// page, for the browser console: ptxlab.evaluate('vadd4.u32.u32.u32.sat d, a, b, c;', {a: 0x7f80ff01}).
// Loaded after the page, and not in the embed (which has no console user); the event
// 'ptxlab:ready' fires on window once the functions are there.
if (new URLSearchParams(location.search).get('embed') !== '1') {
  window.addEventListener('load', async () => {
    try {
      const api = await import('./api/ptxlab.js');
      await api.default();
      const { version, check, evaluate, compare, axes, sweep } = api;
      window.ptxlab = Object.freeze({ version, check, evaluate, compare, axes, sweep });
      window.dispatchEvent(new Event('ptxlab:ready'));
    } catch (e) {
      console.warn(`ptxlab: the console functions did not load (${e.message})`);
    }
  });
}
