// Every Vitest suite of the repository loads this file: it records how many assertions each
// test ran in the test's `meta`, which the JSON report carries to scripts/test.mjs for its
// closing summary.
import { afterEach, expect } from 'vitest';

afterEach((context) => {
  context.task.meta.assertions = expect.getState().assertionCalls;
});
