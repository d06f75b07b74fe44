// Exercise sets: a lesson gives a teacher one link; the student works through every case in
// predict mode (answers kept in localStorage only, no request leaves the page), gets a summary
// of the stages that explained wrong bits and a link carrying the answers, which opens the same
// summary for the teacher.
const { test, expect } = require('@playwright/test');
const { watch } = require('./page');

test.describe('exercise sets', () => {
  test('a set link opens, is worked through and gives its summary', async ({ page, context }) => {
    const problems = watch(page);
    await page.goto('./?lesson=simd');
    await expect(page.locator('#lesson-title')).not.toBeEmpty({ timeout: 30_000 });
    const href = await page.locator('a.set-own').getAttribute('href');
    expect(href).toMatch(/^\?set=/);
    const drawn = await page.locator('a.set-drawn').getAttribute('href');
    expect(drawn).toMatch(/^\?set=/);
    // The core's d of each case, from the lesson's figures (the set is the lesson's cases).
    const ds = await page.locator('.lesson-widget').evaluateAll((els) => els.map((e) => e.getAttribute('data-d')));
    expect(ds.length).toBe(3);
    // Watch for requests once the set is open: nothing is sent anywhere.
    await page.goto(href);
    const sent = [];
    page.on('request', (r) => { if (r.method() !== 'GET') sent.push(r.url()); });
    await expect(page.getByRole('heading', { name: 'Case 1 of 3' })).toBeVisible({ timeout: 30_000 });
    // Case 1: a wrong answer (bit 24 flipped); cases 2 and 3: right.
    const wrong = '0x' + (BigInt(ds[0]) ^ (1n << 24n)).toString(16);
    const answers = [wrong, ds[1], ds[2]];
    for (let k = 0; k < 3; k++) {
      await expect(page.getByRole('heading', { name: `Case ${k + 1} of 3` })).toBeVisible();
      await page.getByLabel('Your d (hex)').fill(answers[k]);
      await page.getByRole('button', { name: 'Check', exact: true }).click();
      const status = page.locator('.predict-status[role=status]');
      if (k === 0) await expect(status).toContainText('bit 24 of d is wrong');
      else await expect(status).toHaveText('correct');
      await page.getByRole('button', { name: k === 2 ? 'Finish' : 'Next case' }).click();
    }
    await expect(page.getByRole('heading', { name: 'Summary' })).toBeVisible();
    await expect(page.locator('.set-score')).toHaveText('2 of 3 correct (3 answered).');
    await expect(page.getByRole('table')).toContainText('clamp');
    // Kept in this browser only.
    const stored = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('ptxlab-set-')).map((k) => localStorage.getItem(k)));
    expect(stored).toEqual([answers.map((a) => BigInt(a).toString(16)).join(',')]);
    // The link back carries the answers and opens the same summary.
    const back = await page.locator('a.set-return').getAttribute('href');
    expect(back).toContain('&answers=');
    const teacher = await context.newPage();
    await teacher.goto(new URL(back, page.url()).href);
    await expect(teacher.getByRole('heading', { name: 'Answers sent back' })).toBeVisible({ timeout: 30_000 });
    await expect(teacher.locator('.set-score')).toHaveText('2 of 3 correct (3 answered).');
    await expect(teacher.locator('.set-cases li').first()).toContainText('bit 24 of d is wrong');
    expect(sent).toEqual([]);
    // A set that does not read says so.
    await page.goto('./?set=vaddd+d,+a;');
    await expect(page.getByRole('status')).toContainText('cannot be read');
    expect(problems).toEqual([]);
  });
});
