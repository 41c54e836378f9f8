// The page's side of the service worker's updates (decision 0065): a waiting version is asked
// to take over for this page's build, a version found later too, and a page shown again
// after an hour asks for a new version.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { registerServiceWorker } from './service-worker';
import { TAKE_OVER } from './sw-rules';

class FakeWorker extends EventTarget {
  state = 'installing';
  postMessage = vi.fn();
}

function fakeRegistration(
  waiting: FakeWorker | null,
  active: FakeWorker | null = new FakeWorker(),
) {
  const registration = Object.assign(new EventTarget(), {
    waiting,
    active,
    installing: null as FakeWorker | null,
    update: vi.fn(async () => undefined),
  });
  const container = { register: vi.fn(async () => registration) };
  return { registration, container: container as unknown as ServiceWorkerContainer };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('registerServiceWorker', () => {
  it('registers /sw.js for the whole origin, never from the HTTP cache', async () => {
    const { container } = fakeRegistration(null);
    await registerServiceWorker('/assets/index-abc.js', container);
    expect(container.register).toHaveBeenCalledWith('/sw.js', {
      scope: '/',
      updateViaCache: 'none',
    });
  });

  it('asks a waiting version to take over for this build', async () => {
    const waiting = new FakeWorker();
    const { container } = fakeRegistration(waiting);
    await registerServiceWorker('/assets/index-abc.js', container);
    expect(waiting.postMessage).toHaveBeenCalledWith({
      type: TAKE_OVER,
      entry: '/assets/index-abc.js',
    });
  });

  it('asks a version found later once it is installed, unless it is the first one', async () => {
    const { registration, container } = fakeRegistration(null);
    await registerServiceWorker('/assets/index-new.js', container);
    const next = new FakeWorker();
    registration.installing = next;
    registration.dispatchEvent(new Event('updatefound'));
    next.dispatchEvent(new Event('statechange'));
    expect(next.postMessage).not.toHaveBeenCalled();
    next.state = 'installed';
    next.dispatchEvent(new Event('statechange'));
    expect(next.postMessage).toHaveBeenCalledWith({
      type: TAKE_OVER,
      entry: '/assets/index-new.js',
    });

    // The very first version has nothing to take over from: it starts on its own.
    const first = fakeRegistration(null, null);
    await registerServiceWorker('/assets/index-new.js', first.container);
    const only = new FakeWorker();
    first.registration.installing = only;
    first.registration.dispatchEvent(new Event('updatefound'));
    only.state = 'installed';
    only.dispatchEvent(new Event('statechange'));
    expect(only.postMessage).not.toHaveBeenCalled();
  });

  it('looks for a new version when the page is shown again after an hour', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { registration, container } = fakeRegistration(null);
    await registerServiceWorker('/assets/index-abc.js', container);
    const show = () => document.dispatchEvent(new Event('visibilitychange'));
    vi.setSystemTime(Date.now() + 10 * 60_000);
    show();
    expect(registration.update).not.toHaveBeenCalled();
    vi.setSystemTime(Date.now() + 60 * 60_000);
    show();
    expect(registration.update).toHaveBeenCalledTimes(1);
  });
});
