import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('has defaults that start the embedded database with demo data on port 3000', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: 'localhost',
      databaseUrl: null,
      demoData: true,
      sessionIdleMinutes: 7 * 24 * 60,
      sessionAbsoluteHours: 30 * 24,
      argon2: { memoryCost: 19456, timeCost: 2, parallelism: 1 },
    });
    expect(config.dataDir).toMatch(/data$/);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgresql://u@db:5432/signpost',
      DEMO_DATA: 'no',
      SESSION_IDLE_MINUTES: '30',
      TRUST_PROXY: '1',
      LOG_LEVEL: 'warn',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      databaseUrl: 'postgresql://u@db:5432/signpost',
      demoData: false,
      sessionIdleMinutes: 30,
      trustProxy: 1,
      logLevel: 'warn',
    });
  });

  it('trusts no proxy unless told how many hops or which addresses', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(
      loadConfig({ TRUST_PROXY: '10.0.0.5, 192.168.0.0/16,::1,fd00::/8,loopback' }).trustProxy,
    ).toEqual(['10.0.0.5', '192.168.0.0/16', '::1', 'fd00::/8', 'loopback']);
  });

  it.each(['true', 'TRUE', 'yes', 'on', '0.0.0.0/0', '10.0.0.5,::/0'])(
    'refuses TRUST_PROXY=%s, which would believe any client, and says what to write',
    (value) => {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(ConfigError);
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(
        /believe any X-Forwarded-For.*TRUST_PROXY=1.*TRUST_PROXY=10\.0\.0\.5,192\.168\.0\.0\/16/,
      );
    },
  );

  it.each([
    ['11', /TRUST_PROXY must be 0 to 10 hops/],
    ['-1', /"-1" is neither an address nor a range/],
    ['10.0.0.300', /"10.0.0.300" is neither/],
    ['10.0.0.0/33', /"10.0.0.0\/33" is neither/],
    ['fd00::/129', /"fd00::\/129" is neither/],
    ['10.0.0.1,,10.0.0.2', /"" is neither/],
    ['proxy.example.com', /"proxy.example.com" is neither/],
    ['10.0.0.0/8/1', /"10.0.0.0\/8\/1" is neither/],
  ])('refuses TRUST_PROXY=%s with one clear line', (value, message) => {
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(message);
    expect(() => loadConfig({ TRUST_PROXY: value })).not.toThrow(/\n/);
  });

  it('serves the API description to signed-in callers unless told public or off', () => {
    expect(loadConfig({}).apiDocs).toBe('signed-in');
    expect(loadConfig({ API_DOCS: 'public' }).apiDocs).toBe('public');
    expect(loadConfig({ API_DOCS: 'OFF' }).apiDocs).toBe('off');
    expect(() => loadConfig({ API_DOCS: 'yes' })).toThrow(
      /^API_DOCS must be signed-in, public or off; got "yes"$/,
    );
  });

  it('keeps 64 MB of menu spaces unless told another size, 0 for none', () => {
    expect(loadConfig({}).menuCacheMb).toBe(64);
    expect(loadConfig({ MENU_CACHE_MB: '0' }).menuCacheMb).toBe(0);
    expect(loadConfig({ MENU_CACHE_MB: '512' }).menuCacheMb).toBe(512);
  });

  it('serves metrics only on a port of their own or behind a token', () => {
    const token = 'a'.repeat(24);
    expect(loadConfig({}).metrics).toBeNull();
    expect(loadConfig({ METRICS_PORT: '9464' }).metrics).toEqual({ port: 9464, token: null });
    expect(loadConfig({ METRICS_TOKEN: token }).metrics).toEqual({ port: null, token });
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_TOKEN: token }).metrics).toEqual({
      port: 9464,
      token,
    });
  });

  it.each([
    [{ METRICS_PORT: '3000' }, /^METRICS_PORT must differ from PORT \(3000\)/],
    [{ METRICS_PORT: 'nine' }, /^METRICS_PORT must be a whole number from 1 to 65535/],
    [{ METRICS_TOKEN: 'short' }, /^METRICS_TOKEN must be at least 24 characters/],
    [{ METRICS_TOKEN: `${'a'.repeat(24)} b` }, /^METRICS_TOKEN must be at least 24 characters/],
  ])('refuses metrics settings %j with one line', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('asks sites at most once a second per host, for icons weekly and to check links daily, unless told not to', () => {
    expect(loadConfig({}).outbound).toEqual({
      enabled: true,
      iconRefreshHours: 168,
      linkCheckHours: 24,
      perHostIntervalMs: 1000,
    });
    expect(
      loadConfig({
        OUTBOUND_REQUESTS: 'false',
        ICON_REFRESH_HOURS: '24',
        LINK_CHECK_HOURS: '6',
        OUTBOUND_HOST_INTERVAL_MS: '250',
      }).outbound,
    ).toEqual({ enabled: false, iconRefreshHours: 24, linkCheckHours: 6, perHostIntervalMs: 250 });
  });

  it.each([
    [{ OUTBOUND_REQUESTS: 'sometimes' }, /^OUTBOUND_REQUESTS must be true or false/],
    [{ ICON_REFRESH_HOURS: '0' }, /^ICON_REFRESH_HOURS must be a whole number from 1 to 8760/],
    [{ OUTBOUND_HOST_INTERVAL_MS: '-5' }, /^OUTBOUND_HOST_INTERVAL_MS must be a whole number/],
    [{ LINK_CHECK_HOURS: '721' }, /^LINK_CHECK_HOURS must be a whole number from 1 to 720/],
  ])('refuses outbound settings %j with one line', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('turns demo data off with --no-demo', () => {
    expect(loadConfig({}, ['--no-demo']).demoData).toBe(false);
  });

  it.each([
    [{ PORT: 'abc' }, /PORT must be a whole number/],
    [{ PORT: '70000' }, /PORT must be a whole number from 0 to 65535/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must start with postgres/],
    [{ DATABASE_URL: 'not a url' }, /DATABASE_URL is not a valid URL/],
    [{ DEMO_DATA: 'maybe' }, /DEMO_DATA must be true or false/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of/],
    [{ SESSION_IDLE_MINUTES: '0' }, /SESSION_IDLE_MINUTES/],
    [{ MENU_CACHE_MB: '-1' }, /MENU_CACHE_MB must be a whole number from 0 to 4096/],
    [{ MENU_CACHE_MB: 'lots' }, /MENU_CACHE_MB must be a whole number/],
  ])('refuses %j with one clear sentence', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
