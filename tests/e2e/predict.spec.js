// Predict d: the button hides d, "Check" answers "correct" for the core's d, and for a wrong d
// names the wrong bits and a stage; that stage is one that provenance leads to from those bits
// (pointing at the bit in the figure lights it), and it is lit in the figure. Hints come one at
// a time before the answer. The embed offers the same. Axe finds nothing serious.
const path = require('path');
const { test, expect } = require('@playwright/test');
const { watch, axe } = require('./page');

const SHOTS = path.join(__dirname, '..', '..', 'test-results', 'screenshots');

function url(i, vals, extra = '') {
  const q = new URLSearchParams({ i, ...vals });
  return `./?${q.toString()}${extra}`;
}

// The core's d for a case, read from the ordinary view.
async function coreD(page, i, vals) {
  await page.goto(url(i, vals));
  const d = page.getByLabel('d (hex)', { exact: true });
  await expect(d).toHaveValue(/^0x/, { timeout: 30_000 });
  return d.inputValue();
}

async function predict(page, guess) {
  const box = page.getByLabel('Your d (hex)');
  await box.fill(guess);
  await page.getByRole('button', { name: 'Check', exact: true }).click();
  return page.locator('.predict-status[role=status]').first();
}

const CASES = [
  ['vadd4.u32.u32.u32.sat d, a, b, c;', { a: '0x0000ff00', b: '0x00000100', c: '0x0' }],
  ['vadd.s32.s32.s32.sat d.b0, a.b0, b.b1, c;', { a: '0x00000080', b: '0x00007f00', c: '0x12345678' }],
  ['vmad.s32.s32.s32.shr15 d, -a.h0, b.h1, c;', { a: '0x1234', b: '0x56780000', c: '0x9' }],
  ['mul.hi.u32 d, a, b;', { a: '0xdeadbeef', b: '0x12345678' }],
  ['prmt.b32 d, a, b, c;', { a: '0x11223344', b: '0x55667788', c: '0x5140' }],
];

test.describe('predict d', () => {
  test('right d is correct; a flipped bit is named with a stage that provenance gives', async ({ page }) => {
    const problems = watch(page);
    for (const [i, vals] of CASES) {
      const d = await coreD(page, i, vals);
      const n = BigInt(d);
      await page.goto(url(i, vals, '&predict=1'));
      await expect(page.getByLabel('Your d (hex)')).toBeVisible({ timeout: 30_000 });
      // d is hidden.
      await expect(page.getByLabel('d (hex)', { exact: true })).toHaveCount(0);
      let status = await predict(page, d);
      await expect(status, i).toHaveText('correct');
      for (const bit of [0, 7, 8, 31]) {
        const wrong = '0x' + (n ^ (1n << BigInt(bit))).toString(16);
        status = await predict(page, wrong);
        await expect(status, `${i} bit ${bit}`).toContainText(`bit ${bit} of d is wrong`);
        const text = await status.textContent();
        const m = text.match(/from the (.+?) \(stage (\d+)\)/);
        expect(m, text).not.toBeNull();
        const stage = Number(m[2]) - 1;
        // Show the answer (after every hint): the whole figure, with the named stage lit.
        await page.getByRole('button', { name: 'Show the answer' }).or(page.getByRole('button', { name: /^Hint/ })).first().waitFor();
        while (await page.getByRole('button', { name: /^Hint/ }).count()) {
          await page.getByRole('button', { name: /^Hint/ }).click();
        }
        await page.getByRole('button', { name: 'Show the answer' }).click();
        await expect(page.getByLabel('d (hex)', { exact: true })).toHaveValue(d);
        const lit = page.locator(`.fig-stage[data-explains][data-stage="${stage}"]`);
        await expect(lit, `${i} bit ${bit}: stage ${stage} lit`).toHaveCount(1);
        // Provenance: pointing at that bit of d lights bits of the named stage (or it is d's).
        const cellD = page.locator(`.fig-stage[data-kind="result"] rect.cell[data-bit="${bit}"]`).first();
        await cellD.hover();
        await expect(cellD).toHaveAttribute('data-pointed', '');
        const dStage = Number(await page.locator('.fig-stage[data-kind="result"]').first().getAttribute('data-stage'));
        if (stage !== dStage) {
          await expect(lit.locator('rect.cell[data-lit]').first(), `${i} bit ${bit}`).toBeAttached();
        }
        // Start over for the next bit.
        await page.goto(url(i, vals, '&predict=1'));
        await expect(page.getByLabel('Your d (hex)')).toBeVisible({ timeout: 30_000 });
      }
    }
    expect(problems).toEqual([]);
  });

  test('the clamp explains an unclamped sum; hints one at a time; clicking bits; axe; screenshot', async ({ page }) => {
    const problems = watch(page);
    const i = 'vadd4.u32.u32.u32.sat d, a, b, c;';
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(url(i, { a: '0x0000ff00', b: '0x00000100', c: '0x0' }));
    await page.getByRole('button', { name: 'Predict d' }).click();
    await expect(page.getByLabel('Your d (hex)')).toBeVisible();
    await expect(page).toHaveURL(/predict=1/);
    const status = await predict(page, '0x10000');
    await expect(status).toContainText('bits 8, 9, 10, 11, 12, 13 … 16 (9 bits) of d are wrong');
    await expect(status).toContainText('the clamp of lane 1');
    await expect(status).toContainText('the sum 0x100 was clamped to 0xff');
    await expect(page.locator('.fig-stage[data-explains][data-kind="clamp"]')).toHaveCount(1);
    // d is hidden in the figure too: its title says d = ?, and no result stage is drawn.
    await expect(page.getByRole('figure', { name: 'Pipeline' })).toContainText('d = ?');
    await expect(page.locator('.fig-stage[data-kind="result"]')).toHaveCount(0);
    await expect(page.locator('.stage-list .stage.explains')).toHaveCount(1);
    // The wrong bits are marked on the bit buttons.
    await expect(page.getByRole('button', { name: /^bit 16, wrong: / })).toBeVisible();
    await page.setViewportSize({ width: 1280, height: 1500 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(SHOTS, 'predict-wrong-1280.png'), fullPage: false });
    await page.setViewportSize({ width: 1280, height: 900 });
    await axe(page, 'predict mode after a wrong answer');
    // Hints: one at a time.
    await page.getByRole('button', { name: /^Hint \(1 of/ }).click();
    await expect(page.getByRole('list', { name: 'Hints' }).getByRole('listitem')).toHaveCount(1);
    await page.getByRole('button', { name: /^Hint \(2 of/ }).click();
    await expect(page.getByRole('list', { name: 'Hints' }).getByRole('listitem')).toHaveCount(2);
    await expect(page.getByRole('button', { name: 'Show the answer' })).toHaveCount(0);
    // Clicking bits builds the right value: bit 16 off, bits 8-15 on.
    await page.getByRole('button', { name: /^bit 16, wrong: / }).click();
    for (let b = 8; b < 16; b++) await page.getByRole('button', { name: new RegExp(`^bit ${b}: `) }).click();
    await expect(page.getByLabel('Your d (hex)')).toHaveValue('0x0000ff00');
    await page.getByRole('button', { name: 'Check', exact: true }).click();
    await expect(page.locator('.predict-status[role=status]').first()).toHaveText('correct');
    await expect(page.getByLabel('d (hex)', { exact: true })).toHaveValue('0x0000ff00');
    expect(problems).toEqual([]);
  });

  test('the embed offers predict mode', async ({ page }) => {
    const problems = watch(page);
    await page.goto(url('vadd4.u32.u32.u32.sat d, a, b, c;', { a: '0x0000ff00', b: '0x00000100', c: '0x0' }, '&embed=1'));
    await page.getByRole('button', { name: 'Predict d' }).click();
    const status = await predict(page, '0xff00');
    await expect(status).toHaveText('correct');
    const wrong = await predict(page, '0xff01');
    await expect(wrong).toContainText('bit 0 of d is wrong');
    await axe(page, 'embed in predict mode');
    expect(problems).toEqual([]);
  });
});
