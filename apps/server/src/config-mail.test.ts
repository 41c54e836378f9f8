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
    [{ SMTP_URL: 'not a url' }, /^SMTP_URL is not a URL/],
    [{ SMTP_URL: 'http://mail.example.com' }, /^SMTP_URL must start with smtp:\/\/ or smtps:\/\//],
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
});
