// `/?q=…`, the OpenSearch template (decision 0065): the terms leave the address at start and
// wait for the portal, through a sign-in, once.
import { afterEach, describe, expect, it } from 'vitest';
import { takePendingSearch, takeSearchAddress } from './search-address';

afterEach(() => {
  window.sessionStorage.clear();
  window.history.replaceState(null, '', '/');
});

describe('the search in the address', () => {
  it('takes q out of the address, keeping the rest, and keeps the terms for the portal once', () => {
    window.history.replaceState(null, '', '/?q=wiki%20docs&lang=en#session?token=x');
    takeSearchAddress();
    expect(`${window.location.pathname}${window.location.search}${window.location.hash}`).toBe(
      '/?lang=en#session?token=x',
    );
    expect(takePendingSearch()).toBe('wiki docs');
    expect(takePendingSearch()).toBeNull();
  });

  it('keeps the terms in the tab until they are used, as a sign-in may leave the page and return', () => {
    window.history.replaceState(null, '', '/?q=runbooks');
    takeSearchAddress();
    expect(window.location.search).toBe('');
    // What survives a single sign-on's round trip: the tab's session storage.
    expect(window.sessionStorage.getItem('signpost:pending-search')).toBe('runbooks');
  });

  it('ignores blank terms and an address without q, and bounds long ones', () => {
    window.history.replaceState(null, '', '/?q=%20%20');
    takeSearchAddress();
    expect(takePendingSearch()).toBeNull();
    window.history.replaceState(null, '', '/?x=1');
    takeSearchAddress();
    expect(window.location.search).toBe('?x=1');
    expect(takePendingSearch()).toBeNull();
    window.history.replaceState(null, '', `/?q=${'a'.repeat(500)}`);
    takeSearchAddress();
    expect(takePendingSearch()).toHaveLength(200);
  });
});
