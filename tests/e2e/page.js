// Shared by the browser tests: watching a page for errors.

// Console errors and uncaught exceptions of a page, checked at the end of every test.
function watch(page) {
  const problems = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  return problems;
}

module.exports = { watch };
