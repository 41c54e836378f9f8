import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeAll } from 'vitest';
import { initI18n } from '../lib/i18n';

// A lazy chunk (the console, a panel) is transformed on its first import; beside the journeys
// on two cores that can take longer than Testing Library's default second.
configure({ asyncUtilTimeout: 5_000 });

// jsdom has <dialog> but not its modal methods.
beforeAll(() => {
  const proto = HTMLDialogElement.prototype;
  proto.showModal ??= function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  proto.close ??= function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
  initI18n('en');
});

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  // Files of a worker share one window: a test that opened the console (/console/…) must not
  // start the next file there.
  window.history.replaceState(null, '', '/');
});
