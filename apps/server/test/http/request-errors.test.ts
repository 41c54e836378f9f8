// Errors answered before any route, and the Authorization header: every refusal has the one
// error shape (message and msg), and the Bearer scheme is matched in any case (decision 0049).
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../app.ts';
import { createOrganization, createUser, signIn } from '../factories.ts';

const { app, db } = await createTestApp();
const org = await createOrganization(db);
const person = await createUser(db, org.id);
const { token } = await signIn(app, person);
// Listens on a port for the raw socket test, and closes after it.
const listening = await createTestApp();

const shape = (statusCode: number, code: string) => ({
  statusCode,
  error: expect.any(String),
  code,
  message: expect.any(String),
  msg: expect.any(String),
});

describe('errors before any route', () => {
  it.each([
    '/api/auth/methods%zz',
    '/api/consumer/links/%E0%A4%A',
    '/%',
    '/api/consumer/collections/%C0%80',
  ])('answers a bad percent-encoding in %s with the one error shape', async (url) => {
    const response = await app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body).toEqual(shape(400, 'VALIDATION_ERROR'));
    expect(body.msg).toBe(body.message);
    expect(body.message).toBe(
      'The address is not valid: a % in its path must be followed by two hex digits of UTF-8.',
    );
    expect(response.headers['content-type']).toMatch(/^application\/json/);
  });

  it('answers a too-long path parameter with 414 and the one error shape', async () => {
    const response = await app.inject({
      method: 'GET',
      url: `/api/consumer/links/${'a'.repeat(600)}/anything`,
    });
    // find-my-way's limit is 100 characters a parameter.
    const long = await app.inject({
      method: 'DELETE',
      url: `/api/consumer/links/${'a'.repeat(600)}`,
      headers: { authorization: `Bearer ${token}` },
    });
    for (const r of [response, long]) {
      expect([404, 414]).toContain(r.statusCode);
      const body = r.json();
      expect(body.msg).toBe(body.message);
      expect(typeof body.message).toBe('string');
    }
    expect(long.statusCode).toBe(414);
    expect(long.json()).toEqual(shape(414, 'VALIDATION_ERROR'));
  });

  it('answers invalid JSON, an empty JSON body and an unknown content type with the shape', async () => {
    for (const [contentType, payload, status] of [
      ['application/json', '{"type": "email-password",', 400],
      ['application/json', '', 400],
      ['application/xml', '<login/>', 415],
    ] as const) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/auth/sessions',
        headers: { 'content-type': contentType },
        payload,
      });
      expect(response.statusCode).toBe(status);
      const body = response.json();
      expect(body).toEqual(shape(status, 'VALIDATION_ERROR'));
      expect(body.msg).toBe(body.message);
    }
  });

  it('answers malformed HTTP on the socket with the one error shape', async () => {
    const address = await listening.app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = new URL(address);
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1');
        let data = '';
        socket.on('data', (chunk) => (data += chunk.toString('utf8')));
        socket.on('error', reject);
        socket.on('close', () => resolve(data));
        socket.write('GET /api/auth/methods HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n');
      });
      expect(raw).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));
      expect(body).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        code: 'VALIDATION_ERROR',
        message: 'The request is not valid HTTP.',
        msg: 'The request is not valid HTTP.',
      });
    } finally {
      await listening.app.close();
    }
  });
});

describe('the Authorization header', () => {
  it.each(['Bearer', 'bearer', 'BEARER', 'bEaReR'])(
    'takes the scheme written %s',
    async (scheme) => {
      const response = await app.inject({
        method: 'GET',
        url: '/api/auth/sessions/current',
        headers: { authorization: `${scheme} ${token}` },
      });
      expect(response.statusCode).toBe(200);
    },
  );

  it('takes several spaces after the scheme, and refuses other schemes', async () => {
    const spaced = await app.inject({
      method: 'GET',
      url: '/api/auth/sessions/current',
      headers: { authorization: `Bearer   ${token}` },
    });
    expect(spaced.statusCode).toBe(200);
    for (const authorization of [`Basic ${token}`, `Bearer${token}`, token, `Bearer ${token} x`]) {
      const response = await app.inject({
        method: 'GET',
        url: '/api/auth/sessions/current',
        headers: { authorization },
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual(shape(401, 'UNAUTHORIZED'));
    }
  });
});
