import { writeFileSync } from 'node:fs';
import type { Reporter, TestStep } from '@playwright/test/reporter';

/**
 * Counts the assertions the journeys ran (their `expect` steps) and writes the figure to the
 * file named by PLAYWRIGHT_ASSERTIONS_FILE, for the closing summary of scripts/test.mjs.
 * Playwright's JSON report keeps only `test.step` steps, so it cannot say.
 */
export default class AssertionCountReporter implements Reporter {
  private count = 0;

  onStepEnd(_test: unknown, _result: unknown, step: TestStep): void {
    if (step.category === 'expect') this.count += 1;
  }

  onEnd(): void {
    const file = process.env.PLAYWRIGHT_ASSERTIONS_FILE;
    if (file) writeFileSync(file, String(this.count));
  }

  printsToStdio(): boolean {
    return false;
  }
}
