// Cases measured on an NVIDIA H100, read from ../shared/conformance/h100-cases.jsonl.gz, and a
// deterministic choice among them that covers every opcode and the main forms of each family.

const fs = require('fs');
const path = require('path');
const zlib = require('zlib');

const SHARED = process.env.PTXLAB_SHARED || path.resolve(__dirname, '..', '..', '..', 'shared');
const CASES_FILE = path.join(SHARED, 'conformance', 'h100-cases.jsonl.gz');

let all = null;

function loadAll() {
  if (all) return all;
  const text = zlib.gunzipSync(fs.readFileSync(CASES_FILE)).toString('utf8');
  all = text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l));
  return all;
}

function opcodeOf(ptx) {
  return ptx.split(/[\s.]/)[0];
}

function familyOf(op) {
  if (op === 'vmad') return 'vmad';
  if (/^v\w+2$/.test(op)) return 'simd2';
  if (/^v\w+4$/.test(op)) return 'simd4';
  if (op.startsWith('v')) return 'scalar';
  return 'integer';
}

// Extra forms worth one case each, beyond one case per opcode.
const FORMS = [
  ['scalar with .add', /^v(add|sub|absdiff|min|max)\.\S*\.add d, /],
  ['scalar with .min', /^v(add|sub|absdiff)\.\S*\.min d, /],
  ['scalar with .max', /^v(min|max)\.\S*\.max d, /],
  ['scalar merge into a byte', /^v\w+\.\S+ d\.b\d, /],
  ['scalar merge into a half-word', /^v\w+\.\S+ d\.h\d, /],
  ['scalar .sat', /^v(add|sub)\.s32\.\S*\.sat d, /],
  ['vset with a secondary op', /^vset\.\S+\.(add|min|max) d, /],
  ['vmad .shr15', /^vmad\.\S*\.shr15 /],
  ['vmad .po', /^vmad\.\S*\.po/],
  ['vmad negated source', /^vmad\.\S* d, -a/],
  ['simd4 mask', /^v\w+4\.\S+ d\.b\d{1,3}, /],
  ['simd4 accumulate', /^v\w+4\.\S*\.add d, /],
  ['simd2 mask', /^v\w+2\.\S+ d\.h\d, /],
  ['simd2 accumulate', /^v\w+2\.\S*\.add d, /],
  ['64-bit integer', /^\w+(\.\w+)*\.[us]64 d, /],
  ['mul.wide', /^mul\.wide\./],
];

// A deterministic pick: the case in the middle of the matching ones.
function middle(list) {
  return list[Math.floor(list.length / 2)];
}

function selectCases() {
  const cases = loadAll();
  const byOpcode = new Map();
  for (const c of cases) {
    const op = opcodeOf(c.ptx);
    if (!byOpcode.has(op)) byOpcode.set(op, []);
    byOpcode.get(op).push(c);
  }
  const picked = [];
  for (const [op, list] of byOpcode) {
    picked.push({ why: `${familyOf(op)} ${op}`, ...middle(list) });
  }
  for (const [why, re] of FORMS) {
    const list = cases.filter((c) => re.test(c.ptx));
    if (list.length) picked.push({ why, ...middle(list) });
  }
  return picked;
}

// A case with exactly this instruction text, if the H100 data has one.
function findByPtx(ptx) {
  const list = casesOf(ptx);
  return list.length ? middle(list) : null;
}

// Every measured case of this instruction text, in file order.
function casesOf(ptx) {
  return loadAll().filter((c) => c.ptx === ptx);
}

module.exports = { selectCases, findByPtx, casesOf, familyOf, opcodeOf, CASES_FILE };
