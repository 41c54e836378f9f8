// An import cycle written on purpose: first.tsx and second.tsx import each other, and
// apps/server/test/import-boundaries.test.ts lints them to show that lint refuses a cycle
// in the web app. eslint.config.js ignores this folder, so `npm run lint` stays clean.
import { Second } from './second';

export const First = () => <Second />;
