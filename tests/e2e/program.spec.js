// The Program view: paste a program, step through it, check the registers and the figure, step
// back, restart, keys, and a refused line.
const { test, expect } = require('@playwright/test');
const path = require('path');
const { watch } = require('./page');

const SHOTS = path.join(__dirname, '..', '..', 'test-results', 'screenshots');

const PROGRAM = [
  '// __vsub2 as nvcc 13 emits it',
  '{ .reg .b16 lo, hi;',
  '  mov.b32 {lo, hi}, %r3;',
  '  neg.s16 lo, lo;',
  '  neg.s16 hi, hi;',
  '  mov.b32 %neg, {lo, hi};',
  '  add.s16x2 %r1, %r2, %neg; }',
  'setp.lt.s32 %p1, %r1, 0;',
  '@%p1 prmt.b32 %r4, %r1, 0, 0xba98;',
].join('\n');

function reg(page, name) {
  return page.locator(`.program-regs tr[data-reg="${name}"]`);
}

test('program view: step, registers, figure, back, restart, keys', async ({ page }) => {
  const problems = watch(page);
  await page.goto('./');
  const view = page.locator('section.program');
  await expect(view.getByRole('heading', { name: 'Program' })).toBeVisible();
  await view.getByLabel('Program', { exact: true }).fill(PROGRAM);
  await view.getByLabel('Starting registers').fill('%r2=0x00050003 %r3=0x00070001');
  await expect(view.locator('.program-pos')).toHaveText('step 0 of 7');
  await expect(view.locator('.program-lines li.next')).toContainText('mov.b32 {lo, hi}, %r3;');
  // Every register is listed from the start; unset ones are 0.
  await expect(reg(page, '%r1').locator('td.hex')).toHaveText('0x00000000');
  await expect(reg(page, '%p1').locator('td.hex')).toHaveText('false');

  await view.getByRole('button', { name: 'Step', exact: true }).click();
  await expect(reg(page, 'lo').locator('td.hex')).toHaveText('0x0001');
  await expect(reg(page, 'hi').locator('td.hex')).toHaveText('0x0007');
  await expect(reg(page, 'lo')).toHaveClass(/changed/);
  await expect(view.locator('.program-figure figcaption')).toHaveText('line 3: mov.b32 {lo, hi}, %r3');
  await expect(view.locator('.program-lines li.next')).toContainText('neg.s16 lo, lo;');

  for (let i = 0; i < 4; i++) await view.getByRole('button', { name: 'Step', exact: true }).click();
  await expect(reg(page, '%r1').locator('td.hex')).toHaveText('0xfffe0002');
  await expect(reg(page, '%r1').locator('td').nth(2)).toHaveText('-131070');
  await expect(reg(page, '%r1')).toHaveClass(/changed/);
  await expect(reg(page, '%neg')).not.toHaveClass(/changed/);
  // The figure is the add.s16x2 trace with its actual half-words.
  await expect(view.locator('.program-figure figcaption')).toHaveText('line 7: add.s16x2 %r1, %r2, %neg');
  await expect(view.locator('.program-figure')).toContainText('0xfffe');

  await view.getByRole('button', { name: 'Step back' }).click();
  await expect(reg(page, '%r1').locator('td.hex')).toHaveText('0x00000000');
  await expect(view.locator('.program-pos')).toHaveText('step 4 of 7');

  await view.getByRole('button', { name: 'Run to end' }).click();
  await expect(view.locator('.program-pos')).toHaveText('step 7 of 7');
  // 0xfffe0002 is negative: the guard holds and prmt replicates each byte's sign.
  await expect(reg(page, '%p1').locator('td.hex')).toHaveText('true');
  await expect(reg(page, '%r4').locator('td.hex')).toHaveText('0xffff0000');
  await expect(view.locator('.program-figure')).toContainText('sign bit (1) replicated');
  await view.screenshot({ path: path.join(SHOTS, 'program-end.png') });

  // Clicking a register shows the instruction that last wrote it.
  await reg(page, '%neg').getByRole('button').click();
  await expect(view.locator('.program-figure figcaption')).toHaveText('line 6: mov.b32 %neg, {lo, hi}');

  // Keys on the toolbar: Home restarts, ArrowRight steps.
  await view.getByRole('toolbar').focus();
  await page.keyboard.press('Home');
  await expect(view.locator('.program-pos')).toHaveText('step 0 of 7');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(view.locator('.program-pos')).toHaveText('step 2 of 7');
  await page.keyboard.press('ArrowLeft');
  await expect(view.locator('.program-pos')).toHaveText('step 1 of 7');

  // Other starting values: a positive sum, so the guarded line is skipped.
  await view.getByLabel('Starting registers').fill('%r2=0x00050003 %r3=0x00010001');
  await view.getByRole('button', { name: 'Run to end' }).click();
  await expect(reg(page, '%r1').locator('td.hex')).toHaveText('0x00040002');
  await expect(reg(page, '%p1').locator('td.hex')).toHaveText('false');
  await expect(reg(page, '%r4').locator('td.hex')).toHaveText('0x00000000');
  await expect(view.locator('.program-skip')).toContainText('skipped, its guard is false');
  await view.screenshot({ path: path.join(SHOTS, 'program-guard.png') });

  // A branch is refused with its line.
  await view.getByLabel('Program', { exact: true }).fill('mov.b32 %r1, 1;\n@%p1 bra L1;');
  await expect(view.getByRole('alert')).toContainText('line 2: \'bra\' is not supported');
  expect(problems).toEqual([]);
});
