// The JavaScript module of the core (dist/api/ptxlab.js), used without the app: imported from a
// blank page of the same origin, it gives the H100's d for the cases the page tests use, throws
// Errors with the CLI's messages, and keeps 64-bit values exact as BigInts or strings. Also the
// window.ptxlab functions of the playground page, and the api-demo.html page.

const fs = require('fs');
const path = require('path');
const zlib = require('zlib');
const { execFileSync } = require('child_process');
const { test, expect } = require('@playwright/test');
const { watch } = require('./page');
const { selectCases, findByPtx } = require('./cases');

const ROOT = path.resolve(__dirname, '..', '..');
const OUT = path.join(ROOT, 'test-results');
const SHOTS = path.join(OUT, 'screenshots');
const DIST = path.join(ROOT, 'dist');

// A blank page on the build's origin (answered by the test, so nothing of the app loads).
async function blank(page) {
  await page.route('**/blank.html', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>blank</title>' }),
  );
  await page.goto('./blank.html');
  await page.evaluate(async () => {
    const m = await import('./api/ptxlab.js');
    await m.default();
    window.api = m;
  });
}

// What `ptxlab eval ARGS` prints on standard error, without the program name.
function cliError(args) {
  try {
    execFileSync('cargo', ['run', '-q', '-p', 'ptxlab-cli', '--bin', 'ptxlab', '--', 'eval', ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (e) {
    return e.stderr.toString().replace(/^ptxlab: /, '').replace(/\n$/, '');
  }
  throw new Error(`ptxlab eval ${args.join(' ')} succeeded`);
}

test.describe('JavaScript module', () => {
  let problems;
  test.beforeEach(async ({ page }) => {
    problems = watch(page);
  });
  test.afterEach(async () => {
    expect(problems, 'no console errors').toEqual([]);
  });

  test('evaluates the H100 cases of the page tests and gives their d', async ({ page }) => {
    const cases = selectCases();
    expect(cases.length).toBeGreaterThanOrEqual(40);
    await blank(page);
    const got = await page.evaluate((cases) => {
      return cases.map((c) => {
        const inputs = {};
        for (const k of ['a', 'b', 'c', 'e']) if (c[k] !== undefined) inputs[k] = c[k];
        const r = window.api.evaluate(c.ptx, inputs);
        return {
          d: r.d,
          value: r.value.toString(16),
          valueType: typeof r.value,
          stages: r.trace.stages.length,
          hex: r.trace.views.hex,
          checked: window.api.check(c.ptx).ok,
        };
      });
    }, cases);
    for (const [i, c] of cases.entries()) {
      const g = got[i];
      const what = `${c.ptx} a=${c.a} b=${c.b} c=${c.c} e=${c.e}`;
      expect(g.d, what).toBe(c.d);
      expect(BigInt(`0x${g.value}`), what).toBe(BigInt(c.d));
      expect(g.valueType).toBe('bigint');
      expect(g.hex).toBe(c.d);
      expect(g.stages, what).toBeGreaterThan(0);
      expect(g.checked).toBe(true);
    }
  });

  test('evaluates the program instructions as the GPU measured them, every destination named', async ({ page }) => {
    // One case of every 12th form of tests/data/gpu-programs.jsonl.gz (measured on an H200),
    // and every form of mov, setp and lop3 the module could get wrong by naming.
    const lines = zlib.gunzipSync(fs.readFileSync(path.join(ROOT, 'tests', 'data', 'gpu-programs.jsonl.gz')))
      .toString().split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const firstOf = new Map();
    for (const c of lines) if (!firstOf.has(c.ptx)) firstOf.set(c.ptx, c);
    // Left to the core's own tests (crates/ptxlab-core/tests/gpu_programs.rs): constant
    // expressions, literals wider than 64 bits and d|_, whose operands this test's simple
    // splitting would misread.
    const expression = (p) => p.startsWith('mov.') && /[+*\/~?^&<>|]|==| - |, !1|\(-1\)/.test(p.slice(p.indexOf(',')));
    const skipped = (p) => expression(p) || /0x1[0f]{16}/.test(p)
      || (/\|_,/.test(p) && !/^(setp|lop3)/.test(p));
    const forms = [...firstOf.values()].filter((c) => !skipped(c.ptx));
    // Every form of set, slct, cvt.pack and the carry chain too (the carry flag is CF in the data).
    const carry = /^(addc|subc|madc|add\.cc|sub\.cc|mad\.(lo|hi)\.cc)[. ]/;
    const chosen = forms.filter((c, i) => i % 12 === 0
      || /^(mov\.b(32|64) \{|setp\.\w+\.\w+ p\|q|set\.|lop3|slct|cvt\.pack)/.test(c.ptx) || carry.test(c.ptx));
    expect(chosen.filter((c) => carry.test(c.ptx)).length).toBeGreaterThan(50);
    // The row an instruction is: add.cc for add.cc.u32 and mad.lo.cc.u32, cvt.pack ...
    const row = (p) => {
      const m = p.match(/^(add|sub|mad)(\.(lo|hi))?\.cc[. ]/);
      if (m) return `${m[1]}.cc`;
      return p.startsWith('cvt.pack') ? 'cvt.pack' : p.split(/[. ]/)[0];
    };
    // Sources bind by position: the operands after the first, vectors spread, immediates kept.
    const split = (s) => s.replace(/;\s*$/, '').split(/,(?![^{]*\})/).map((x) => x.trim());
    // A register's ignored suffix (.b01, .b12, .b23) is no part of its name.
    const regs = (op) => op.replace(/[{}]/g, '').split(/[,|]/)
      .map((x) => x.trim().replace(/^!/, '').replace(/\.b(01|12|23)$/, ''));
    const isReg = (x) => /^[A-Za-z_%$][\w$]*$/.test(x) && x !== '_';
    const prepared = chosen.map((c) => {
      const ops = split(c.ptx.slice(c.ptx.indexOf(' ') + 1));
      const srcs = ops.slice(1).flatMap(regs);
      const inputs = {};
      srcs.forEach((x, k) => {
        if (k < 4 && isReg(x)) inputs['abce'[k]] = (c.in[x] ?? c.prior[x]);
      });
      // The carry flag in, by its name; out, as the last destination.
      if (c.in.CF !== undefined) inputs['CC.CF'] = c.in.CF;
      const dsts = regs(ops[0]);
      if (c.out.CF !== undefined) dsts.push('CF');
      return { ptx: c.ptx, inputs, dsts, out: c.out };
    });
    expect(prepared.length).toBeGreaterThan(200);
    await blank(page);
    const got = await page.evaluate((cases) => cases.map((c) => {
      const ok = window.api.check(c.ptx);
      const r = window.api.evaluate(c.ptx, c.inputs);
      return { ok: ok.ok, opcode: ok.opcode, values: r.values.map((v) => [v.name, v.hex, typeof v.value]), d: r.d ?? null };
    }), prepared);
    let compared = 0;
    for (const [i, c] of prepared.entries()) {
      const g = got[i];
      expect(g.ok, c.ptx).toBe(true);
      expect(g.opcode, c.ptx).toBe(row(c.ptx));
      expect(g.values.length, c.ptx).toBe(c.dsts.length);
      c.dsts.forEach((name, k) => {
        if (name === '_') return;
        const [n, hex, type] = g.values[k];
        // Vector elements keep the names written; the others are named by role (d, p, q).
        if (c.ptx.startsWith('mov') && c.dsts.length > 1) expect(n, c.ptx).toBe(name);
        if (name === 'CF') expect(n, c.ptx).toBe('CC.CF');
        expect(type, c.ptx).toBe('bigint');
        expect(BigInt(hex), `${c.ptx} ${JSON.stringify(c.inputs)} ${name}`).toBe(BigInt(c.out[name]));
        compared += 1;
      });
      // d only where there is exactly one destination (lop3 computes d for a `_` too: the GPU
      // keeps nothing to compare it with).
      if (c.dsts.length > 1) expect(g.d, c.ptx).toBeNull();
      else if (c.dsts[0] !== '_') expect(BigInt(g.d), c.ptx).toBe(BigInt(c.out[c.dsts[0]]));
    }
    expect(compared).toBeGreaterThan(200);
  });

  test('check: canonical text, or the message with the token in JavaScript indices', async ({ page }) => {
    await blank(page);
    const r = await page.evaluate(() => {
      const ok = window.api.check('  vadd.u32.u32.u32  d , a , b ;');
      const text = 'vadd.u32.u32.u32 d, a.b7, b;';
      const bad = window.api.check(text);
      const wide = 'vadd.u32.u32.u32 d, a, é;';
      const bad2 = window.api.check(wide);
      return { ok, bad, token: text.slice(bad.start, bad.end), bad2, token2: wide.slice(bad2.start, bad2.end) };
    });
    expect(r.ok.ok).toBe(true);
    expect(r.ok.canonical).toBe('vadd.u32.u32.u32 d, a, b;');
    expect(r.bad.ok).toBe(false);
    expect(r.bad.message).toMatch(/b7/);
    expect(r.token).toBe('.b7');
    expect(r.bad2.ok).toBe(false);
    expect(r.token2, 'a span after a two-byte character').toBe('é');
  });

  test('bad input throws an Error with the message the CLI prints', async ({ page }) => {
    await blank(page);
    const cases = [
      { text: 'vadd.u32.u32 d, a, b;', inputs: {}, cli: ['vadd.u32.u32 d, a, b;'] },
      { text: 'vadd.u32.u32.u32 d, a.b9, b;', inputs: {}, cli: ['vadd.u32.u32.u32 d, a.b9, b;'] },
      { text: 'add.u32 d, a, b;', inputs: { a: 'zz' }, cli: ['add.u32 d, a, b;', 'a=zz'] },
      { text: 'add.u32 d, a, b;', inputs: { b: '-0x8000000000000001' }, cli: ['add.u32 d, a, b;', 'b=-0x8000000000000001'] },
      { text: 'add.u32 d, a, b;', inputs: { x: '1' }, cli: ['add.u32 d, a, b;', 'x=1'] },
    ];
    const thrown = await page.evaluate((cases) => {
      return cases.map(({ text, inputs }) => {
        try {
          window.api.evaluate(text, inputs);
          return null;
        } catch (e) {
          return { isError: e instanceof Error, message: e.message, start: e.start, end: e.end };
        }
      });
    }, cases);
    for (const [i, c] of cases.entries()) {
      expect(thrown[i], c.text).not.toBeNull();
      expect(thrown[i].isError).toBe(true);
      expect(thrown[i].message).toBe(cliError(c.cli));
    }
    expect(thrown[1].message.split('\n')[2], 'a caret line under the token').toMatch(/^ +\^+$/);
    expect(typeof thrown[1].start).toBe('number');
    // Values JavaScript has but the command line does not: each has its own clear message.
    const more = await page.evaluate(() => {
      const msg = (inputs) => {
        try {
          window.api.evaluate('add.u64 d, a, b;', inputs);
          return 'no error';
        } catch (e) {
          return e instanceof Error ? e.message : `not an Error: ${e}`;
        }
      };
      return [msg({ a: 1.5 }), msg({ a: 2 ** 60 }), msg({ a: 2n ** 64n }), msg({ a: -(2n ** 63n) - 1n }), msg({ a: {} })];
    });
    expect(more[0]).toMatch(/^a: 1\.5 is not a value/);
    expect(more[1]).toMatch(/^a: .* hex string or a BigInt/);
    expect(more[2]).toMatch(/^a: 18446744073709551616n does not fit in 64 bits/);
    expect(more[3]).toMatch(/does not fit in 64 bits/);
    expect(more[4]).toMatch(/^a: 'object' is not a value/);
  });

  test('64-bit values round-trip exactly as BigInts and strings', async ({ page }) => {
    await blank(page);
    const r = await page.evaluate(() => {
      const api = window.api;
      const big = 0xfedcba9876543210n;
      const same = api.evaluate('add.u64 d, a, b;', { a: big, b: 0n });
      const neg = api.evaluate('add.s64 d, a, b;', { a: -1n, b: 0 });
      const wide = api.evaluate('mul.wide.u32 d, a, b;', { a: 0xffffffff, b: '0xffffffff' });
      const fromHex = api.evaluate('add.u64 d, a, b;', { a: '0xfedcba9876543210' });
      const fromNumber = api.evaluate('add.u64 d, a, b;', { a: Number.MAX_SAFE_INTEGER, b: 1 });
      const field = api
        .evaluate('vadd.u32.u32.u32 d, a.b3, b.b0;', { a: 0xff000000 })
        .trace.stages.find((s) => s.detail.type === 'field');
      return {
        same: same.value === big,
        sameType: typeof same.value,
        sourceString: same.trace.sources[0].value,
        resultString: same.trace.result.value,
        negValue: neg.value === 2n ** 64n - 1n,
        negSigned: neg.signed === -1n,
        negD: neg.d,
        wide: wide.value === 0xfffffffe00000001n,
        wideBits: wide.bits,
        fromHex: fromHex.value === big,
        fromNumber: fromNumber.value === 2n ** 53n,
        fieldSourceType: typeof field.detail.source,
        fieldSource: field.detail.source === 0xff000000n,
        json: JSON.stringify(same.trace.result),
      };
    });
    expect(r.same).toBe(true);
    expect(r.sameType).toBe('bigint');
    expect(r.sourceString).toBe(BigInt('0xfedcba9876543210').toString());
    expect(r.resultString).toBe(BigInt('0xfedcba9876543210').toString());
    expect(r.negValue).toBe(true);
    expect(r.negSigned).toBe(true);
    expect(r.negD).toBe('0xffffffffffffffff');
    expect(r.wide).toBe(true);
    expect(r.wideBits).toBe(64);
    expect(r.fromHex).toBe(true);
    expect(r.fromNumber).toBe(true);
    expect(r.fieldSourceType).toBe('bigint');
    expect(r.fieldSource).toBe(true);
    expect(r.json, 'the trace values are strings, so JSON keeps every digit').toContain('"18364758544493064720"');
  });

  test('sweep, axes, compare and version', async ({ page }) => {
    await blank(page);
    const r = await page.evaluate(() => {
      const api = window.api;
      const s = api.sweep('vadd.u32.u32.u32.sat d.b0, a.b0, b.b0, c;', {});
      const clamped = s.flagNames.indexOf('clamped-high');
      const cell = 1 * s.width + 0xff;
      const axes = api.axes('vadd4.u32.u32.u32.sat d, a, b, c;');
      const small = api.sweep('vadd4.u32.u32.u32.sat d, a, b, c;', { c: 0 }, { x: 0, y: { operand: 'b', lo: 8, width: 8, steps: 4 } });
      let badAxis = '';
      try {
        api.sweep('add.u32 d, a, b;', {}, { x: 99 });
      } catch (e) {
        badAxis = e.message;
      }
      return {
        size: [s.width, s.height],
        dType: s.d.constructor.name,
        flagsType: s.flags.constructor.name,
        d: s.d[cell] === 0xffn,
        flagged: (s.flags[cell] >> clamped) & 1,
        axes: axes.length,
        axisStart: typeof axes[0].start,
        small: [small.width, small.height, small.y.label],
        badAxis,
        compareNull: api.compare('add.u32 d, a, b;', { a: 1, b: 2 }),
        compareOne: api.compare('prmt.b32 d, a, b, c;', { a: 1, b: 2, c: 3 }),
        programAxes: api.axes('shf.l.wrap.b32 d, a, b, c;').length,
        programSweep: (() => {
          const s = api.sweep('prmt.b32 d, a, b, c;', { a: 0x44332211, b: 0x88776655 });
          return [s.width * s.height, s.d.length];
        })(),
        version: api.version(),
      };
    });
    expect(r.size).toEqual([256, 256]);
    expect(r.dType).toBe('BigUint64Array');
    expect(r.flagsType).toBe('Uint16Array');
    expect(r.d).toBe(true);
    expect(r.flagged).toBe(1);
    expect(r.axes).toBeGreaterThanOrEqual(8);
    expect(r.axisStart).toBe('bigint');
    expect(r.small).toEqual([256, 4, 'b bits 15..8']);
    expect(r.badAxis).toMatch(/axis 99 does not exist/);
    expect(r.compareNull).toBeNull();
    expect(r.compareOne).toBeNull();
    expect(r.programAxes).toBeGreaterThan(0);
    expect(r.programSweep[0]).toBeGreaterThan(0);
    expect(r.programSweep[1]).toBe(r.programSweep[0]);
    const cargo = fs.readFileSync(path.join(ROOT, 'crates', 'ptxlab-js', 'Cargo.toml'), 'utf8');
    expect(r.version).toBe(cargo.match(/^version = "(.*)"/m)[1]);
  });

  test('run: the test programs give the register files ptxlab run gives; bad lines throw with their span', async ({ page }) => {
    const dir = path.join(ROOT, 'crates', 'ptxlab-cli', 'tests', 'data', 'programs');
    const programs = fs.readdirSync(dir).filter((f) => f.endsWith('.ptx')).sort().map((f) => {
      const text = fs.readFileSync(path.join(dir, f), 'utf8');
      const regs = text.split('\n')[0].replace(/^\/\/ args:/, '').trim();
      const base = path.join(dir, f.replace(/\.ptx$/, ''));
      return {
        name: f,
        text,
        regs,
        out: fs.existsSync(`${base}.out`) ? fs.readFileSync(`${base}.out`, 'utf8') : null,
        err: fs.existsSync(`${base}.err`) ? fs.readFileSync(`${base}.err`, 'utf8').trim() : null,
      };
    });
    expect(programs.filter((p) => p.out).length).toBeGreaterThanOrEqual(20);
    await blank(page);
    const got = await page.evaluate((programs) => programs.map((p) => {
      try {
        // The `// args:` line as ptxlab run takes it: NAME=VALUE items, --mem and --max-steps.
        const words = p.regs.split(/\s+/).filter((w) => w);
        const regs = [];
        const mem = [];
        let limit;
        for (let i = 0; i < words.length; i++) {
          if (words[i] === '--mem') mem.push(words[++i]);
          else if (words[i] === '--max-steps') limit = Number(words[++i]);
          else regs.push(words[i]);
        }
        const r = window.api.run(p.text, regs.join(' '), mem.join(' '), limit);
        const bytes = (hex) => hex.match(/../g).join(' ');
        return {
          written: r.written.map((w) => `${w.name} = ${w.hex}\n`).join('')
            + r.memory.map((m) => `mem ${m.space === 'global' ? '' : `${m.space} `}${m.address} = ${bytes(m.bytes)}\n`).join(''),
          values: r.written.every((w) => typeof w.value === 'bigint' && BigInt(w.hex) === w.value),
          steps: r.steps.length,
          // Arithmetic steps carry their stages; a load, store, branch or ret has none.
          stages: r.steps.every((s) => !s.executed || s.trace == null || s.trace.stages.length > 0),
          lines: r.steps.map((s) => s.line),
        };
      } catch (e) {
        return { error: e.message, line: e.line, span: p.text.slice(e.start, e.end) };
      }
    }), programs);
    for (const [i, p] of programs.entries()) {
      const g = got[i];
      if (p.out) {
        expect(g.error, p.name).toBeUndefined();
        expect(g.written, p.name).toBe(p.out);
        expect(g.values, p.name).toBe(true);
        expect(g.stages, p.name).toBe(true);
        expect(g.steps, p.name).toBeGreaterThan(0);
      } else {
        expect(g.error, p.name).toBe(p.err);
        const line = Number(/^line (\d+):/.exec(p.err)[1]);
        expect(g.line, p.name).toBe(line);
        expect(g.span, `${p.name}: the span is the line`).toBe(p.text.split('\n')[line - 1]);
      }
    }
    // Registers as an object (BigInts, booleans), a guard left false, and the register table.
    const r = await page.evaluate(() => {
      const out = window.api.run('setp.ne.u32 %p1, %r1, 0;\n@%p1 add.u32 %r2, %r1, 1;\n@!%p1 mov.b64 %rd1, %rd2;', {
        '%r1': 0n, '%rd2': 0xfedcba9876543210n, '%p1': true,
      });
      let bad = null;
      try {
        window.api.run('mov.b32 %r1, 1;', { '%r9': 1 });
      } catch (e) {
        bad = e.message;
      }
      return {
        rd1: out.written.find((w) => w.name === '%rd1').value.toString(16),
        executed: out.steps.map((s) => s.executed),
        p1: out.registers.find((x) => x.name === '%p1'),
        bad,
      };
    });
    expect(r.rd1).toBe('fedcba9876543210');
    expect(r.executed).toEqual([true, false, true]);
    expect(r.p1.hex).toBe('0x0');
    expect(r.p1.initial).toBe(true);
    expect(r.p1.writtenBy).toBe(1);
    expect(r.bad).toMatch(/%r9 is not a register of the program/);
     // One thread of a kernel: parameters by name, the memory's bytes, and what it wrote.
    const k = await page.evaluate(() => {
      const ptx = '.entry add128(.param .u64 a, .param .u64 out)\n{\n.reg .b64 %rd<5>;\n'
        + 'ld.param.u64 %rd1, [a];\nld.param.u64 %rd2, [out];\nld.global.v2.u64 {%rd3, %rd4}, [%rd1];\n'
        + 'add.cc.u64 %rd3, %rd3, 1;\naddc.u64 %rd4, %rd4, 0;\nst.global.v2.u64 [%rd2], {%rd3, %rd4};\nret;\n}';
      const out = window.api.run(ptx, { a: '0x100', out: '0x200' }, '0x100=ffffffffffffffff0700000000000000');
      let spin = null;
      try {
        window.api.run('L: bra L;', {});
      } catch (e) {
        spin = e.message;
      }
      return { memory: out.memory, cf: out.registers.find((x) => x.name === 'CC.CF').hex, spin };
    });
    expect(k.memory).toEqual([{ space: 'global', address: '0x200', bytes: '00000000000000000800000000000000' }]);
    expect(k.cf).toBe('0x1');
    expect(k.spin).toMatch(/^line 1: stopped after 100000 steps/);
  });

  test('intrinsic: d as ptxlab intrinsic gives it, lanes, and the PTX run as a program', async ({ page }) => {
    const calls = [
      ['__vcmpgtu4', ['0x0180ff00', '0x02800000']],
      ['__dp4a', ['0x01020304', '-1', '10']],
      ['__vibmax_s16x2', ['0x00017fff', '0x00028000']],
      ['__umul64hi', ['-1', '2']],
    ];
    await blank(page);
    const got = await page.evaluate((calls) => calls.map(([name, args]) => {
      const r = window.api.intrinsic(name, args);
      return { d: r.d, programD: r.program.d, lanes: r.lanes.length, outputs: r.outputs, steps: r.program.steps.length, ptx: r.ptx.length, valueType: typeof r.value };
    }), calls);
    for (const [i, [name, args]] of calls.entries()) {
      const out = execFileSync('cargo', ['run', '-q', '-p', 'ptxlab-cli', '--bin', 'ptxlab', '--', 'intrinsic', name, ...args], { cwd: ROOT, encoding: 'utf8' });
      expect(`d = ${got[i].d}`, name).toBe(out.split('\n')[0]);
      expect(got[i].programD, name).toBe(got[i].d);
      expect(got[i].steps, name).toBeGreaterThan(0);
      expect(got[i].valueType).toBe('bigint');
      for (const m of out.matchAll(/^(pred\w*) = ([01])$/gm)) expect(got[i].outputs[m[1]], name).toBe(Number(m[2]));
    }
    expect(got[0].lanes).toBe(4);
    const errors = await page.evaluate(() => [['__nosuch', []], ['__vadd4', ['1']], ['__vadd4', ['1', '0x1ffffffff']], ['__vadd4', [1, 2n ** 40n]]].map(([n, a]) => {
      try {
        window.api.intrinsic(n, a);
        return null;
      } catch (e) {
        return e.message;
      }
    }));
    expect(errors[0]).toMatch(/unknown intrinsic '__nosuch'/);
    expect(errors[1]).toMatch(/takes 2 arguments/);
    expect(errors[2]).toMatch(/argument 2 of __vadd4/);
    expect(errors[3]).toMatch(/argument 2 of __vadd4 .*does not fit in 32 bits/);
  });

  test('the playground page exposes the functions as window.ptxlab', async ({ page }) => {
    const c = findByPtx('vabsdiff4.u32.u32.u32.add d, a, b, c;');
    await page.goto(`./?i=${encodeURIComponent(c.ptx)}&a=${c.a}&b=${c.b}&c=${c.c}`);
    await expect(page.getByLabel('d (hex)', { exact: true })).toHaveValue(c.d);
    await page.waitForFunction(() => window.ptxlab !== undefined);
    const r = await page.evaluate((c) => {
      return {
        names: Object.keys(window.ptxlab).sort(),
        d: window.ptxlab.evaluate(c.ptx, { a: c.a, b: c.b, c: c.c }).d,
      };
    }, c);
    expect(r.names).toEqual(['axes', 'check', 'compare', 'evaluate', 'sweep', 'version']);
    expect(r.d).toBe(c.d);
  });

  test('api-demo.html computes with the module alone', async ({ page }) => {
    await page.goto('./api-demo.html');
    const c = findByPtx('vmad.s32.s32.u32.sat.shr15 d, a.h1, b.b3, c;');
    expect(c).not.toBeNull();
    await page.getByLabel('Instruction').fill(c.ptx);
    for (const k of ['a', 'b', 'c']) await page.getByLabel(k, { exact: true }).fill(c[k]);
    await expect(page.locator('#d')).toHaveText(c.d);
    await expect(page.locator('#stages tr').first()).toBeVisible();
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, 'api-demo.png'), fullPage: true });
    await page.getByLabel('Instruction').fill('vmad.s32.s32.u32.sat.shr15 d, a.h7, b.b3, c;');
    await expect(page.locator('#status')).toHaveClass('bad');
    await expect(page.locator('#status')).toContainText('h7');
    await page.getByLabel('Instruction').fill(c.ptx);
    await page.getByLabel('a', { exact: true }).fill('0xzz');
    await expect(page.locator('#status')).toHaveText(/^a: '0xzz' is not a number/);
    await page.screenshot({ path: path.join(SHOTS, 'api-demo-error.png'), fullPage: true });
  });

  test('sizes and timings: the module beside the app', async ({ page }) => {
    const size = (f) => {
      const raw = fs.readFileSync(f);
      return { raw: raw.length, gzip: zlib.gzipSync(raw, { level: 9 }).length };
    };
    const api = size(path.join(DIST, 'api', 'ptxlab_bg.wasm'));
    const appFile = fs.readdirSync(DIST).find((f) => f.endsWith('.wasm'));
    const app = size(path.join(DIST, appFile));
    expect(api.raw, 'the module is the core alone: smaller than the app').toBeLessThan(app.raw);
    await page.route('**/blank.html', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>blank</title>' }),
    );
    await page.goto('./blank.html');
    const cases = selectCases();
    const t = await page.evaluate(async (cases) => {
      const t0 = performance.now();
      const m = await import('./api/ptxlab.js');
      await m.default();
      const t1 = performance.now();
      let n = 0;
      const t2 = performance.now();
      for (let k = 0; k < 20; k++) {
        for (const c of cases) {
          m.evaluate(c.ptx, { a: c.a, b: c.b, c: c.c, e: c.e });
          n++;
        }
      }
      const t3 = performance.now();
      return { load: t1 - t0, per: (t3 - t2) / n, n };
    }, cases);
    const kib = (b) => (b / 1024).toFixed(1);
    const text = [
      `API module wasm: ${kib(api.raw)} KiB raw, ${kib(api.gzip)} KiB gzip (app wasm ${appFile}: ${kib(app.raw)} KiB raw, ${kib(app.gzip)} KiB gzip)`,
      `API import + init: ${t.load.toFixed(1)} ms; evaluate with the full trace: ${(t.per * 1000).toFixed(1)} µs per call (${t.n} calls)`,
    ].join('\n');
    fs.mkdirSync(OUT, { recursive: true });
    fs.writeFileSync(path.join(OUT, 'timings-api.txt'), `${text}\n`);
    fs.writeFileSync(path.join(OUT, 'timings-api.json'), JSON.stringify({ api, app, appFile, ...t }, null, 2));
    console.log(text);
  });
});
