// The logic, shift, move, compare and convert instructions (prmt, lop3, setp, cvt ...) typed
// into the single-instruction view: d (hex) as the ISA text computes it, the pickers offer
// their families and modifiers, Learn says they were measured, the CUDA statement, and
// screenshots of prmt with sign replication and of lop3 at 1280 px.

const fs = require('fs');
const path = require('path');
const { test, expect } = require('@playwright/test');
const { watch } = require('./page');

const SHOTS = path.resolve(__dirname, '..', '..', 'test-results', 'screenshots');

async function open(page) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('./');
  await expect(page.getByLabel('d (hex)')).toBeVisible();
}

async function setInstruction(page, ptx) {
  await page.getByLabel('Instruction', { exact: true }).fill(ptx);
  await expect(page.locator('#insn-msg')).toHaveCount(0);
}

async function setOperands(page, values) {
  for (const [r, v] of Object.entries(values)) {
    await page.getByLabel(`${r} (hex)`, { exact: true }).fill(v);
  }
}

async function shot(page, name) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

// Independent of the core: the ISA text's prmt, default mode.
function prmt(a, b, c) {
  const pool = [];
  for (let i = 0; i < 4; i++) pool.push((a >>> (8 * i)) & 0xff);
  for (let i = 0; i < 4; i++) pool.push((b >>> (8 * i)) & 0xff);
  let d = 0;
  for (let i = 0; i < 4; i++) {
    const nib = (c >>> (4 * i)) & 0xf;
    let byte = pool[nib & 7];
    if (nib & 8) byte = byte & 0x80 ? 0xff : 0;
    d |= byte << (8 * i);
  }
  return d >>> 0;
}

function lop3(a, b, c, lut) {
  let d = 0;
  for (let i = 0; i < 32; i++) {
    const row = (((a >>> i) & 1) << 2) | (((b >>> i) & 1) << 1) | ((c >>> i) & 1);
    d |= ((lut >>> row) & 1) << i;
  }
  return d >>> 0;
}

const hex8 = (v) => '0x' + (v >>> 0).toString(16).padStart(8, '0');

test.describe('program instructions in the single view', () => {
  let problems;
  test.beforeEach(async ({ page }) => {
    problems = watch(page);
  });
  test.afterEach(async () => {
    expect(problems, 'no console errors').toEqual([]);
  });

  test('prmt with sign replication', async ({ page }) => {
    await open(page);
    await setInstruction(page, 'prmt.b32 d, a, b, c;');
    const [a, b, c] = [0x11223344, 0x8899aabb, 0x00007c40];
    await setOperands(page, { a: hex8(a), b: hex8(b), c: hex8(c) });
    await expect(page.getByLabel('d (hex)', { exact: true })).toHaveValue(hex8(prmt(a, b, c)));
    await expect(page.getByLabel('d (hex)', { exact: true })).toHaveValue('0x88ffbb44');
    await expect(page.locator('.learn-body')).toContainText('Measured on an NVIDIA H100');
    await expect(page.locator('.learn-body')).toContainText('sign bit is copied');
    await expect(page.locator('#cuda-asm')).toHaveText(
      'asm("prmt.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));');
    await expect(page.locator('.stages')).toContainText('replicated over 8 bits');
    await expect(page.locator('.stages svg').first()).toBeVisible();
    await shot(page, 'prmt-sign-replication-1280');
  });

  test('lop3 truth table', async ({ page }) => {
    await open(page);
    await setInstruction(page, 'lop3.b32 d, a, b, c, 0xb2;');
    const [a, b, c] = [0xff00ff00, 0x12345678, 0x9abcdef0];
    await setOperands(page, { a: hex8(a), b: hex8(b), c: hex8(c) });
    await expect(page.getByLabel('d (hex)', { exact: true })).toHaveValue(hex8(lop3(a, b, c, 0xb2)));
    // The immediate truth table is shown, not edited.
    const lut = page.getByLabel('e (hex)', { exact: true });
    await expect(lut).toHaveValue('0xb2');
    await expect(lut).toHaveAttribute('readonly', 'readonly');
    await expect(page.locator('.stages')).toContainText('immLut 0xb2');
    await shot(page, 'lop3-1280');
  });

  test('setp gives p and q; cvt saturates', async ({ page }) => {
    await open(page);
    await setInstruction(page, 'setp.lt.s32 p|q, a, b;');
    await setOperands(page, { a: '0xffffffff', b: '0x00000001' });
    await expect(page.getByLabel('d (hex)', { exact: true })).toHaveValue('0x1');
    await expect(page.getByLabel('every destination')).toContainText('q');
    await setInstruction(page, 'setp.lt.u32 p|q, a, b;');
    await expect(page.getByLabel('d (hex)', { exact: true })).toHaveValue('0x0');
    await setInstruction(page, 'cvt.sat.s8.s32 d, a;');
    await setOperands(page, { a: '0x0000012c' });
    await expect(page.getByLabel('d (hex)', { exact: true })).toHaveValue('0x7f');
    await setOperands(page, { a: '0xfffffed4' });
    await expect(page.getByLabel('d (hex)', { exact: true })).toHaveValue('0x80');
  });

  test('the carry chain shows d and CC.CF; slct and cvt.pack', async ({ page }) => {
    await open(page);
    await setInstruction(page, 'addc.cc.u32 d, a, b;');
    // The carry flag it reads sits in the c field, marked as CC.CF.
    await expect(page.locator('.operand[data-src="c"]')).toContainText('CC.CF, the carry flag');
    await setOperands(page, { a: '0xffffffff', b: '0x00000000', c: '0x1' });
    await expect(page.getByLabel('d (hex)', { exact: true })).toHaveValue('0x00000000');
    await expect(page.getByLabel('every destination')).toContainText('CC.CF');
    await expect(page.locator('.learn-body')).toContainText('Measured on an NVIDIA H100');
    await shot(page, 'addc-cc');
    // The picker: the Extended family, and madc's half and carry out.
    const field = page.getByLabel('Instruction', { exact: true });
    await page.locator('#pick-opcode').selectOption({ label: 'madc' });
    await expect(field).toHaveValue('madc.hi.cc.u32 d, a, b, c;');
    await page.locator('#pick-half').selectOption({ label: '.lo' });
    await expect(field).toHaveValue('madc.lo.cc.u32 d, a, b, c;');
    // slct: -1 takes b.
    await setInstruction(page, 'slct.u32.s32 d, a, b, c;');
    await setOperands(page, { a: '0x00000001', b: '0x00000002', c: '0xffffffff' });
    await expect(page.getByLabel('d (hex)', { exact: true })).toHaveValue('0x00000002');
    // cvt.pack: 300 and -5 as .u8 are 255 and 0, c fills the upper bits.
    await setInstruction(page, 'cvt.pack.sat.u8.s32.b32 d, a, b, c;');
    await setOperands(page, { a: '0x0000012c', b: '0xfffffffb', c: '0x0000abcd' });
    await expect(page.getByLabel('d (hex)', { exact: true })).toHaveValue('0xabcdff00');
  });

  test('set: the comparison as a number, its pickers read from the row, and the Learn notes', async ({ page }) => {
    await open(page);
    const field = page.getByLabel('Instruction', { exact: true });
    await setInstruction(page, 'set.lt.u32.s32 d, a, b;');
    // -1 < 1 as .s32: all ones; as .u32 (0xffffffff < 1) it is false.
    await setOperands(page, { a: '0xffffffff', b: '0x00000001' });
    await expect(page.getByLabel('d (hex)', { exact: true })).toHaveValue('0xffffffff');
    await page.locator('#pick-type1').selectOption({ label: '.u32' });
    await expect(field).toHaveValue('set.lt.u32.u32 d, a, b;');
    await expect(page.getByLabel('d (hex)', { exact: true })).toHaveValue('0x00000000');
    // The second type's list names the sources it reads; an .f32 d writes 1.0.
    await expect(page.getByText('Type of a and b', { exact: true })).toBeVisible();
    await page.locator('#pick-type0').selectOption({ label: '.f32' });
    await page.locator('#pick-cmp').selectOption({ label: '.hi' });
    await expect(field).toHaveValue('set.hi.f32.u32 d, a, b;');
    await expect(page.getByLabel('d (hex)', { exact: true })).toHaveValue('0x3f800000');
    // A Boolean operation brings its predicate c.
    await page.locator('#pick-bool').selectOption({ label: '.and' });
    await expect(field).toHaveValue('set.hi.and.f32.u32 d, a, b, c;');
    await setOperands(page, { c: '0x0' });
    await expect(page.getByLabel('d (hex)', { exact: true })).toHaveValue('0x00000000');
    await expect(page.locator('.learn-body')).toContainText('.f32: d is 1.0 (0x3f800000)');
    await expect(page.locator('.learn-body')).toContainText('Measured on an NVIDIA H100');
    await setOperands(page, { c: '0x1' });
    // The predicate c is true or false: unsigned 1, and no signed view of one bit (-1).
    await expect(page.getByLabel('c (unsigned)', { exact: true })).toHaveValue('1');
    await expect(page.getByLabel('c (signed)', { exact: true })).toHaveCount(0);
    await shot(page, 'set');
  });

  test('pickers offer the new families and modifiers', async ({ page }) => {
    await open(page);
    const field = page.getByLabel('Instruction', { exact: true });
    await page.locator('#pick-family').selectOption({ label: 'data movement' });
    await expect(field).toHaveValue('mov.b32 d, {a, b};');
    await page.locator('#pick-opcode').selectOption({ label: 'prmt' });
    await expect(field).toHaveValue('prmt.b32 d, a, b, c;');
    await page.locator('#pick-prmt').selectOption({ label: '.rc8' });
    await expect(field).toHaveValue('prmt.b32.rc8 d, a, b, c;');
    await setOperands(page, { a: '0x11223344', c: '0x00000002' });
    await expect(page.getByLabel('d (hex)', { exact: true })).toHaveValue('0x22222222');
    // One family list for both tables: conversion is a family of its own.
    await page.locator('#pick-family').selectOption({ label: 'conversion' });
    await expect(field).toHaveValue(/^cvt\./);
    await expect(page.locator('#pick-opcode option')).toHaveText(['cvt', 'cvt.pack']);
    // Back to the table's families.
    await page.locator('#pick-family').selectOption({ label: 'integer arithmetic' });
    await expect(field).toHaveValue(/^add\./);
  });
});

test('the batch reads setp by role and gives p and q', async ({ page }) => {
  const problems = watch(page);
  await open(page);
  await setInstruction(page, 'setp.lt.s32 p|q, a, b;');
  // The machine-code view (the atlas) and the sweep read both kinds.
  await expect(page.locator('#tab-sass')).toHaveCount(1);
  await expect(page.locator('#tab-sweep')).toHaveCount(1);
  await page.locator('#tab-batch').click();
  await page.locator('#batch-input').fill('a,b\n-1,1\n5,3\n');
  const rows = page.locator('.batch-table tbody tr');
  await expect(rows).toHaveCount(2);
  await expect(page.locator('.batch-table thead')).toContainText('p (hex)');
  await expect(rows.nth(0).locator('.batch-d')).toHaveText('0x1');
  await expect(rows.nth(1).locator('.batch-d')).toHaveText('0x0');
  await expect(rows.nth(1)).toContainText('0x1');
  expect(problems).toEqual([]);
});

// Independent of the core: the ISA text's shf.l.wrap, the high word of the funnel b:a.
function shflWrap(a, b, c) {
  const pair = (BigInt(b >>> 0) << 32n) | BigInt(a >>> 0);
  return Number(((pair << BigInt(c & 31)) >> 32n) & 0xffffffffn);
}

test('the sweep of shf maps the funnel over the shift amount and a', async ({ page }) => {
  const problems = watch(page);
  await open(page);
  await setInstruction(page, 'shf.l.wrap.b32 d, a, b, c;');
  const b = 0x9abcdef0;
  await setOperands(page, { a: '0x12345678', b: hex8(b), c: '0x00000004' });
  await page.locator('#tab-sweep').click();
  const canvas = page.locator('canvas.sweep-canvas');
  await expect(canvas).toBeVisible();
  // x: the shift amount over 0..40; y: a over 256 evenly spaced values.
  await expect.poll(() => canvas.evaluate((c) => [c.width, c.height])).toEqual([41, 256]);
  await expect(page.locator('.sweep-xlabel')).toHaveText('→ c (shift amount)');
  await expect(page.locator('.sweep-ylabel')).toHaveText('↓ a');
  await expect(page.locator('#sweep-x-field option:checked')).toHaveText('c (shift amount)');
  const colours = () => canvas.evaluate((c) => {
    const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const seen = new Set();
    for (let i = 0; i < px.length; i += 4) seen.add((px[i] << 16) | (px[i + 1] << 8) | px[i + 2]);
    return seen.size;
  });
  await expect.poll(colours).toBeGreaterThan(16);
  // The cell at shift 5, a = 0 is the funnel's high word.
  await canvas.focus();
  for (let i = 0; i < 5; i++) await canvas.press('ArrowRight');
  const tip = page.locator('.sweep-tip dl.case');
  await expect(tip).toHaveAttribute('data-col', '5');
  await expect(tip.locator('dd[data-name="d"]')).toHaveText(hex8(shflWrap(0, b, 5)));
  await shot(page, 'shf-sweep-1280');
  // The address carries the settings: opened again, the same map.
  await expect.poll(() => page.url()).toContain('sweep=');
  await page.goto(page.url());
  await expect.poll(() => page.locator('canvas.sweep-canvas').evaluate((c) => [c.width, c.height]))
    .toEqual([41, 256]);
  await expect(page.locator('.sweep-xlabel')).toHaveText('→ c (shift amount)');
  expect(problems).toEqual([]);
});
