import { describe, expect, it } from 'vitest';
import { readPortalAddress } from './portal-address';

describe('the portal address a person types', () => {
  it.each([
    ['https://links.acme.example', 'https://links.acme.example', 'https://links.acme.example/*'],
    ['  links.acme.example/  ', 'https://links.acme.example', 'https://links.acme.example/*'],
    [
      'https://links.acme.example:8443/#settings',
      'https://links.acme.example:8443',
      // Firefox's match patterns name no port: the whole host is asked for.
      'https://links.acme.example/*',
    ],
    [
      'HTTPS://Links.Acme.Example/portal?x=1',
      'https://links.acme.example',
      'https://links.acme.example/*',
    ],
    ['http://localhost:3000', 'http://localhost:3000', 'http://localhost/*'],
    ['http://127.0.0.1:4123/', 'http://127.0.0.1:4123', 'http://127.0.0.1/*'],
    ['http://[::1]:3000', 'http://[::1]:3000', 'http://[::1]/*'],
  ])('reads %j as the origin %s, asking for %s', (input, origin, permission) => {
    expect(readPortalAddress(input)).toEqual({ ok: true, origin, permission });
  });

  it.each([
    ['', 'missing'],
    ['   ', 'missing'],
    ['ftp://links.acme.example', 'invalid'],
    ['javascript:alert(1)', 'invalid'],
    ['https://', 'invalid'],
    ['https://ada:secret@links.acme.example', 'invalid'],
    ['http://links.acme.example', 'not-https'],
    ['http://10.0.0.5:3000', 'not-https'],
  ])('refuses %j (%s)', (input, problem) => {
    expect(readPortalAddress(input)).toEqual({ ok: false, problem });
  });
});
