// Lessons: the header link opens the index; every lesson loads and every live figure shows the
// core's d (the embedded playground's own evaluation equals the value the lesson page computed
// and states); a value changed in a figure changes its stages; predict mode works inside a
// lesson; axe finds nothing serious; screenshots at 1280 and 360 px.
const path = require('path');
const { test, expect } = require('@playwright/test');
const { watch, axe } = require('./page');

const SHOTS = path.join(__dirname, '..', '..', 'test-results', 'screenshots');
const LESSONS = ['selectors', 'saturation', 'secondary', 'simd', 'vmad', 'hardware', 'wide', 'fields', 'intrinsics'];

// The d shown by live figure k of the page, once it has loaded.
async function figureD(page, k) {
  const frame = page.locator('iframe[data-ptxlab-frame]').nth(k);
  await frame.scrollIntoViewIfNeeded();
  const d = page.frameLocator('iframe[data-ptxlab-frame]').nth(k).getByLabel('d (hex)', { exact: true });
  await expect(d).toHaveValue(/^0x/, { timeout: 30_000 });
  return d.inputValue();
}

test.describe('lessons', () => {
  test('the header link opens the index, which lists every lesson', async ({ page }) => {
    const problems = watch(page);
    await page.goto('./');
    await page.getByRole('link', { name: 'Lessons' }).click();
    await expect(page).toHaveURL(/lesson=index/);
    const items = page.locator('.lesson-list > li > a');
    await expect(items).toHaveCount(LESSONS.length);
    for (let i = 0; i < LESSONS.length; i++) {
      await expect(items.nth(i)).toHaveAttribute('href', `?lesson=${LESSONS[i]}`);
    }
    await page.goto('./?lesson=nothing-here');
    await expect(page.getByRole('status')).toContainText('There is no lesson named');
    expect(problems).toEqual([]);
  });

  test('every lesson loads and every figure shows the core d', async ({ page }) => {
    test.setTimeout(240_000);
    const problems = watch(page);
    let figures = 0;
    for (const name of LESSONS) {
      await page.goto(`./?lesson=${name}`);
      await expect(page.locator('#lesson-title')).not.toBeEmpty({ timeout: 30_000 });
      const widgets = page.locator('.lesson-widget');
      const n = await widgets.count();
      expect(n, name).toBeGreaterThan(0);
      await expect(page.locator('iframe[data-ptxlab-frame]')).toHaveCount(n);
      for (let k = 0; k < n; k++) {
        const want = await widgets.nth(k).getAttribute('data-d');
        const got = await figureD(page, k);
        expect(BigInt(got), `${name} figure ${k}`).toBe(BigInt(want));
        await expect(widgets.nth(k).locator('xpath=..').locator('figcaption')).toContainText(`d = ${want}`);
        figures++;
      }
    }
    expect(figures).toBeGreaterThanOrEqual(18);
    expect(problems).toEqual([]);
  });

  test('a figure is live, predict works in a lesson; axe; screenshots', async ({ page }) => {
    const problems = watch(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('./?lesson=selectors');
    await figureD(page, 0);
    await page.waitForTimeout(500);
    await page.screenshot({ path: path.join(SHOTS, 'lesson-1280.png'), fullPage: false });
    await axe(page, 'lesson selectors');
    const f = page.frameLocator('iframe[data-ptxlab-frame]').first();
    // Change a: byte 1 becomes 0x01, so d = 1 + 5.
    const a = f.getByLabel('a (hex)', { exact: true });
    await a.fill('0x00000100');
    await a.press('Tab');
    await expect(f.getByLabel('d (hex)', { exact: true })).toHaveValue('0x00000006');
    await expect(f.locator('.stage-list .stage[data-kind="operate"] .output')).toHaveText('tmp = 0x000000006');
    // Predict d inside the lesson's figure.
    await f.getByRole('button', { name: 'Predict d' }).click();
    await f.getByLabel('Your d (hex)').fill('0x7');
    await f.getByRole('button', { name: 'Check', exact: true }).click();
    await expect(f.locator('.predict-status')).toContainText('bit 0 of d is wrong');
    await page.setViewportSize({ width: 360, height: 800 });
    await page.goto('./?lesson=saturation');
    await figureD(page, 0);
    await page.waitForTimeout(500);
    await page.screenshot({ path: path.join(SHOTS, 'lesson-360.png'), fullPage: false });
    const [sw, cw] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
    expect(sw, 'no horizontal page scroll at 360 px').toBeLessThanOrEqual(cw);
    expect(problems).toEqual([]);
  });
});
