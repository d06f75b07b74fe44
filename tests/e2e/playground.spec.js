// End-to-end tests of the release build: instructions set through the text field and through
// the pickers, operands through the hex inputs, and the d shown compared with what an H100
// computed. Also: error display, no console errors, screenshots, and measured timings.

const fs = require('fs');
const path = require('path');
const zlib = require('zlib');
const { test, expect } = require('@playwright/test');
const { watch } = require('./page');
const { selectCases, findByPtx, familyOf, opcodeOf } = require('./cases');

const OUT = path.resolve(__dirname, '..', '..', 'test-results');
const SHOTS = path.join(OUT, 'screenshots');
const DIST = path.resolve(__dirname, '..', '..', 'dist');

async function open(page) {
  await page.goto('./');
  await expect(page.getByLabel('d (hex)')).toBeVisible();
}

async function setInstruction(page, ptx) {
  const field = page.getByLabel('Instruction', { exact: true });
  await field.fill(ptx);
  await expect(page.locator('#insn-msg')).toHaveCount(0);
}

async function setOperands(page, c) {
  for (const r of ['a', 'b', 'c', 'e']) {
    if (c[r] !== undefined) {
      await page.getByLabel(`${r} (hex)`, { exact: true }).fill(c[r]);
    }
  }
}

async function shot(page, name) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

test.describe('playground', () => {
  let problems;
  test.beforeEach(async ({ page }) => {
    problems = watch(page);
  });
  test.afterEach(async () => {
    expect(problems, 'no console errors').toEqual([]);
  });

  test('shows a result on load, with labelled fields', async ({ page }) => {
    await open(page);
    await expect(page.getByLabel('Instruction', { exact: true })).toHaveValue(/^vadd\./);
    await expect(page.getByLabel('a (hex)', { exact: true })).toBeVisible();
    await expect(page.getByLabel('b (hex)', { exact: true })).toBeVisible();
    await expect(page.getByLabel('c (hex)', { exact: true })).toHaveCount(0);
    await expect(page.getByLabel('d (hex)', { exact: true })).toHaveValue(/^0x[0-9a-f]{8}$/);
    await expect(page.locator('.stage').first()).toBeVisible();
    await expect(page.locator('.learn-body').getByRole('link', { name: /section of NVIDIA's PTX ISA documentation/ }))
      .toHaveAttribute('href', /docs\.nvidia\.com/);
    // The .sat note carries a worked example whose d the core computed (a measured case).
    await expect(page.locator('.learn-body .note-example').first())
      .toContainText('gives d=0x00007f04 (an H100 measurement)');
    // Where the opcode was measured is a field of its row, shown here as for the program rows.
    await expect(page.locator('.learn-body .measured')).toContainText('Measured on an NVIDIA H100 (sm_90)');
  });

  test('a browser without WebAssembly SIMD is told so; this one is not', async ({ page }) => {
    await open(page);
    await expect(page.locator('#wasm-unsupported')).toHaveCount(0);
    // The same page where the check finds no SIMD: the alert names what is missing (the app
    // still loads here, since this browser has SIMD; one without it would stop at the alert).
    await page.addInitScript(() => {
      WebAssembly.validate = () => false;
    });
    await page.goto('./');
    const alert = page.getByRole('alert').filter({ hasText: 'WebAssembly with SIMD' });
    await expect(alert).toBeVisible();
    await expect(alert).toContainText('Safari 16.4');
    await shot(page, 'no-simd-alert');
  });

  test('operand views stay in sync; hex with or without 0x; bits flip', async ({ page }) => {
    await open(page);
    const a = (v) => page.getByLabel(`a (${v})`, { exact: true });
    await a('hex').fill('ff');
    await expect(a('unsigned')).toHaveValue('255');
    await expect(a('signed')).toHaveValue('255');
    await a('hex').fill('0x80000000');
    await expect(a('signed')).toHaveValue('-2147483648');
    await a('signed').fill('-1');
    await a('signed').blur();
    await expect(a('hex')).toHaveValue('0xffffffff');
    // Each bit button is named after its bit and the digit it shows.
    await page.getByLabel('a bit 0: 1', { exact: true }).click();
    await expect(a('hex')).toHaveValue('0xfffffffe');
    await expect(page.getByLabel('a bit 0: 0', { exact: true })).toHaveAttribute('aria-pressed', 'false');
    await a('binary').fill('101');
    await a('binary').blur();
    await expect(a('hex')).toHaveValue('0x00000005');
    await a('hex').fill('0xzz');
    await expect(page.locator('.field-error')).toBeVisible();
    await a('hex').blur();
    await expect(a('hex')).toHaveValue('0x00000005');
    await page.getByRole('button', { name: 'set a to most negative signed value' }).click();
    await expect(a('hex')).toHaveValue('0x80000000');
    await page.getByRole('button', { name: 'set a to 0x80 in every byte' }).click();
    await expect(a('hex')).toHaveValue('0x80808080');
    await page.getByRole('button', { name: 'set a to a random value' }).click();
    await expect(a('hex')).toHaveValue(/^0x[0-9a-f]{8}$/);
  });

  test('invalid text shows the message at the token; the page keeps working', async ({ page }) => {
    await open(page);
    const field = page.getByLabel('Instruction', { exact: true });
    await field.fill('vadd.u32.foo.u32 d, a, b;');
    const msg = page.locator('#insn-msg');
    await expect(msg).toBeVisible();
    await expect(msg.locator('mark.bad')).toHaveText('.foo');
    await expect(msg).toContainText('foo');
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator('section.result')).toHaveClass(/stale/);
    await expect(page.getByLabel('d (hex)', { exact: true })).toBeVisible();
    for (const bad of ['', ';', 'vaddd.u32 d, a, b;', 'vadd.u32.u32.u32 d, a.b, b', '🦀', 'add.s32 d, a, 99999999999999999999999;']) {
      await field.fill(bad);
      await expect(msg).toBeVisible();
    }
    await field.fill('vadd.u32.u32.u32 d, a, b;');
    await expect(msg).toHaveCount(0);
    await expect(page.locator('section.result')).not.toHaveClass(/stale/);
    await page.getByLabel('a (hex)', { exact: true }).fill('0x1');
    await expect(page.getByLabel('a (unsigned)', { exact: true })).toHaveValue('1');
  });

  test('pickers and text stay in sync', async ({ page }) => {
    await open(page);
    const field = page.getByLabel('Instruction', { exact: true });
    await page.getByLabel('Family', { exact: true }).selectOption({ label: 'SIMD, 4 byte lanes' });
    await expect(field).toHaveValue(/^vadd4\./);
    await page.getByLabel('Opcode', { exact: true }).selectOption({ label: 'vmin4' });
    await expect(field).toHaveValue(/^vmin4\./);
    await expect(page.getByLabel('c (hex)', { exact: true })).toBeVisible();
    await field.fill('vmax4.u32.u32.u32 d.b10, a, b, c;');
    await expect(page.getByLabel('Opcode', { exact: true })).toHaveValue(/./);
    expect(await page.getByLabel('Opcode', { exact: true }).evaluate((s) => s.options[s.selectedIndex].text)).toBe('vmax4');
    await expect(page.locator('#pick-mask0')).toBeChecked();
    await expect(page.locator('#pick-mask2')).not.toBeChecked();
    await page.locator('#pick-mask2').check();
    await expect(field).toHaveValue('vmax4.u32.u32.u32 d.b210, a, b, c;');
    await page.getByLabel('Family', { exact: true }).selectOption({ label: 'integer arithmetic' });
    await expect(field).toHaveValue(/^add\./);
    await expect(page.getByLabel('c (hex)', { exact: true })).toHaveCount(0);
  });

  test('instructions chosen with the pickers give the H100 result', async ({ page }) => {
    await open(page);
    const field = page.getByLabel('Instruction', { exact: true });
    const routes = [
      [['Family', 'scalar video']],
      [['Family', 'SIMD, 4 byte lanes']],
      [['Family', 'SIMD, 2 half-word lanes']],
      [['Family', 'video multiply-add']],
      [['Family', 'integer arithmetic'], ['Type', '.u32']],
      [['Family', 'integer arithmetic'], ['Opcode', 'mul']],
    ];
    let compared = 0;
    for (const route of routes) {
      for (const [label, option] of route) {
        await page.getByLabel(label, { exact: true }).selectOption({ label: option });
      }
      const ptx = await field.inputValue();
      const c = findByPtx(ptx);
      test.info().annotations.push({ type: 'picked', description: `${ptx} ${c ? 'compared' : 'not in the H100 data'}` });
      if (!c) continue;
      await setOperands(page, c);
      await expect(page.getByLabel('d (hex)', { exact: true }), ptx).toHaveValue(c.d, { timeout: 3000 });
      compared++;
    }
    expect(compared, 'at least three picked instructions found in the H100 data').toBeGreaterThanOrEqual(3);
  });

  test('screenshots of scalar, SIMD and vmad views', async ({ page }) => {
    await open(page);
    const views = [
      ['scalar', 'vadd.s32.u32.s32.sat d.h1, a.b1, b.h0, c;', { a: '0x2808cf1b', b: '0x0000ff24', c: '0x12345678' }],
      ['simd4', 'vmin4.s32.u32.u32.add d.b0, a.b0000, b.b2222, c;', { a: '0x80ff017f', b: '0x11223344', c: '0x00000010' }],
      ['simd2', 'vadd2.s32.s32.s32.sat d, a.h10, b.h23, c;', { a: '0x7fff8000', b: '0x00018000', c: '0xdeadbeef' }],
      ['vmad', 'vmad.s32.s32.u32.sat.shr15 d, a.h0, b.b1, c;', { a: '0x0000ff00', b: '0x00007f00', c: '0x00001234' }],
      ['integer', 'mad.wide.s32 d, a, b, c;', { a: '0x80000000', b: '0x00000003', c: '0x0000000000000001' }],
    ];
    for (const [name, ptx, vals] of views) {
      await page.getByLabel('Instruction', { exact: true }).fill(ptx);
      await setOperands(page, vals);
      await shot(page, name);
    }
    await page.setViewportSize({ width: 360, height: 800 });
    await page.getByLabel('Instruction', { exact: true }).fill(views[1][1]);
    await shot(page, 'simd4-360px');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, 'no sideways scrolling at 360 px').toBeLessThanOrEqual(1);
  });

  test('the address holds the state', async ({ page }) => {
    const ptx = 'vmin4.s32.u32.u32.add %r1.b0, %r2.b0000, %r3.b2222, %r1;';
    await page.goto(`./?i=${encodeURIComponent(ptx)}&a=0x80ff017f&b=11223344&c=0x10`);
    await expect(page.getByLabel('Instruction', { exact: true })).toHaveValue(ptx);
    await expect(page.getByLabel('a (hex)', { exact: true })).toHaveValue('0x80ff017f');
    await expect(page.getByLabel('b (hex)', { exact: true })).toHaveValue('0x11223344');
    await expect(page.getByLabel('c (hex)', { exact: true })).toHaveValue('0x00000010');
    await page.getByLabel('b (hex)', { exact: true }).fill('0x5');
    await expect(page).toHaveURL(/[?&]b=0x00000005(&|$)/);
    await page.getByLabel('Instruction', { exact: true }).fill('add.s16 d, a, b;');
    await expect(page).toHaveURL(/\?i=add\.s16\+d,\+a,\+b;&a=0x[0-9a-f]{4}&b=0x0005$/);
    await page.reload();
    await expect(page.getByLabel('b (hex)', { exact: true })).toHaveValue('0x0005');
    await page.goto('./?i=vaddd&a=zz');
    await expect(page.locator('#insn-msg')).toBeVisible();
    await expect(page.getByLabel('d (hex)', { exact: true })).toBeVisible();
  });

  test('keyboard: the instruction field and pickers are reachable and usable', async ({ page }) => {
    await open(page);
    const field = page.getByLabel('Instruction', { exact: true });
    await field.focus();
    await page.keyboard.press('End');
    await page.keyboard.press('Backspace');
    await expect(field).toHaveValue(/[^;]$/);
    await page.keyboard.type(';');
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Family', { exact: true })).toBeFocused();
  });

  test('timings: wasm size, navigation to first result, edit to updated diagram', async ({ page }) => {
    const wasmFile = fs.readdirSync(DIST).find((f) => f.endsWith('.wasm'));
    const raw = fs.readFileSync(path.join(DIST, wasmFile));
    const gz = zlib.gzipSync(raw, { level: 9 });
    await open(page);
    await page.waitForFunction(() => performance.getEntriesByName('ptxlab-first-result').length > 0);
    const firstResult = await page.evaluate(() => performance.getEntriesByName('ptxlab-first-result')[0].startTime);
    const nav = await page.evaluate(() => {
      const n = performance.getEntriesByType('navigation')[0];
      return n ? { domContentLoaded: n.domContentLoadedEventEnd, load: n.loadEventEnd } : null;
    });
    // Operand edits: each input event is measured from the handler to the end of the re-render.
    const edits = [];
    for (const ptx of ['vadd.s32.u32.s32.sat d, a.b0, b.h0;', 'vmin4.s32.u32.u32.add d.b0, a.b0000, b.b2222, c;', 'vmad.s32.s32.u32.sat.shr15 d, a.h0, b.b1, c;']) {
      await page.getByLabel('Instruction', { exact: true }).fill(ptx);
      const a = page.getByLabel('a (hex)', { exact: true });
      for (let i = 0; i < 20; i++) {
        await page.evaluate(() => performance.clearMeasures('ptxlab-edit'));
        await a.fill(`0x${((i * 0x9e3779b1) >>> 0).toString(16)}`);
        const d = await page.evaluate(() => {
          const m = performance.getEntriesByName('ptxlab-edit');
          return m.length ? m[m.length - 1].duration : null;
        });
        if (d !== null) edits.push(d);
      }
    }
    edits.sort((x, y) => x - y);
    const pct = (p) => edits[Math.min(edits.length - 1, Math.floor(p * edits.length))];
    const t = {
      wasm_file: wasmFile,
      wasm_raw_bytes: raw.length,
      wasm_gzip_bytes: gz.length,
      nav_to_first_result_ms: Math.round(firstResult * 10) / 10,
      dom_content_loaded_ms: nav ? Math.round(nav.domContentLoaded * 10) / 10 : null,
      edit_to_update_ms: { samples: edits.length, median: pct(0.5), p90: pct(0.9), max: edits[edits.length - 1] },
    };
    fs.mkdirSync(OUT, { recursive: true });
    fs.writeFileSync(path.join(OUT, 'timings.json'), JSON.stringify(t, null, 2) + '\n');
    const f = (x) => (x === null || x === undefined ? 'n/a' : x.toFixed(2));
    const lines = [
      `wasm ${wasmFile}: ${(raw.length / 1024).toFixed(1)} KiB raw, ${(gz.length / 1024).toFixed(1)} KiB gzip (goal <= 400 KB gzip)`,
      `navigation to first rendered result: ${f(t.nav_to_first_result_ms)} ms (goal <= 1000 ms)`,
      `operand edit to updated diagram: median ${f(t.edit_to_update_ms.median)} ms, p90 ${f(t.edit_to_update_ms.p90)} ms, max ${f(t.edit_to_update_ms.max)} ms over ${edits.length} edits (goal <= 16 ms)`,
    ];
    fs.writeFileSync(path.join(OUT, 'timings.txt'), lines.join('\n') + '\n');
    console.log(lines.join('\n'));
    expect(edits.length).toBeGreaterThan(0);
  });
});

test.describe('H100 conformance through the page', () => {
  const cases = selectCases();
  test('covers every family with at least 40 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
    const fams = new Set(cases.map((c) => familyOf(opcodeOf(c.ptx))));
    expect([...fams].sort()).toEqual(['integer', 'scalar', 'simd2', 'simd4', 'vmad']);
  });
  for (const c of cases) {
    test(`${c.why}: ${c.ptx} a=${c.a ?? '-'} b=${c.b ?? '-'} c=${c.c ?? '-'} e=${c.e ?? '-'}`, async ({ page }) => {
      const problems = watch(page);
      await open(page);
      await setInstruction(page, c.ptx);
      await setOperands(page, c);
      await expect(page.getByLabel('d (hex)', { exact: true })).toHaveValue(c.d, { timeout: 3000 });
      expect(problems).toEqual([]);
    });
  }
});
