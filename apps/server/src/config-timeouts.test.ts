// The time limits of connections and of shutdown (decision 0050): defaults, and one line
// for a bad value.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('time limits in the configuration', () => {
  it('has bounded defaults', () => {
    expect(loadConfig({}).timeouts).toEqual({
      requestSeconds: 30,
      headersSeconds: 10,
      keepAliveSeconds: 72,
      shutdownSeconds: 10,
      drainSeconds: 0,
    });
  });

  it('reads each from the environment', () => {
    expect(
      loadConfig({
        REQUEST_TIMEOUT_SECONDS: '60',
        HEADERS_TIMEOUT_SECONDS: '5',
        KEEP_ALIVE_TIMEOUT_SECONDS: '65',
        SHUTDOWN_TIMEOUT_SECONDS: '25',
        SHUTDOWN_DRAIN_SECONDS: '15',
      }).timeouts,
    ).toEqual({
      requestSeconds: 60,
      headersSeconds: 5,
      keepAliveSeconds: 65,
      shutdownSeconds: 25,
      drainSeconds: 15,
    });
  });

  it.each([
    [{ REQUEST_TIMEOUT_SECONDS: '0' }, /^REQUEST_TIMEOUT_SECONDS must be a whole number from 1/],
    [{ SHUTDOWN_TIMEOUT_SECONDS: 'soon' }, /^SHUTDOWN_TIMEOUT_SECONDS must be a whole number/],
    [{ KEEP_ALIVE_TIMEOUT_SECONDS: '-1' }, /^KEEP_ALIVE_TIMEOUT_SECONDS must be a whole number/],
    [{ SHUTDOWN_DRAIN_SECONDS: '-5' }, /^SHUTDOWN_DRAIN_SECONDS must be a whole number from 0/],
    [
      { REQUEST_TIMEOUT_SECONDS: '5', HEADERS_TIMEOUT_SECONDS: '6' },
      /^HEADERS_TIMEOUT_SECONDS \(6\) must not exceed REQUEST_TIMEOUT_SECONDS \(5\)$/,
    ],
  ])('refuses %j with one line', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
