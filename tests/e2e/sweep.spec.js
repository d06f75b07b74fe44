// End-to-end tests of the sweep view on plans: a 1024 x 1024 map, a slider that scrubs a third
// field while the map redraws, and the address that carries the settings; and a 1024 x 1024 map
// of a program instruction, on its plan too. Appends its timings
// (the existing performance marks `ptxlab-sweep-eval` and `ptxlab-sweep`) to
// test-results/timings-sweep.txt and test-results/timings-sweep-plans.json.

const fs = require('fs');
const path = require('path');
const { test, expect } = require('@playwright/test');

const OUT = path.resolve(__dirname, '..', '..', 'test-results');
const SHOTS = path.join(OUT, 'screenshots');

const PTX = 'vadd.s32.s32.s32.sat.add d, a, b, c;';
// Both whole words over 1024 steps of 2^22, the clamped overlay only.
const BIG = 'x:a.0.32.0.400000.1024;y:b.0.32.0.400000.1024;o:clamped';

const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const f = (x) => x.toFixed(2);

async function measures(page) {
  return page.evaluate(() => ({
    evals: performance.getEntriesByName('ptxlab-sweep-eval').map((e) => e.duration),
    total: performance.getEntriesByName('ptxlab-sweep').map((e) => e.duration),
  }));
}

async function clear(page) {
  await page.evaluate(() => {
    performance.clearMeasures('ptxlab-sweep-eval');
    performance.clearMeasures('ptxlab-sweep');
  });
}

// Clicks Draw `times` times, each after the last draw ended, and returns the marks of those
// draws.
async function drawn(page, times) {
  await clear(page);
  const draw = page.getByRole('button', { name: 'Draw', exact: true });
  for (let i = 0; i < times; i++) {
    await draw.click();
    await page.waitForFunction((n) => performance.getEntriesByName('ptxlab-sweep').length >= n, i + 1);
  }
  return measures(page);
}

const checksum = (canvas) => canvas.evaluate((c) => {
  const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let s = 0;
  for (let i = 0; i < px.length; i += 4) s = (s + px[i] * 3 + px[i + 1] * 5 + px[i + 2] * 7 + i) % 1000000007;
  return s;
});

function record(lines, json) {
  fs.mkdirSync(OUT, { recursive: true });
  fs.appendFileSync(path.join(OUT, 'timings-sweep.txt'), lines.join('\n') + '\n');
  fs.writeFileSync(path.join(OUT, 'timings-sweep-plans.json'), JSON.stringify(json, null, 2) + '\n');
  for (const l of lines) console.log(l);
}

test('sweep on plans: 1024 x 1024 map, scrubbing redraws, the address reopens the same map', async ({ page }) => {
  const q = `?i=${encodeURIComponent(PTX)}&a=0x00000000&b=0x00000000&c=0x00000005&sweep=${encodeURIComponent(BIG)}`;
  await page.goto('./' + q);
  // The address opens the sweep view with its settings.
  const tab = page.getByRole('button', { name: 'Sweep heat map' });
  await expect(tab).toHaveAttribute('aria-expanded', 'true');
  const canvas = page.locator('canvas.sweep-canvas');
  await expect(canvas).toBeVisible();
  await expect(page.locator('.sweep-timing')).toBeVisible();
  await expect.poll(() => canvas.evaluate((c) => [c.width, c.height])).toEqual([1024, 1024]);
  await expect(page.locator('#sweep-grid')).toHaveValue('1024');
  await expect(page.locator('#overlay-clamped')).toBeChecked();
  await expect(page.locator('#overlay-text')).not.toBeChecked();
  // Saturation clamps where a + b leaves the s32 range: many cells, not all.
  const clampedText = await page.locator('label:has(#overlay-clamped)').textContent();
  const clamped = Number(clampedText.match(/\((\d+)\)/)[1]);
  expect(clamped).toBeGreaterThan(100000);
  expect(clamped).toBeLessThan(1024 * 1024);

  // 1024 x 1024: evaluation plus drawing, several draws.
  const big = await drawn(page, 7);
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.locator('.explore').screenshot({ path: path.join(SHOTS, 'sweep-1024.png') });

  // The same map with the ISA text's reading compared in every cell (the text overlay).
  await clear(page);
  await page.locator('#overlay-text').check();
  await page.waitForFunction(() => performance.getEntriesByName('ptxlab-sweep').length >= 1);
  await expect(page.locator('label:has(#overlay-text)')).toContainText(/\(\d+\)/);
  const withText = await measures(page);
  await page.locator('#overlay-text').uncheck();

  // 256 x 256, then scrub c: each move redraws the map.
  await page.locator('#sweep-grid').selectOption('256');
  await expect.poll(() => canvas.evaluate((c) => [c.width, c.height])).toEqual([256, 256]);
  const scrub = page.locator('#sweep-scrub');
  await expect(scrub).toBeVisible();
  await expect(page.locator('#sweep-scrub-field')).toContainText('c');
  await clear(page);
  const before = await checksum(canvas);
  const positions = [8, 40, 72, 104, 136, 168, 200, 232, 250, 220, 190, 160, 130, 100, 70, 40, 10];
  for (let i = 0; i < positions.length; i++) {
    await scrub.fill(String(positions[i]));
    await page.waitForFunction((n) => performance.getEntriesByName('ptxlab-sweep').length >= n, i + 1);
  }
  const scrubbed = await measures(page);
  expect(scrubbed.total.length).toBeGreaterThanOrEqual(positions.length);
  await expect.poll(() => checksum(canvas)).not.toBe(before);
  await expect(page.locator('.sweep-scrub')).toContainText('c = ');

  // The address carries the grid, axes, overlays and scrubbed step; it reopens the same map.
  await expect.poll(() => decodeURIComponent(new URL(page.url()).searchParams.get('sweep') || ''))
    .toMatch(/^x:a\.0\.32\.0\.1000000\.256;y:b\.0\.32\.0\.1000000\.256;o:clamped;s:c\.0\.32\.[0-9a-f]+\.[0-9a-f]+\.\d+\.10$/);
  const shared = page.url();
  const sum = await checksum(canvas);
  await page.locator('.explore').screenshot({ path: path.join(SHOTS, 'sweep-scrub.png') });
  const again = await page.context().newPage();
  await again.goto(shared);
  const c2 = again.locator('canvas.sweep-canvas');
  await expect(again.locator('.sweep-timing')).toBeVisible();
  await expect.poll(() => c2.evaluate((c) => [c.width, c.height])).toEqual([256, 256]);
  await expect.poll(() => checksum(c2)).toBe(sum);
  await expect(again.locator('#sweep-scrub')).toHaveValue('10');
  await again.close();

  const t = {
    instruction: PTX,
    big: { cells: 1024 * 1024, eval_ms: med(big.evals), total_ms: med(big.total), samples: big.total.length,
      max_ms: Math.max(...big.total) },
    big_with_text: { eval_ms: med(withText.evals), total_ms: med(withText.total) },
    scrub_256: { eval_ms: med(scrubbed.evals), total_ms: med(scrubbed.total), samples: scrubbed.total.length,
      max_ms: Math.max(...scrubbed.total) },
  };
  record([
    `sweep of 1024 x 1024 on plans (${PTX}): evaluations median ${f(t.big.eval_ms)} ms, evaluations + drawing median ${f(t.big.total_ms)} ms (max ${f(t.big.max_ms)}; goal <= 50 ms) over ${t.big.samples} draws`,
    `sweep of 1024 x 1024 with the ISA text's reading compared in every cell: evaluations ${f(t.big_with_text.eval_ms)} ms, with drawing ${f(t.big_with_text.total_ms)} ms`,
    `scrub frame of 256 x 256 (slider on c): evaluations median ${f(t.scrub_256.eval_ms)} ms, evaluations + drawing median ${f(t.scrub_256.total_ms)} ms (max ${f(t.scrub_256.max_ms)}; goal <= 16 ms) over ${t.scrub_256.samples} moves`,
  ], t);
});

// Independent of the core: the ISA text's shf.l.wrap, the high word of the funnel b:a.
function shflWrap(a, b, c) {
  const pair = (BigInt(b >>> 0) << 32n) | BigInt(a >>> 0);
  return Number(((pair << BigInt(c & 31)) >> 32n) & 0xffffffffn);
}

test('sweep of a program instruction on its plan: 1024 x 1024, cells as the ISA text computes them', async ({ page }) => {
  const ptx = 'shf.l.wrap.b32 d, a, b, c;';
  const q = `?i=${encodeURIComponent(ptx)}&a=0x00000000&b=0x00000000&c=0x00000005&sweep=${encodeURIComponent(BIG)}`;
  await page.goto('./' + q);
  const canvas = page.locator('canvas.sweep-canvas');
  await expect(canvas).toBeVisible();
  await expect.poll(() => canvas.evaluate((c) => [c.width, c.height])).toEqual([1024, 1024]);
  await expect(page.locator('#sweep-grid')).toHaveValue('1024');
  // Every instruction is swept on its plan: no note sets the program instructions apart.
  await expect(page.locator('.sweep-actions')).not.toContainText('plan');
  const big = await drawn(page, 3);
  // The cell at column 5, row 3: a = 5 * 2^22, b = 3 * 2^22, c = 5.
  await canvas.focus();
  for (let i = 0; i < 5; i++) await canvas.press('ArrowRight');
  for (let i = 0; i < 3; i++) await canvas.press('ArrowDown');
  const tip = page.locator('.sweep-tip dl.case');
  await expect(tip).toHaveAttribute('data-col', '5');
  await expect(tip).toHaveAttribute('data-row', '3');
  const want = shflWrap(5 * 0x400000, 3 * 0x400000, 5).toString(16).padStart(8, '0');
  await expect(tip.locator('dd[data-name="d"]')).toHaveText(`0x${want}`);
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.locator('.explore').screenshot({ path: path.join(SHOTS, 'sweep-shf-1024.png') });
  const line = `sweep of 1024 x 1024 of a program instruction (${ptx}): evaluations median ${f(med(big.evals))} ms, evaluations + drawing median ${f(med(big.total))} ms over ${big.total.length} draws`;
  fs.mkdirSync(OUT, { recursive: true });
  fs.appendFileSync(path.join(OUT, 'timings-sweep.txt'), line + '\n');
  console.log(line);
});
