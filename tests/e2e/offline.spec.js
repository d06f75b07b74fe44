// Offline use: after one visit, the service worker has cached the build, so with the server
// gone and the browser offline the playground, the embed, the API demo and the JavaScript module
// still work; a new deploy replaces the cache. The build is served from a copy of dist/ in a
// subfolder (dist/ must work from any folder), by a server this file starts and stops.

const fs = require('fs');
const os = require('os');
const net = require('net');
const path = require('path');
const { spawn, execFileSync } = require('child_process');
const { test, expect } = require('@playwright/test');
const { watch } = require('./page');
const { findByPtx } = require('./cases');

const ROOT = path.resolve(__dirname, '..', '..');
const DIST = path.join(ROOT, 'dist');

function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

// Serves a fresh copy of dist/ at http://127.0.0.1:PORT/some/folder/.
async function serveCopy() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ptxlab-offline-'));
  const site = path.join(root, 'some', 'folder');
  fs.mkdirSync(path.dirname(site), { recursive: true });
  fs.cpSync(DIST, site, { recursive: true });
  // Date the copy an hour back. Python's server sends Last-Modified to the second and answers a
  // revalidation (If-Modified-Since) with 304 when the file is not newer, so a deploy written in
  // the same second as the first visit's fetch would look unchanged to the browser's update check
  // of sw.js. A real deploy comes later than that; the test must not depend on the clock.
  const past = new Date(Date.now() - 3600_000);
  const backdate = (p) => {
    fs.utimesSync(p, past, past);
    if (fs.statSync(p).isDirectory()) for (const f of fs.readdirSync(p)) backdate(path.join(p, f));
  };
  backdate(site);
  const port = await freePort();
  const server = spawn('python3', ['-m', 'http.server', String(port), '--bind', '127.0.0.1', '--directory', root], {
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}/some/folder/`;
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(url)).ok) break;
    } catch (e) {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    url,
    site,
    stop: () =>
      new Promise((resolve) => {
        if (server.exitCode !== null || server.signalCode !== null) return resolve();
        server.on('exit', resolve);
        server.kill();
      }),
    remove: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

// Waits until the page is controlled by an active worker (whose install filled the cache).
async function controlled(page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }));
    }
  });
}

const cacheNames = (page) => page.evaluate(async () => (await caches.keys()).filter((k) => k.startsWith('ptxlab-')));

test.describe('offline', () => {
  let site;
  test.afterEach(async () => {
    if (site) {
      await site.stop();
      site.remove();
      site = null;
    }
  });

  test('after one visit: playground, embed, API demo and module work with the network off', async ({ page, context }) => {
    const problems = watch(page);
    const failed = [];
    page.on('requestfailed', (r) => failed.push(`${r.url()} ${r.failure().errorText}`));
    // Chromium fetches the page's icon after the load event; leaving the page before that
    // fetch ends aborts it (a failed request). Each navigation waits for the network to settle.
    const settle = () => page.waitForLoadState('networkidle');
    site = await serveCopy();
    const c = findByPtx('vabsdiff4.u32.u32.u32.add d, a, b, c;');
    const query = `?i=${encodeURIComponent(c.ptx)}&a=${c.a}&b=${c.b}&c=${c.c}`;
    await page.goto(site.url + query);
    await expect(page.getByLabel('d (hex)', { exact: true })).toHaveValue(c.d);
    await controlled(page);
    const manifest = await page.evaluate(() => document.querySelector('link[rel=manifest]').href);
    expect(manifest).toBe(`${site.url}manifest.webmanifest`);

    // Network off: the server is gone and the browser is offline.
    await settle();
    await site.stop();
    await context.setOffline(true);

    await page.reload();
    await expect(page.getByLabel('d (hex)', { exact: true })).toHaveValue(c.d);
    await expect(page.locator('.stage').first()).toBeVisible();
    // Another case in the same page, computed offline.
    const v = findByPtx('vmad.s32.s32.u32.sat.shr15 d, a.h1, b.b3, c;');
    await page.getByLabel('Instruction', { exact: true }).fill(v.ptx);
    for (const k of ['a', 'b', 'c']) await page.getByLabel(`${k} (hex)`, { exact: true }).fill(v[k]);
    await expect(page.getByLabel('d (hex)', { exact: true })).toHaveValue(v.d);

    // The atlas, fetched by the view for the first time now, comes from the cache.
    await page.getByRole('button', { name: 'What each GPU runs' }).click();
    await expect(page.locator('tr.atlas-row')).toHaveCount(7);
    await expect(page.locator('tr.atlas-row[data-arch="sm_90"] .atlas-count')).toHaveText('11');
    await expect(page.locator('.atlas-failed')).toHaveCount(0);

    // The JavaScript module, imported offline.
    const d = await page.evaluate(async (v) => {
      const m = await import(new URL('api/ptxlab.js', location.href).href);
      await m.default();
      return m.evaluate(v.ptx, { a: v.a, b: v.b, c: v.c }).d;
    }, v);
    expect(d).toBe(v.d);

    // The embed, a page never visited before (its address differs only in the query).
    await settle();
    await page.goto(`${site.url}${query}&embed=1`);
    await expect(page.getByLabel('d (hex)', { exact: true })).toHaveValue(c.d);
    await expect(page.getByRole('link', { name: 'Open in ptxlab' })).toBeVisible();

    // The intrinsic data and the lessons, fetched by their views for the first time now, come
    // from the cache too.
    await settle();
    await page.goto(`${site.url}?fn=__vabsdiffu4&a=0&b=0`);
    const cost = page.getByRole('table', { name: 'Cost on each GPU' });
    await expect(cost.locator('tr.atlas-row')).toHaveCount(5);
    await expect(cost.locator('tr.atlas-row[data-arch="sm_90"] .atlas-core')).toContainText('VABSDIFF4');
    await expect(page.locator('.data-failed')).toHaveCount(0);
    await settle();
    await page.goto(`${site.url}?lesson=simd`);
    await expect(page.locator('#lesson-title')).toBeVisible();
    await expect(page.locator('.data-failed')).toHaveCount(0);
    // So does the PTX of the Program view's gallery.
    await settle();
    await page.goto(`${site.url}?prog=x`);
    await page.getByRole('tab', { name: 'Program' }).click();
    const gallery = page.getByRole('navigation', { name: 'Gallery of real programs' });
    await expect(gallery.getByRole('link')).toHaveCount(8);
    await expect(gallery.getByRole('link', { name: 'A popcount loop over an array' })).toHaveAttribute('href', /popcount_loop_param_0/);
    await expect(page.locator('.data-failed')).toHaveCount(0);

    // The API demo and the docs page.
    await settle();
    await page.goto(`${site.url}api-demo.html`);
    await page.getByLabel('Instruction').fill(v.ptx);
    for (const k of ['a', 'b', 'c']) await page.getByLabel(k, { exact: true }).fill(v[k]);
    await expect(page.locator('#d')).toHaveText(v.d);
    await settle();
    await page.goto(`${site.url}docs/hardware-vs-spec.html`);
    await expect(page.locator('h1')).toBeVisible();

    expect(failed, 'no request failed').toEqual([]);
    expect(problems, 'no console errors').toEqual([]);
  });

  test('a new deploy replaces the cache', async ({ page, context }) => {
    site = await serveCopy();
    await page.goto(site.url);
    await expect(page.getByLabel('d (hex)', { exact: true })).toBeVisible();
    await controlled(page);
    const first = await cacheNames(page);
    expect(first).toHaveLength(1);

    // Deploy a changed build into the same folder: one page differs, so the worker's hash does.
    const index = path.join(site.site, 'index.html');
    fs.writeFileSync(index, fs.readFileSync(index, 'utf8').replace('<head>', '<head><meta name="ptxlab-deploy" content="2">'));
    execFileSync('bash', [path.join(ROOT, 'scripts', 'offline.sh'), site.site], { stdio: 'pipe' });

    await page.reload();
    // The new worker fills its cache, then deletes the old one: only the new deploy remains.
    await expect
      .poll(async () => {
        const names = await cacheNames(page);
        return names.length === 1 && names[0] !== first[0];
      }, { timeout: 20_000 })
      .toBe(true);

    // Offline, the new deploy is what loads.
    await site.stop();
    await context.setOffline(true);
    await page.reload();
    await expect(page.locator('meta[name=ptxlab-deploy]')).toHaveAttribute('content', '2');
    await expect(page.getByLabel('d (hex)', { exact: true })).toHaveValue(/^0x[0-9a-f]{8}$/);
  });
});
