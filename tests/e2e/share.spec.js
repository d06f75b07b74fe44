// End-to-end tests of sharing: the address as the state (history, reload, Copy link), Copy as
// CUDA against the nvcc-checked fixture, the embedded widget and the docs demo page, and
// hostile addresses.

const fs = require('fs');
const path = require('path');
const { test, expect } = require('@playwright/test');
const { watch } = require('./page');
const { findByPtx, casesOf } = require('./cases');

const ROOT = path.resolve(__dirname, '..', '..');
const DIST = path.join(ROOT, 'dist');
const CUDA_FIXTURE = path.join(ROOT, 'crates', 'ptxlab-cli', 'tests', 'data', 'cuda-asm.jsonl');
const DEFAULT_TEXT = 'vadd.s32.u32.s32.sat d, a.b0, b.h0;';

// The H100 case with this instruction and this value of a.
function h100(ptx, a) {
  return casesOf(ptx).find((c) => c.a === a) || null;
}

const insn = (page) => page.getByLabel('Instruction', { exact: true });
const hex = (page, r) => page.getByLabel(`${r} (hex)`, { exact: true });

async function open(page, query = '') {
  await page.goto(`./${query}`);
  await expect(hex(page, 'd')).toBeVisible();
}

// What the page shows: instruction text and every hex field present.
async function snapshot(page) {
  const s = { i: await insn(page).inputValue() };
  for (const r of ['a', 'b', 'c', 'e', 'd']) {
    const f = hex(page, r);
    if ((await f.count()) > 0) s[r] = await f.inputValue();
  }
  return s;
}

test.describe('sharing', () => {
  let problems;
  test.beforeEach(async ({ page }) => {
    problems = watch(page);
  });
  test.afterEach(async () => {
    expect(problems, 'no console errors').toEqual([]);
  });

  test('back and forward step through edits; reload restores the view exactly', async ({ page }) => {
    await open(page);
    const start = await snapshot(page);
    const entries0 = await page.evaluate(() => history.length);

    await insn(page).fill('vadd4.u32.u32.u32.sat d, a, b, c;');
    await expect(page).toHaveURL(/\?i=vadd4\.u32\.u32\.u32\.sat\+d,\+a,\+b,\+c;&a=0x[0-9a-f]{8}&b=/);
    const afterInsn = await snapshot(page);
    await hex(page, 'a').fill('0x7f80ff01');
    await hex(page, 'a').blur();
    await expect(page).toHaveURL(/&a=0x7f80ff01&/);
    const afterA = await snapshot(page);
    await page.getByRole('button', { name: 'set b to 0x80 in every byte' }).click();
    await expect(page).toHaveURL(/&b=0x80808080&/);
    const afterB = await snapshot(page);
    await page.getByLabel('Opcode', { exact: true }).selectOption({ label: 'vmin4' });
    await expect(insn(page)).toHaveValue(/^vmin4\./);
    const afterPick = await snapshot(page);
    expect(await page.evaluate(() => history.length)).toBe(entries0 + 4);

    // Typing several keys in a row makes one entry, not one per key.
    await insn(page).focus();
    await page.keyboard.press('End');
    await page.keyboard.press('Backspace');
    await page.keyboard.type(';');
    await page.keyboard.press('Backspace');
    expect(await page.evaluate(() => history.length)).toBe(entries0 + 5);
    await page.keyboard.type(';');

    for (const want of [afterPick, afterB, afterA, afterInsn, start]) {
      await page.goBack();
      await expect(insn(page)).toHaveValue(want.i);
      expect(await snapshot(page)).toEqual(want);
    }
    await page.goForward();
    await page.goForward();
    await expect(hex(page, 'a')).toHaveValue('0x7f80ff01');
    expect(await snapshot(page)).toEqual(afterA);

    await page.reload();
    await expect(hex(page, 'd')).toBeVisible();
    expect(await snapshot(page)).toEqual(afterA);
    await page.goto(`./?i=${encodeURIComponent('mad.wide.s32 d, a, b, c;')}&a=0x80000000&b=0x3&c=0x1`);
    const wide = await snapshot(page);
    expect(wide).toEqual({ i: 'mad.wide.s32 d, a, b, c;', a: '0x80000000', b: '0x00000003', c: '0x0000000000000001', d: wide.d });
    await page.reload();
    expect(await snapshot(page)).toEqual(wide);
  });

  test('Copy link copies the address of this view', async ({ page, context, baseURL }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(baseURL).origin });
    await open(page, `?i=${encodeURIComponent('vmin4.s32.u32.u32.add d.b0, a.b0000, b.b2222, c;')}&a=0x80ff017f&b=0x11223344&c=0x10`);
    await page.getByRole('button', { name: 'Copy link' }).click();
    await expect(page.locator('.share-link .copied').first()).toHaveText('Copied');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(page.url());
    expect(copied).not.toContain('embed');
    const other = await page.context().newPage();
    await other.goto(copied);
    await expect(hex(other, 'd')).toBeVisible();
    expect(await snapshot(other)).toEqual(await snapshot(page));
    await other.close();
  });

  test('Copy as CUDA shows the nvcc-checked statement', async ({ page, context, baseURL }) => {
    const fixture = fs
      .readFileSync(CUDA_FIXTURE, 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l));
    const forms = [
      'vadd4.u32.u32.u32.sat d.b321, a.b0732, b, c;',
      'vmad.u32.u32.u32.shr7 d, -a.b0, b.b0, c;',
      'bfe.s64 d, a, b, c;',
      'mad.wide.s16 d, a, b, c;',
      'abs.s16 d, a;',
      'add.u64 d, a, 42;',
      '@p vadd.u32.u32.u32 d, a.b1, 7, c;',
    ];
    await open(page);
    for (const ptx of forms) {
      const c = fixture.find((f) => f.ptx === ptx);
      expect(c, `${ptx} is in the fixture`).toBeTruthy();
      await insn(page).fill(ptx);
      await expect(page.locator('#insn-msg')).toHaveCount(0);
      await expect(page.locator('#cuda-asm'), ptx).toHaveText(c.asm);
    }
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(baseURL).origin });
    await page.getByRole('button', { name: 'Copy as CUDA' }).click();
    await expect(page.locator('.cuda .copied')).toHaveText('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await page.locator('#cuda-asm').innerText());
  });

  test('embed=1 renders the compact widget with a link to the full view', async ({ page }) => {
    const c = findByPtx('vabsdiff4.u32.u32.u32.add d, a, b, c;');
    await open(page, `?i=${encodeURIComponent(c.ptx)}&a=${c.a}&b=${c.b}&c=${c.c}&embed=1`);
    await expect(hex(page, 'd')).toHaveValue(c.d);
    for (const r of ['a', 'b', 'c']) await expect(hex(page, r)).toBeVisible();
    // The whole pipeline figure is shown; the stages in words open on demand.
    await expect(page.getByRole('figure', { name: 'Pipeline' })).toBeVisible();
    await expect(page.locator('.fig-stage').first()).toBeVisible();
    await expect(page.locator('.fig-stage[data-kind="result"]')).toHaveCount(1);
    await expect(page.locator('h1')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Copy link' })).toHaveCount(0);
    await expect(page.getByLabel('Family', { exact: true })).toHaveCount(0);
    const link = page.getByRole('link', { name: 'Open in ptxlab' });
    await expect(link).toHaveAttribute('target', '_blank');
    const href = await link.evaluate((a) => a.href);
    expect(href).not.toContain('embed');
    const entries = await page.evaluate(() => history.length);
    await hex(page, 'a').fill('0x01020304');
    await expect(page).toHaveURL(/&a=0x01020304&.*embed=1$/);
    expect(await page.evaluate(() => history.length), 'the widget adds no history entries').toBe(entries);
    await page.goto(href);
    await expect(page.locator('h1')).toHaveText('ptxlab');
    await expect(hex(page, 'a')).toHaveValue(c.a);
    await expect(hex(page, 'd')).toHaveValue(c.d);
  });

  test('the embed demo page turns elements into sized, working widgets', async ({ page }) => {
    await page.goto('./embed-demo.html');
    const frames = page.locator('iframe[data-ptxlab-frame]');
    await expect(frames).toHaveCount(4);
    const widgets = [
      ['#w-scalar', 'vadd.s32.u32.s32.sat d, a.b3, b.b3;'],
      ['#w-simd', 'vabsdiff4.u32.u32.u32.add d, a, b, c;'],
      ['#w-vmad', 'vmad.s32.s32.u32.sat.shr15 d, a.h1, b.b3, c;'],
      ['#w-integer', 'mad.lo.s64 d, a, b, c;'],
    ];
    for (const [id, ptx] of widgets) {
      const el = page.locator(`${id} iframe`);
      await el.scrollIntoViewIfNeeded();
      const src = new URL(await el.getAttribute('src'));
      expect(src.searchParams.get('i')).toBe(ptx);
      expect(src.searchParams.get('embed')).toBe('1');
      const frame = page.frameLocator(`${id} iframe`);
      await expect(frame.getByLabel('Instruction', { exact: true })).toHaveValue(ptx);
      const el2 = await page.locator(id).getAttribute('data-a');
      const c = h100(ptx, el2);
      expect(c, `${ptx} a=${el2} is an H100 case`).toBeTruthy();
      await expect(frame.getByLabel('d (hex)', { exact: true }), ptx).toHaveValue(c.d);
      await expect(frame.locator('h1')).toHaveCount(0);
      await expect(frame.getByRole('link', { name: 'Open in ptxlab' })).toBeVisible();
      // The iframe took the height the widget reported: everything shows, nothing scrolls.
      await expect(el).toHaveAttribute('data-ptxlab-sized', '1');
      const fit = async () => {
        const h = await el.evaluate((f) => f.getBoundingClientRect().height - f.clientTop * 2);
        const content = await el.evaluate((f) => Math.ceil(f.contentDocument.getElementById('app').getBoundingClientRect().bottom));
        return Math.abs(h - content);
      };
      await expect.poll(fit).toBeLessThanOrEqual(2);
    }
    // A widget that grows (an invalid instruction adds a message) is resized.
    const el = page.locator('#w-simd iframe');
    const before = await el.evaluate((f) => f.getBoundingClientRect().height);
    await page.frameLocator('#w-simd iframe').getByLabel('Instruction', { exact: true }).fill('vabsdiff4.u32.foo.u32.add d, a, b, c;');
    await expect.poll(() => el.evaluate((f) => f.getBoundingClientRect().height)).toBeGreaterThan(before);
    // Height messages from other windows are ignored.
    await page.evaluate(() => window.postMessage({ type: 'ptxlab:height', height: 3000 }, '*'));
    await page.waitForTimeout(100);
    expect(await page.locator('#w-scalar iframe').evaluate((f) => f.getBoundingClientRect().height)).toBeLessThan(2000);
  });
});

// Addresses crafted to break the page: each must give a visible message, a working default
// view, and nothing from the address turned into markup.
test.describe('hostile addresses', () => {
  const PWN = 'window.__pwned=1';
  const cases = [
    ['markup and script in i', `?i=${encodeURIComponent(`<script>${PWN}</script><img src=x onerror="${PWN}">`)}`, /does not check/, true],
    ['markup in operand values', `?a=${encodeURIComponent(`<img src=x onerror="${PWN}">`)}&b=${encodeURIComponent('"><script>' + PWN + '</script>')}`, /value given for a.*not a hexadecimal number/],
    ['a 1 MB value', `?i=${'v'.repeat(1 << 20)}`, /too long/],
    ['a truncated percent escape', '?i=%E0%A4%A', /not a valid percent escape/],
    ['an invalid percent escape', '?i=vadd%ZZ&a=0x1', /“%ZZ” is not a valid percent escape/],
    ['invalid UTF-8 (%C3%28)', '?i=%C3%28', /do not spell UTF-8/],
    ['invalid UTF-8 (%FF)', '?a=%FF', /do not spell UTF-8/],
    ['unknown keys', `?foo=1&${encodeURIComponent(`<img src=x onerror="${PWN}">`)}=2&zzz`, /unknown address parameters “foo”, “<img src=x onerror=/],
  ];
  for (const [name, query, message, keepsText] of cases) {
    test(name, async ({ page }) => {
      const problems = watch(page);
      // A static server refuses a megabyte-long request line; serve the page for it here.
      await page.route((u) => u.search.length > 60000, (route) =>
        route.fulfill({ path: path.join(DIST, 'index.html'), contentType: 'text/html' }));
      await page.goto(`./${query}`);
      const note = page.locator('#address-note');
      // Chromium alone takes seconds to take in a megabyte of address on a busy machine; the
      // page's own reading of it is measured in milliseconds.
      await expect(note).toBeVisible({ timeout: 30_000 });
      await expect(note).toContainText(message);
      expect((await note.innerText()).length).toBeLessThan(600);
      // The default view: the default instruction's result, every panel drawn.
      await expect(hex(page, 'd')).toHaveValue('0x0000003f');
      await expect(hex(page, 'a')).toHaveValue('0x2808cf1b');
      await expect(page.locator('.stage').first()).toBeVisible();
      if (keepsText) {
        await expect(page.locator('#insn-msg')).toBeVisible();
        await expect(insn(page)).toHaveValue(/^<script>/);
      } else {
        await expect(insn(page)).toHaveValue(DEFAULT_TEXT);
      }
      // Nothing from the address became markup or ran.
      expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
      expect(await page.locator('img').count()).toBe(0);
      expect(await page.locator('[onerror]').count()).toBe(0);
      expect(await page.locator('body script').count()).toBe(0);
      expect((await page.locator('#app').innerText()).length).toBeGreaterThan(200);
      expect(page.url().length).toBeLessThan(2000);
      await page.getByRole('button', { name: 'Dismiss' }).click();
      await expect(note).toHaveCount(0);
      await hex(page, 'b').fill('0x1');
      await expect(hex(page, 'b')).toHaveValue('0x1');
      expect(problems).toEqual([]);
    });
  }
});
