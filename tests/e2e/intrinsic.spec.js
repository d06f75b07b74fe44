// End-to-end tests of the Intrinsic view: search by name and by what it does, the arguments,
// the result against `ptxlab intrinsic` (run here, at test time), the per-lane picture, the PTX
// with its link to the Program view, the cost table per GPU, permalinks and the embed, axe.
// Screenshots at 1280 and 360 px.

const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const { test, expect } = require('@playwright/test');
const { watch, axe } = require('./page');

const ROOT = path.resolve(__dirname, '..', '..');
const OUT = path.join(ROOT, 'test-results');
const SHOTS = path.join(OUT, 'screenshots');

// The command-line tool: PTXLAB_BIN, else the debug build in CARGO_TARGET_DIR, else a build in
// target/ (release first).
function cli() {
  const candidates = [
    process.env.PTXLAB_BIN,
    process.env.CARGO_TARGET_DIR && path.join(process.env.CARGO_TARGET_DIR, 'debug', 'ptxlab'),
    path.join(ROOT, 'target', 'release', 'ptxlab'),
    path.join(ROOT, 'target', 'debug', 'ptxlab'),
  ].filter(Boolean);
  const found = candidates.find((p) => fs.existsSync(p));
  if (!found) throw new Error(`no ptxlab binary (build it with cargo build -p ptxlab-cli); looked at ${candidates.join(', ')}`);
  return found;
}

// `d = 0x...` (and `pred = 1` ...) as the command line prints it for one call.
function cliResult(name, args) {
  const out = execFileSync(cli(), ['intrinsic', name, ...args], { encoding: 'utf8' });
  const m = /^d = (0x[0-9a-f]+)$/m.exec(out);
  if (!m) throw new Error(`unexpected output of ptxlab intrinsic ${name}: ${out}`);
  return { d: m[1], out };
}

const search = (page) => page.getByRole('combobox', { name: 'Intrinsic', exact: true });
const arg = (page, r) => page.getByLabel(`arg ${r}`, { exact: true });
const dHex = (page) => page.getByLabel('d (hex)', { exact: true });

async function open(page, query) {
  await page.goto(`./${query}`);
  await expect(search(page)).toBeVisible();
}

test.describe('intrinsic view', () => {
  let problems;
  test.beforeEach(async ({ page }) => {
    problems = watch(page);
  });
  test.afterEach(async () => {
    expect(problems, 'no console errors').toEqual([]);
  });

  test('the tab opens the view; the instruction view keeps its fields', async ({ page }) => {
    await page.goto('./');
    await expect(page.getByLabel('Instruction', { exact: true })).toBeVisible();
    await expect(page.getByLabel('a (hex)', { exact: true })).toBeVisible();
    await page.getByRole('link', { name: 'CUDA intrinsic' }).click();
    await expect(search(page)).toHaveValue('__vcmpgtu4');
    await expect(page).toHaveURL(/\?fn=__vcmpgtu4&a=0x[0-9a-f]{8}&b=0x[0-9a-f]{8}$/);
    await expect(page.getByLabel('Instruction', { exact: true })).toHaveCount(0);
    await page.getByRole('link', { name: 'PTX instruction' }).click();
    await expect(page.getByLabel('Instruction', { exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\?i=/);
    await page.goBack();
    await expect(search(page)).toHaveValue('__vcmpgtu4');
  });

  test('search by name and by what it does, with the keyboard and the mouse', async ({ page }) => {
    await open(page, '?fn=__vcmpgtu4');
    const list = page.getByRole('listbox', { name: 'Matching intrinsics' });
    await search(page).fill('unsigned byte compare');
    await expect(list).toBeVisible();
    await expect(list.getByRole('option', { name: /__vcmpgtu4/ })).toBeVisible();
    await search(page).fill('sum of absolute differences');
    await expect(list.getByRole('option', { name: /__vsadu4/ })).toBeVisible();
    await list.getByRole('option', { name: /__vsadu4/ }).click();
    await expect(search(page)).toHaveValue('__vsadu4');
    await expect(list).toBeHidden();
    await expect(page).toHaveURL(/\?fn=__vsadu4&/);

    await search(page).fill('vabsdiffu');
    await expect(list.getByRole('option')).toHaveCount(2);
    await page.keyboard.press('ArrowDown');
    await expect(list.getByRole('option', { selected: true })).toContainText('__vabsdiffu4');
    await page.keyboard.press('Enter');
    await expect(search(page)).toHaveValue('__vabsdiffu4');
    await expect(page.locator('.fn-meaning')).toContainText('__vabsdiffu4');

    await search(page).fill('no such thing at all');
    await expect(page.getByRole('status').filter({ hasText: 'No intrinsic matches' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(search(page)).toHaveValue('__vabsdiffu4');
  });

  test('d equals ptxlab intrinsic for several calls; arguments read as hex', async ({ page }) => {
    const calls = [
      ['__vcmpgtu4', ['0x0180ff00', '0x02800000']],
      ['__vabsdiffu4', ['0x0010ff00', '0x0a0000ff']],
      ['__vsads4', ['0x807f0102', '0x7f800201']],
      ['__dp4a', ['0x01020304', '0xff010101', '0x00000064']],
      ['__byte_perm', ['0x11223344', '0x55667788', '0x00005140']],
      ['__mul24', ['0x00000001', '0x00800000']],
      ['__vavgs2', ['0x00000000', '0x0000ffff']],
      ['__brevll', ['0x0000000000000001']],
      ['__vibmax_s16x2', ['0x00017fff', '0x00028000']],
    ];
    for (const [name, args] of calls) {
      const want = cliResult(name, args);
      const q = `?fn=${name}&` + args.map((v, k) => `${'abc'[k]}=${v}`).join('&');
      await open(page, q);
      await expect(dHex(page), `${name}(${args})`).toHaveValue(want.d);
      for (const [k, v] of args.entries()) await expect(arg(page, 'abc'[k])).toHaveValue(v);
      for (const m of want.out.matchAll(/^(pred\w*) = ([01])$/gm)) {
        await expect(page.locator('.fn-outputs')).toContainText(`*${m[1]} = ${m[2]}`);
      }
    }
    // Typing an argument re-evaluates; the CLI agrees with the new value.
    await open(page, '?fn=__vcmpgtu4&a=0x0180ff00&b=0x02800000');
    await arg(page, 'a').fill('0x7f7f7f7f');
    await arg(page, 'a').blur();
    await expect(page).toHaveURL(/a=0x7f7f7f7f/);
    await expect(dHex(page)).toHaveValue(cliResult('__vcmpgtu4', ['0x7f7f7f7f', '0x02800000']).d);
    await arg(page, 'b').fill('0xzz');
    await expect(page.getByRole('alert').filter({ hasText: 'not a hex digit' })).toBeVisible();
    await expect(arg(page, 'b')).toHaveAttribute('aria-invalid', 'true');
  });

  test('the per-lane picture shows each lane with its inputs and output', async ({ page }) => {
    await open(page, '?fn=__vcmpgtu4&a=0x0180ff00&b=0x02800000');
    const fig = page.getByRole('figure', { name: 'Lanes' });
    await expect(fig).toBeVisible();
    const lanes = fig.locator('g.lane');
    await expect(lanes).toHaveCount(4);
    // Most significant lane at the left, as in the hex value; lane 1 is 0xff > 0x00.
    await expect(lanes.nth(0)).toHaveAttribute('data-lane', '3');
    const l1 = fig.locator('g.lane[data-lane="1"]');
    await expect(l1).toHaveAttribute('data-out', '0xff');
    await expect(l1).toContainText('a 0xff');
    await expect(l1).toContainText('b 0x00');
    await expect(fig.locator('g.lane[data-lane="2"]')).toHaveAttribute('data-out', '0x00');
    await expect(page.locator('.fn-meaning-short')).toContainText('0xff');

    await open(page, '?fn=__vadd2&a=0x00017fff&b=0x00010001');
    await expect(page.getByRole('figure', { name: 'Lanes' }).locator('g.lane')).toHaveCount(2);
    await open(page, '?fn=__dp4a&a=0x01020304&b=0x01010101&c=0x64');
    const dp = page.getByRole('figure', { name: 'Lanes' });
    await expect(dp.locator('g.lane')).toHaveCount(4);
    await expect(dp).toContainText('+ c 0x00000064');
    await expect(dp.locator('g.lane-sum')).toContainText('d 0x0000006e');
    await open(page, '?fn=__popc&a=0xff');
    await expect(page.getByRole('figure', { name: 'Lanes' }).locator('g.lane')).toHaveCount(1);
  });

  test('the PTX sequence and its link to the Program view carry the program and registers', async ({ page }) => {
    await open(page, '?fn=__vabsdiffu4&a=0x0010ff00&b=0x0a0000ff');
    const ptx = page.getByLabel('PTX sequence', { exact: true });
    await expect(ptx).toContainText('vabsdiff4.u32.u32.u32');
    const json = JSON.parse(execFileSync(cli(), ['intrinsic', '__vabsdiffu4', '0', '0', '--json'], { encoding: 'utf8' }));
    expect((await ptx.innerText()).trim()).toBe(json.ptx.join('\n'));
    const link = page.getByRole('link', { name: 'Open in Program view' });
    const href = await link.getAttribute('href');
    const q = new URLSearchParams(href.replace(/^\?/, ''));
    expect(q.get('prog')).toBe(json.ptx.join('\n'));
    expect(q.get('regs')).toBe('%a=0x0010ff00,%b=0x0a0000ff');
    // The values follow the arguments.
    await arg(page, 'b').fill('0x1');
    await arg(page, 'b').blur();
    await expect(link).toHaveAttribute('href', /&regs=%25a%3D0x0010ff00,%25b%3D0x00000001$/);
  });

  test('the Program view opened from the link runs the PTX to the d of the view and the CLI', async ({ page }) => {
    // A video instruction, SWAR sequences (prmt, lop3, scopes of inline asm), halves unpacked
    // with mov, a 64-bit one and one that also writes bools.
    const calls = [
      ['__vabsdiffu4', ['0x0010ff00', '0x0a0000ff']],
      ['__vcmpgtu4', ['0x0180ff00', '0x02800000']],
      ['__vabsss2', ['0x80007fff']],
      ['__vsub2', ['0x00010000', '0x00020001']],
      ['__umul64hi', ['0xffffffffffffffff', '0x0000000000000003']],
      ['__vibmax_s16x2', ['0x00017fff', '0x00028000']],
    ];
    for (const [name, args] of calls) {
      const want = cliResult(name, args);
      const trace = execFileSync(cli(), ['intrinsic', name, ...args, '--trace'], { encoding: 'utf8' });
      expect(trace, `${name}: the CLI's program gives its d`).toContain(`program d = ${want.d}, as the meaning gives`);
      const q = `?fn=${name}&` + args.map((v, k) => `${'abc'[k]}=${v}`).join('&');
      await open(page, q);
      await expect(dHex(page)).toHaveValue(want.d);
      await page.getByRole('link', { name: 'Open in Program view' }).click();
      await expect(page.getByRole('tab', { name: 'Program' })).toHaveAttribute('aria-selected', 'true');
      await page.getByRole('button', { name: 'Run to end' }).click();
      const d = page.locator('.program-regs tr[data-reg="%d"] td.hex');
      await expect(d, `${name}(${args}): %d after the program`).toHaveText(want.d);
      for (const m of want.out.matchAll(/^(pred\w*) = ([01])$/gm)) {
        const cell = page.locator(`.program-regs tr[data-reg="%${m[1]}"] td.hex`);
        await expect(cell, `${name}: %${m[1]}`).toHaveText(new RegExp(`^0x0*${m[2]}$`));
      }
    }
  });

  test('the cost table shows plainly where a GPU has the native instruction and where not', async ({ page }) => {
    await open(page, '?fn=__vabsdiffu4&a=0&b=0');
    const table = page.getByRole('table', { name: 'Cost on each GPU' });
    await expect(table.locator('tbody tr')).toHaveCount(5);
    // The same table component as "What each GPU runs": atlas rows, counts, kinds, marks.
    const row = (arch) => table.locator(`tbody tr.atlas-row[data-arch="sm_${arch}"]`);
    const json = JSON.parse(execFileSync(cli(), ['intrinsic', '__vabsdiffu4', '0', '0', '--json'], { encoding: 'utf8' }));
    for (const c of json.cost) {
      await expect(row(c.arch).locator('.atlas-count')).toHaveText(String(c.opcodes.length));
      await expect(row(c.arch).locator('.atlas-core')).toHaveText(c.opcodes.join(' '));
    }
    await expect(row(90)).toHaveClass(/native/);
    await expect(row(90).locator('.atlas-kind-word')).toHaveText('native');
    await expect(row(90)).toContainText('VABSDIFF4');
    await expect(row(120)).toHaveClass(/emulated/);
    await expect(row(120).locator('.atlas-kind-word')).toHaveText('emulated');
    await expect(row(120)).not.toContainText('VABSDIFF4');
    // sm_120 costs the most: it is marked dearest, as in the atlas view.
    await expect(row(120).locator('.atlas-mark')).toHaveText('dearest');
    // sm_90's row opens its whole machine code; the others have none to open.
    await row(90).getByRole('button', { name: 'sm_90' }).click();
    await expect(table.getByLabel('sm_90 machine code', { exact: true })).toContainText('VABSDIFF4.U8');
    await expect(row(120).getByRole('button')).toHaveCount(0);
    await row(90).getByRole('button', { name: 'sm_90' }).click();
    await expect(table.getByLabel('sm_90 machine code', { exact: true })).toHaveCount(0);
    await expect(page.locator('.fn-native-summary')).toContainText('Native on sm_75, sm_80, sm_90, sm_100');
    await expect(page.locator('.fn-native-summary')).toContainText('Emulated on sm_120');
    await expect(page.getByLabel('sm_90 machine code', { exact: true })).toContainText('VABSDIFF4.U8');
    const doc = page.getByRole('link', { name: /NVIDIA's CUDA Math API documentation/ });
    await expect(doc).toHaveAttribute('href', /docs\.nvidia\.com\/cuda\/cuda-math-api/);
  });

  test('permalink: reload and a copied address restore the view; the embed works', async ({ page }) => {
    await open(page, '?fn=__vcmpgtu4');
    await search(page).fill('dp4a');
    await page.keyboard.press('Enter');
    await arg(page, 'c').fill('0x10');
    await arg(page, 'c').blur();
    await expect(page).toHaveURL(/\?fn=__dp4a&a=0x[0-9a-f]{8}&b=0x[0-9a-f]{8}&c=0x00000010$/);
    const url = page.url();
    const d = await dHex(page).inputValue();
    await page.reload();
    await expect(search(page)).toHaveValue('__dp4a');
    await expect(arg(page, 'c')).toHaveValue('0x00000010');
    await expect(dHex(page)).toHaveValue(d);
    // Back returns to the intrinsic shown before the pick; forward to the permalink's view.
    await page.goBack();
    await expect(search(page)).toHaveValue('__vcmpgtu4');
    await page.goForward();
    await expect(search(page)).toHaveValue('__dp4a');
    await expect(arg(page, 'c')).toHaveValue('0x00000010');
    // A preset button sets an argument.
    await page.getByRole('button', { name: 'MAX: set a to largest signed value', exact: true }).click();
    await expect(arg(page, 'a')).toHaveValue('0x7fffffff');

    await page.goto(`${url}&embed=1`);
    await expect(dHex(page)).toHaveValue(d);
    await expect(page.getByRole('figure', { name: 'Lanes' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Views' })).toHaveCount(0);
    const openLink = page.getByRole('link', { name: 'Open in ptxlab' });
    expect(await openLink.getAttribute('href')).toBe(new URL(url).search);

    // An unknown name: a note, and the default intrinsic.
    await page.goto('./?fn=__nope&a=1');
    await expect(page.getByRole('alert').filter({ hasText: 'no intrinsic called' })).toBeVisible();
    await expect(search(page)).toHaveValue('__vcmpgtu4');
  });

  test('the Learn panel of a PTX instruction lists the intrinsics that emit it, each a link', async ({ page }) => {
    // vabsdiff4 is what __vabsdiffu4 becomes: a short list, shown open.
    await page.goto(`./?i=${encodeURIComponent('vabsdiff4.u32.u32.u32 d, a, b, c;')}`);
    const learn = page.locator('.learn-body');
    await expect(learn).toContainText(/\d+ CUDA intrinsics? whose PTX uses vabsdiff4/);
    const link = learn.getByRole('link', { name: '__vabsdiffu4', exact: true });
    await expect(link).toBeVisible();
    await expect(learn.getByRole('link', { name: '__vadd4', exact: true })).toHaveCount(0);
    await link.click();
    await expect(search(page)).toHaveValue('__vabsdiffu4');
    await expect(page).toHaveURL(/\?fn=__vabsdiffu4/);
    // prmt, from one of the program instructions: __byte_perm is among many, behind a summary.
    await page.goto(`./?i=${encodeURIComponent('prmt.b32 d, a, b, c;')}`);
    const more = learn.locator('details.emitted');
    await expect(more.locator('summary')).toContainText(/CUDA intrinsics whose PTX uses prmt/);
    await more.locator('summary').click();
    await expect(more.getByRole('link', { name: '__byte_perm', exact: true })).toBeVisible();
  });

  test('axe: no serious or critical violations; screenshots at 1280 and 360 px', async ({ page }) => {
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await open(page, '?fn=__vabsdiffu4&a=0x0010ff00&b=0x0a0000ff');
    await axe(page, 'intrinsic view');
    await page.screenshot({ path: path.join(SHOTS, 'intrinsic-1280.png'), fullPage: true });
    await search(page).fill('byte compare');
    await axe(page, 'intrinsic view with the list open');
    await page.screenshot({ path: path.join(SHOTS, 'intrinsic-search-1280.png') });
    await page.setViewportSize({ width: 360, height: 800 });
    await open(page, '?fn=__dp4a&a=0x01020304&b=0xff010101&c=0x64');
    await page.screenshot({ path: path.join(SHOTS, 'intrinsic-360.png'), fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, 'no sideways scrolling at 360 px').toBeLessThanOrEqual(0);
    await page.goto('./?fn=__dp4a&a=0x01020304&b=0xff010101&c=0x64&embed=1');
    await expect(dHex(page)).toBeVisible();
    await axe(page, 'intrinsic embed');
  });
});
