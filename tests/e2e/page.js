// Shared by the browser tests: watching a page for errors, and the accessibility audit.

const { expect } = require('@playwright/test');

const AXE = require.resolve('axe-core/axe.min.js');

// Console errors and uncaught exceptions of a page, checked at the end of every test.
function watch(page) {
  const problems = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  return problems;
}

// The axe-core audit of the whole page: no serious or critical violation.
async function axe(page, what) {
  await page.addScriptTag({ path: AXE });
  const r = await page.evaluate(async () => {
    const res = await window.axe.run(document, { resultTypes: ['violations'] });
    return res.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
  });
  expect(r, `${what}: axe serious or critical violations`).toEqual([]);
}

module.exports = { watch, axe };
