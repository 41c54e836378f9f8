// Runs every test suite of the repository in turn — server (PGlite, and PostgreSQL when
// TEST_DATABASE_URL is set), the browser extension, the link search, web components,
// end-to-end journeys in Chromium — and ends with one line: "Tests: N passed, N failed".
// Exits non-zero if anything failed or was skipped.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const out = mkdtempSync(path.join(tmpdir(), 'signpost-tests-'));
const totals = { passed: 0, failed: 0, skipped: 0 };
const problems = [];
// The names of failed tests, printed again at the very end, where a log's tail shows them.
const failures = [];
// Each suite's figures for the closing summary: its time against its budget, its tests and the
// assertions they ran. A budget is a report, not a failing test: timings on a shared machine
// are noisy (docs/performance.md, "The test suite").
const suites = [];
const BUDGET_SECONDS = {
  // Both passes; the whole of `.ci/run` (the check, then every suite) is to end within
  // 10 minutes on two cores (docs/performance.md, "The test suite").
  server: 240,
  extension: 15,
  'link-search': 5,
  // Beside the journeys, on the same two cores.
  web: 120,
  'end-to-end (Chromium)': 240,
};

/**
 * Runs a suite and resolves to its exit status. Its output streams as it comes, or, when
 * `held` is given, is kept there and printed by the caller (for a suite that runs beside
 * another one).
 */
function run(label, cwd, command, args, env = {}, held = null) {
  const header = `\n=== ${label}\n`;
  if (held) held.push(header);
  else process.stdout.write(header);
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd,
      stdio: held ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: { ...process.env, ...env },
    });
    if (held) {
      child.stdout.on('data', (chunk) => held.push(chunk));
      child.stderr.on('data', (chunk) => held.push(chunk));
    }
    child.on('error', () => resolve(1));
    child.on('close', (status) => resolve(status ?? 1));
  });
}

function hasFiles(dir, pattern) {
  if (!existsSync(dir)) return false;
  return readdirSync(dir, { recursive: true }).some((f) => pattern.test(String(f)));
}

async function vitest(label, workspace, held = null) {
  const cwd = path.join(root, workspace);
  if (!hasFiles(path.join(cwd, 'src'), /\.test\.tsx?$/)) {
    // A suite that vanished must not pass quietly.
    totals.failed += 1;
    problems.push(`${label}: no test files found`);
    return;
  }
  const file = path.join(out, `${label}.json`);
  const suiteStarted = Date.now();
  const status = await run(
    label,
    cwd,
    'npx',
    ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile=${file}`],
    {},
    held,
  );
  if (!existsSync(file)) {
    totals.failed += 1;
    problems.push(`${label}: no report (exit ${status})`);
    return;
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));
  if (report.numTotalTests === 0) {
    totals.failed += 1;
    problems.push(`${label}: ran no test`);
  }
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  let assertions = 0;
  for (const file of report.testResults ?? [])
    for (const test of file.assertionResults ?? []) assertions += test.meta?.assertions ?? 0;
  suites.push({
    label,
    seconds: (Date.now() - suiteStarted) / 1000,
    tests: report.numTotalTests,
    assertions,
  });
  for (const file of report.testResults ?? []) {
    const name = path.relative(root, file.name);
    for (const test of file.assertionResults ?? []) {
      if (test.status !== 'failed') continue;
      const first = String(test.failureMessages?.[0] ?? '').split('\n')[0];
      failures.push(`${label}: ${name} > ${test.fullName}${first ? ` (${first})` : ''}`);
    }
    const failedTests = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    if (file.status === 'failed' && failedTests.length === 0)
      failures.push(`${label}: ${name} (${(file.message ?? 'failed to load').split('\n')[0]})`);
  }
  totals.skipped += report.numPendingTests + report.numTodoTests;
  if (status !== 0 && report.numFailedTests === 0) {
    totals.failed += 1;
    problems.push(`${label}: exit ${status} (a file failed to load or a hook failed)`);
  }
}

async function playwright() {
  const cwd = path.join(root, 'apps/web');
  if (!hasFiles(path.join(cwd, 'e2e'), /\.spec\.ts$/)) {
    totals.failed += 1;
    problems.push('end-to-end: no journeys found');
    return;
  }
  const file = path.join(out, 'e2e.json');
  const assertionsFile = path.join(out, 'e2e-assertions.txt');
  const suiteStarted = Date.now();
  const status = await run('end-to-end (Chromium)', cwd, 'npx', ['playwright', 'test'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: file,
    PLAYWRIGHT_ASSERTIONS_FILE: assertionsFile,
  });
  if (!existsSync(file)) {
    totals.failed += 1;
    problems.push(`end-to-end: no report (exit ${status})`);
    return;
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const { stats } = report;
  collectJourneyFailures(report.suites ?? [], []);
  if (stats.expected + stats.unexpected + stats.flaky === 0) {
    totals.failed += 1;
    problems.push('end-to-end: ran no journey');
  }
  totals.passed += stats.expected + stats.flaky;
  totals.failed += stats.unexpected;
  totals.skipped += stats.skipped;
  suites.push({
    label: 'end-to-end (Chromium)',
    seconds: (Date.now() - suiteStarted) / 1000,
    tests: stats.expected + stats.unexpected + stats.flaky + stats.skipped,
    assertions: existsSync(assertionsFile) ? Number(readFileSync(assertionsFile, 'utf8')) : 0,
  });
  if (status !== 0 && stats.unexpected === 0) {
    totals.failed += 1;
    problems.push(`end-to-end: exit ${status}`);
  }
}

/** Names every journey whose outcome was unexpected, with the first line of its error. */
function collectJourneyFailures(suites, titles) {
  for (const suite of suites) {
    const here = suite.title ? [...titles, suite.title] : titles;
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== 'unexpected') continue;
        const results = test.results ?? [];
        const error = results.at(-1)?.error?.message ?? '';
        // eslint-disable-next-line no-control-regex
        const first = error.replace(/\u001b\[[0-9;]*m/g, '').split('\n')[0];
        failures.push(
          `end-to-end: ${[...here, spec.title].join(' > ')}${first ? ` (${first})` : ''}`,
        );
      }
    }
    collectJourneyFailures(suite.suites ?? [], here);
  }
}

/**
 * Every statement of the server runs on PostgreSQL (decision 0074): the PostgreSQL pass notes
 * the repository methods its tests call and writes those it never called here.
 */
function checkStatementCoverage(file) {
  if (!process.env.TEST_DATABASE_URL) return;
  if (!existsSync(file)) {
    totals.failed += 1;
    problems.push('server: the PostgreSQL pass wrote no statement coverage');
    return;
  }
  const { all, missing } = JSON.parse(readFileSync(file, 'utf8'));
  if (missing.length === 0) return;
  totals.failed += 1;
  problems.push(
    `server: ${missing.length} of ${all} repository methods never ran on PostgreSQL: ${missing.join(', ')}`,
  );
}

const started = Date.now();
const statementCoverage = path.join(out, 'statement-coverage.json');
process.env.SIGNPOST_STATEMENT_COVERAGE_FILE = statementCoverage;
await vitest('server', 'apps/server');
checkStatementCoverage(statementCoverage);
await vitest('extension', 'apps/extension');
await vitest('link-search', 'packages/link-search');
// The journeys drive one server on one embedded database, which leaves most of a core idle:
// the web component tests run beside them, and their output follows the journeys'.
const webOutput = [];
await Promise.all([vitest('web', 'apps/web', webOutput), playwright()]);
for (const chunk of webOutput) process.stdout.write(chunk);

process.stdout.write('\nSuite                    time   budget  tests  assertions\n');
for (const suite of suites) {
  const budget = BUDGET_SECONDS[suite.label];
  const over = budget !== undefined && suite.seconds > budget ? '  over its budget' : '';
  process.stdout.write(
    `${suite.label.padEnd(22)} ${String(Math.round(suite.seconds)).padStart(5)} s ${String(budget ?? '-').padStart(6)} s ${String(suite.tests).padStart(6)} ${String(suite.assertions).padStart(11)}${over}\n`,
  );
}
process.stdout.write('\n');
for (const failure of failures) process.stdout.write(`✗ ${failure}\n`);
for (const problem of problems) process.stdout.write(`! ${problem}\n`);
if (totals.skipped > 0)
  process.stdout.write(`! ${totals.skipped} skipped: main has no skipped tests\n`);
process.stdout.write(`(${Math.round((Date.now() - started) / 1000)} s)\n`);
process.stdout.write(`Tests: ${totals.passed} passed, ${totals.failed} failed\n`);
process.exit(totals.failed > 0 || totals.skipped > 0 || totals.passed === 0 ? 1 : 0);
