import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('mail configuration', () => {
  it('sends no mail without SMTP_URL', () => {
    expect(loadConfig({}).mail).toBeNull();
  });

  it('reads SMTP_URL and MAIL_FROM, with a sender from PUBLIC_URL by default', () => {
    expect(loadConfig({ SMTP_URL: 'smtps://u:p@mail.example.com:465' }).mail).toEqual({
      smtpUrl: 'smtps://u:p@mail.example.com:465',
      from: 'Signpost <signpost@localhost>',
    });
    const config = loadConfig({
      SMTP_URL: 'smtp://mail.example.com:587',
      MAIL_FROM: 'Links <links@example.com>',
      PUBLIC_URL: 'https://links.example.com',
    });
    expect(config.mail).toEqual({
      smtpUrl: 'smtp://mail.example.com:587',
      from: 'Links <links@example.com>',
    });
    expect(
      loadConfig({ SMTP_URL: 'smtp://m.example.com', PUBLIC_URL: 'https://links.example.com' }).mail
        ?.from,
    ).toBe('Signpost <signpost@links.example.com>');
  });

  it.each([
    [
      { SMTP_URL: 'not a url' },
      'SMTP_URL "not a url" is not an address: write smtp://user:password@host:587 (STARTTLS when the server offers it) or smtps://user:password@host:465 (TLS)',
    ],
    [
      { SMTP_URL: 'http://mail.example.com' },
      'SMTP_URL "http://mail.example.com" is not an smtp:// or smtps:// address: write smtp://mail.example.com (STARTTLS when the server offers it) or smtps://mail.example.com:465 (TLS)',
    ],
    [{ SMTP_URL: 'smtp://m.example.com', MAIL_FROM: 'nobody' }, /^MAIL_FROM must be an address/],
    [{ SMTP_URL: 'smtp://m.example.com', MAIL_FROM: 'a@b.c\r\nBcc: x@y.z' }, /^MAIL_FROM must be/],
    [{ MAIL_FROM: 'a@example.com' }, /^MAIL_FROM is set but SMTP_URL is not/],
  ])('stops with one line on %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
    try {
      loadConfig(env);
    } catch (error) {
      expect((error as Error).message).not.toContain('\n');
    }
  });

  // A host and port without a scheme: refused, quoting what was typed and what to write,
  // never a made-up "mail.acme.example://" (the URL parser reads "mail.acme.example:" as a
  // scheme).
  it.each([
    [
      'mail.acme.example:587',
      'SMTP_URL "mail.acme.example:587" is not an address: write smtp://mail.acme.example:587 (STARTTLS when the server offers it) or smtps://mail.acme.example:465 (TLS)',
    ],
    [
      'localhost:25',
      'SMTP_URL "localhost:25" is not an address: write smtp://localhost:25 (STARTTLS when the server offers it) or smtps://localhost:465 (TLS)',
    ],
    [
      'mail.acme.example',
      'SMTP_URL "mail.acme.example" is not an address: write smtp://mail.acme.example (STARTTLS when the server offers it) or smtps://mail.acme.example:465 (TLS)',
    ],
    // A password typed in it is not printed.
    [
      'links:s3cret@mail.acme.example:587',
      'SMTP_URL "***@mail.acme.example:587" is not an address: write smtp://mail.acme.example:587 (STARTTLS when the server offers it) or smtps://mail.acme.example:465 (TLS)',
    ],
    [
      'https://links:s3cret@mail.acme.example',
      'SMTP_URL "https://***@mail.acme.example" is not an smtp:// or smtps:// address: write smtp://mail.acme.example (STARTTLS when the server offers it) or smtps://mail.acme.example:465 (TLS)',
    ],
  ])('refuses SMTP_URL=%s with what was typed and what to write', (value, message) => {
    expect(() => loadConfig({ SMTP_URL: value })).toThrow(new ConfigError(message));
    expect(() => loadConfig({ SMTP_URL: value })).not.toThrow(/:\/\/"|s3cret/);
  });
});
