// The Program view: open it from its tab, paste a program and starting registers, step through
// it, check the registers and the figure, step back, share the link, reload and find the same
// state; keys, a refused line, the embed, and axe on the view. Screenshots at 1280 and 360 px.
const { test, expect } = require('@playwright/test');
const fs = require('fs');
const path = require('path');
const { watch, axe } = require('./page');

const SHOTS = path.join(__dirname, '..', '..', 'test-results', 'screenshots');

// SWAR byte add: the low seven bits of each byte added, the top bits put back with xor, and
// prmt replicating each byte's sign; a guard on the sign of the sum.
const PROGRAM = [
  '// bytes of %a plus bytes of %b, no carry between bytes',
  'and.b32 %lo_a, %a, 0x7f7f7f7f;',
  'and.b32 %lo_b, %b, 0x7f7f7f7f;',
  'add.u32 %sum, %lo_a, %lo_b;',
  'xor.b32 %top, %a, %b;',
  'lop3.b32 %r, %sum, %top, 0x80808080, 0x78;  // sum ^ (top & 0x80808080)',
  'prmt.b32 %sign, %r, 0, 0xba98;',
  'setp.lt.s32 %p1, %r, 0;',
  '@%p1 not.b32 %n, %r;',
].join('\n');

function reg(page, name) {
  return page.locator(`.program-regs tr[data-reg="${name}"]`);
}

test('program view: paste, step, registers, figure, back, share, reload', async ({ page, context }) => {
  test.setTimeout(120_000);
  const problems = watch(page);
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('./');
  // The single-instruction view is the default and keeps its names.
  await expect(page.getByRole('textbox', { name: 'Instruction' })).toBeVisible();
  await page.getByRole('tab', { name: 'Program' }).click();
  await expect(page.getByRole('tab', { name: 'Program' })).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(/\?prog=/);

  const text = page.getByRole('textbox', { name: 'Program', exact: true });
  await text.fill(PROGRAM);
  // Every register the program uses has a starting-value field; empty ones are 0.
  await expect(page.getByText('Every register left empty starts at 0')).toBeVisible();
  await expect(page.getByLabel('%sum starting value')).toHaveValue('');
  await page.getByLabel('%a starting value').fill('0x80ff7f01');
  await page.getByLabel('%b starting value').fill('0x80017f02');
  await expect(page.locator('.program-pos')).toHaveText('step 0 of 8');
  await expect(page.locator('.program-lines li[aria-current="step"]')).toContainText('and.b32 %lo_a, %a, 0x7f7f7f7f;');
  await expect(reg(page, '%sum').locator('td.hex')).toHaveText('0x00000000');
  await expect(reg(page, '%p1').locator('td.hex')).toHaveText('false');

  const forward = page.getByRole('button', { name: 'Step forward' });
  for (let i = 0; i < 3; i++) await forward.click();
  await expect(reg(page, '%lo_a').locator('td.hex')).toHaveText('0x007f7f01');
  await expect(reg(page, '%sum').locator('td.hex')).toHaveText('0x0080fe03');
  await expect(reg(page, '%sum')).toHaveClass(/changed/);
  await expect(reg(page, '%lo_a')).not.toHaveClass(/changed/);
  await expect(page.locator('.program-lines li[aria-current="step"]')).toContainText('xor.b32 %top, %a, %b;');
  // The figure draws the add with its actual operands.
  await expect(page.locator('.program-figure figcaption')).toHaveText('line 4: add.u32 %sum, %lo_a, %lo_b');
  await expect(page.getByRole('figure', { name: 'Pipeline' })).toBeVisible();
  await expect(page.locator('.program-figure .stage-list')).toContainText('0x0080fe03');

  await forward.click();
  await forward.click();
  // Each byte added on its own: 80+80=00, ff+01=00, 7f+7f=fe, 01+02=03.
  await expect(reg(page, '%r').locator('td.hex')).toHaveText('0x0000fe03');
  await expect(reg(page, '%r').locator('td.unsigned')).toHaveText('65027');
  await expect(page.locator('.program-figure figcaption')).toContainText('lop3.b32');
  await page.screenshot({ path: path.join(SHOTS, 'program-1280.png'), fullPage: true });

  // Step back undoes the lop3.
  await page.getByRole('button', { name: 'Step back' }).click();
  await expect(reg(page, '%r').locator('td.hex')).toHaveText('0x00000000');
  await expect(page.locator('.program-pos')).toHaveText('step 4 of 8');
  await expect(page).toHaveURL(/step=4/);

  // Share: the link carries program, registers and step; a reload shows the same state.
  const url = page.url();
  expect(url).toContain('regs=');
  await page.goto(url);
  await expect(page.getByRole('tab', { name: 'Program' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('textbox', { name: 'Program', exact: true })).toHaveValue(PROGRAM);
  await expect(page.getByLabel('%a starting value')).toHaveValue('0x80ff7f01');
  await expect(page.locator('.program-pos')).toHaveText('step 4 of 8');
  await expect(reg(page, '%top').locator('td.hex')).toHaveText('0x00fe0003');
  await page.reload();
  await expect(page.locator('.program-pos')).toHaveText('step 4 of 8');

  // Run to the end: %r's top byte is clear, so the guard is false and not.b32 is skipped.
  await page.getByRole('button', { name: 'Run to end' }).click();
  await expect(page.locator('.program-pos')).toHaveText('step 8 of 8');
  await expect(reg(page, '%sign').locator('td.hex')).toHaveText('0x0000ff00');
  await expect(reg(page, '%p1').locator('td.hex')).toHaveText('false');
  await expect(page.locator('.program-skip')).toContainText('skipped, its guard is false');

  // Clicking a register shows the instruction that last wrote it.
  await reg(page, '%sum').getByRole('button').click();
  await expect(page.locator('.program-figure figcaption')).toHaveText('line 4: add.u32 %sum, %lo_a, %lo_b (last wrote %sum)');

  // Keys on the toolbar.
  await page.getByRole('toolbar', { name: 'Step through the program' }).focus();
  await page.keyboard.press('Home');
  await expect(page.locator('.program-pos')).toHaveText('step 0 of 8');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('.program-pos')).toHaveText('step 2 of 8');
  await page.keyboard.press('ArrowLeft');
  await expect(page.locator('.program-pos')).toHaveText('step 1 of 8');
  await page.keyboard.press('End');
  await expect(page.locator('.program-pos')).toHaveText('step 8 of 8');

  await axe(page, 'program view');

  await page.setViewportSize({ width: 360, height: 800 });
  // The register table fits the phone's width: every column shows without scrolling.
  await expect.poll(() => page.locator('.program-regs-wrap').evaluate((w) => w.scrollWidth - w.clientWidth))
    .toBeLessThanOrEqual(0);
  await page.screenshot({ path: path.join(SHOTS, 'program-360.png'), fullPage: true });

  // A refused line names the line and what is supported.
  await page.getByRole('textbox', { name: 'Program', exact: true }).fill('mov.b32 %r1, 1;\nbar.sync 0;');
  await expect(page.locator('.program-error')).toContainText('line 2: ');
  await expect(page.locator('.program-error')).toContainText('barriers');
  expect(problems).toEqual([]);
});

test('program addresses: the Intrinsic link form, the embed, back to one instruction', async ({ page }) => {
  const problems = watch(page);
  const enc = (s) => encodeURIComponent(s).replace(/%20/g, '+');
  const q = `?prog=${enc('add.u32 %r, %a, %b;')}&regs=${enc('%a=0x01020304,%b=0x05060708')}`;
  await page.goto('./' + q);
  await expect(page.getByRole('tab', { name: 'Program' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('button', { name: 'Run to end' }).click();
  await expect(reg(page, '%r').locator('td.hex')).toHaveText('0x06080a0c');
  await expect(page.locator('#address-note')).toHaveCount(0);

  await page.goto('./' + q + '&step=1&embed=1');
  await expect(page.locator('main.embed-program')).toBeVisible();
  await expect(reg(page, '%r').locator('td.hex')).toHaveText('0x06080a0c');
  await expect(page.getByRole('link', { name: 'Open in ptxlab' })).toHaveAttribute('href', /prog=.*step=1$/);

  await page.goto('./' + q);
  await page.getByRole('tab', { name: 'One instruction' }).click();
  await expect(page.getByRole('textbox', { name: 'Instruction' })).toBeVisible();
  await expect(page.getByLabel('d (hex)')).toBeVisible();
  await expect(page).toHaveURL(/\?i=/);
  expect(problems).toEqual([]);
});

// One thread of a kernel from the gallery: nvcc's popcount loop over an array in global
// memory. Parameters and memory come with the link; the loop's branch shows its taken edge;
// the bytes written equal what an H200 wrote (the same check runs natively in src/gallery.rs).
test('program view: a gallery kernel loops over memory', async ({ page }) => {
  test.setTimeout(120_000);
  const problems = watch(page);
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('./?prog=x');
  await page.getByRole('tab', { name: 'Program' }).click();
  const gallery = page.getByRole('navigation', { name: 'Gallery of real programs' });
  await expect(gallery.getByRole('link')).toHaveCount(8);
  await gallery.getByRole('link', { name: 'A popcount loop over an array' }).click();
  await expect(page).toHaveURL(/mem=/);
  await expect(page.getByLabel('popcount_loop_param_2 starting value')).toHaveValue('12');
  await expect(page.getByRole('textbox', { name: 'Memory' })).toHaveValue(/^0x1000=23fde260/);
  // Into the loop: step until the first bra has run, taken back to the loop's first line.
  const forward = page.getByRole('button', { name: 'Step forward' });
  for (let i = 0; i < 22; i++) await forward.click();
  await expect(page.locator('.program-pos')).toHaveText('step 22');
  await expect(page.locator('.program-lines .branch-edge')).toContainText('taken: on to line');
  await expect(page.locator('.program-did')).toContainText('taken: on to line');
  await expect(page.getByRole('table', { name: 'Memory' })).toContainText('written');
  await page.screenshot({ path: path.join(SHOTS, 'program-kernel-1280.png'), fullPage: true });
  await page.getByRole('button', { name: 'Run to end' }).click();
  await expect(page.locator('.program-pos')).toHaveText(/, the end$/);
  // popc of the twelve words 0x60e2fd23, 0xfd607ce9, ...: the first is 16 bits set.
  const written = page.getByRole('table', { name: 'Memory' }).locator('tr.written');
  await expect(written).toHaveCount(1);
  await expect(written).toContainText('0x2000');
  await expect(written.locator('.mem-bytes')).toContainText('10 00 00 00 13 00 00 00');
  await axe(page, 'program view with a kernel');
  // A loop that never ends stops with a message.
  await page.getByRole('textbox', { name: 'Program', exact: true }).fill('L: add.u32 %r1, %r1, 1;\nbra L;');
  await page.getByRole('button', { name: 'Run to end' }).click();
  await expect(page.locator('.program-error')).toContainText('loop forever');
  expect(problems).toEqual([]);
});

// The Program, intrinsic, lesson and exercise views are a second wasm module: the instruction
// view never fetches it; the first of those views fetches it once, and switching tabs keeps
// both views' states.
test('the views module is fetched when a view of it first opens, once', async ({ page }) => {
  const problems = watch(page);
  const fetched = [];
  page.on('request', (r) => {
    if (r.url().includes('/views/')) fetched.push(new URL(r.url()).pathname);
  });
  await page.goto('./?i=' + encodeURIComponent('add.u32 d, a, b;') + '&a=0x5&b=0x7');
  await expect(page.getByLabel('d (hex)', { exact: true })).toHaveValue('0x0000000c');
  await page.waitForLoadState('networkidle');
  expect(fetched).toEqual([]);

  await page.getByRole('tab', { name: 'Program' }).click();
  await page.getByRole('textbox', { name: 'Program', exact: true }).fill('add.u32 %r, %a, %b;');
  await expect(fetched.some((p) => p.endsWith('/views/ptxlab-views_bg.wasm'))).toBe(true);
  const once = fetched.length;
  // Back to the instruction, its operands as they were; forward to the program, as it was.
  await page.getByRole('tab', { name: 'One instruction' }).click();
  await expect(page.getByLabel('d (hex)', { exact: true })).toHaveValue('0x0000000c');
  await page.getByRole('tab', { name: 'Program' }).click();
  await expect(page.getByRole('textbox', { name: 'Program', exact: true })).toHaveValue('add.u32 %r, %a, %b;');
  // Back and forward through the history between the two.
  await page.goBack();
  await expect(page.getByLabel('d (hex)', { exact: true })).toHaveValue('0x0000000c');
  await page.goForward();
  await expect(page.getByRole('textbox', { name: 'Program', exact: true })).toHaveValue('add.u32 %r, %a, %b;');
  // The intrinsic view comes from the same module, fetched no more.
  await page.getByRole('link', { name: 'CUDA intrinsic' }).click();
  await expect(page.getByRole('table', { name: 'Cost on each GPU' })).toBeVisible();
  expect(fetched.length).toBe(once);
  expect(problems).toEqual([]);
});

// When the views module cannot be fetched, the page says so and how to recover, instead of
// staying blank; the header and the instruction view still work.
test('a views module that cannot be fetched is explained', async ({ page }) => {
  await page.route('**/views/**', (r) => r.abort());
  await page.goto('./?fn=__vabs2');
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('could not be loaded');
  await expect(alert).toContainText('Reload the page');
  await expect(page.locator('.views-loading')).toHaveCount(0);
  // The header still leads to the instruction view, which needs no second module.
  await page.getByRole('link', { name: 'PTX instruction' }).click();
  await expect(page.getByLabel('d (hex)', { exact: true })).toBeVisible();
});
