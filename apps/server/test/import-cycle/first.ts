// An import cycle written on purpose: first.ts and second.ts import each other, and
// import-boundaries.test.ts lints them to show that lint refuses a cycle in the server.
// eslint.config.js ignores this folder, so `npm run lint` stays clean.
import { second } from './second.ts';

export const first = () => second;
