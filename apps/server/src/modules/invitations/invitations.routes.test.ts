import { sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, describe, expect, it } from 'vitest';
import { selectRows } from '../../db/client.ts';
import { createTestApp } from '../../../test/app.ts';
import { createCast } from '../../../test/support/world.ts';
import { signIn } from '../../../test/factories.ts';

interface Received {
  to: string[];
  data: string;
}

/**
 * A real SMTP server on a free port, keeping what it receives; it refuses every recipient
 * whose address starts with "refused".
 */
async function startSmtp() {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('refused')) {
        const error = Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 });
        callback(error);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      let data = '';
      stream.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), data });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { received, url: `smtp://127.0.0.1:${port}` };
}

const smtp = await startSmtp();
const { app, db } = await createTestApp({
  SMTP_URL: smtp.url,
  MAIL_FROM: 'Signpost <links@example.test>',
});
const cast = await createCast(db);
const admin = (await signIn(app, cast.orgAdmin)).headers;

const invite = async (email: string) => {
  const response = await app.inject({
    method: 'POST',
    url: '/api/admin/people/invitations',
    headers: admin,
    payload: { name: 'Nora New', email },
  });
  expect(response.statusCode).toBe(201);
  return response.json<{
    mail: string;
    mailed: boolean;
    link: string | null;
    person: { id: string };
  }>();
};

async function mailTo(email: string): Promise<Received> {
  for (let i = 0; i < 100; i += 1) {
    const found = smtp.received.find((m) => m.to.includes(email));
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no mail to ${email}`);
}

const tokenOf = (mail: Received) => {
  const unfolded = mail.data.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const match = /#invitation=([A-Za-z0-9_-]{43})/.exec(unfolded);
  if (!match?.[1]) throw new Error('no link in the mail');
  return match[1];
};

const lookup = (token: string, ip = '10.1.0.1') =>
  app.inject({
    method: 'POST',
    url: '/api/invitations/lookup',
    payload: { token },
    remoteAddress: ip,
  });
const accept = (token: string, password = 'my new password', ip = '10.1.0.2') =>
  app.inject({
    method: 'POST',
    url: '/api/invitations/accept',
    payload: { token, password },
    remoteAddress: ip,
  });

describe('invitations by mail', () => {
  it('sends the invitation through SMTP (a send-mail job): to, subject and the link', async () => {
    const answer = await invite('nora@example.test');
    expect(answer).toMatchObject({ mail: 'queued', mailed: true, link: null });
    const mail = await mailTo('nora@example.test');
    expect(mail.data).toMatch(/^Subject: You are invited to .+ on Signpost/m);
    expect(mail.data).toMatch(/^From: Signpost <links@example\.test>/m);
    expect(tokenOf(mail)).toHaveLength(43);
    const jobs = await selectRows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'send-mail'`,
    );
    expect(jobs[0]?.n).toBeGreaterThanOrEqual(1);
  });

  it("the person's page follows the mail: queued, then sent once the mail server accepted it", async () => {
    const answer = await invite('paula@example.test');
    const page = async () =>
      (
        await app.inject({
          method: 'GET',
          url: `/api/admin/people/${answer.person.id}`,
          headers: admin,
        })
      ).json<{ invitation: { mail: string | null; mailAt: string | null } | null }>();
    // Right after the answer, the worker has not taken the mail yet, or has sent it.
    expect(['queued', 'sent']).toContain((await page()).invitation?.mail);
    await mailTo('paula@example.test');
    await expect
      .poll(async () => (await page()).invitation?.mail, { timeout: 10_000 })
      .toBe('sent');
    expect((await page()).invitation?.mailAt).toEqual(expect.any(String));
  });

  it("says on the person's page that the mail server refused the mail, and that it is tried again", async () => {
    const answer = await invite('refused.rita@example.test');
    expect(answer).toMatchObject({ mail: 'queued', link: null });
    const page = async () =>
      (
        await app.inject({
          method: 'GET',
          url: `/api/admin/people/${answer.person.id}`,
          headers: admin,
        })
      ).json<{ invitation: { mail: string | null } | null }>();
    await expect
      .poll(async () => (await page()).invitation?.mail, { timeout: 10_000 })
      .toBe('retrying');
    expect(smtp.received.some((m) => m.to.includes('refused.rita@example.test'))).toBe(false);
  });

  // What accepting writes, single use, races and replaced links are the invitations
  // service's (invitations.service.test.ts); here, the answers of each route.
  it('the link says who, where and until when; accepting signs in once, a second accept is 410', async () => {
    await invite('otto@example.test');
    const token = tokenOf(await mailTo('otto@example.test'));
    const seen = await lookup(token);
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toMatchObject({
      person: { name: 'Nora New', email: 'otto@example.test' },
      organization: { name: cast.org.name },
    });
    const short = await accept(token, 'short');
    expect(short.statusCode).toBe(400);
    const accepted = await accept(token);
    expect(accepted.statusCode).toBe(201);
    const me = await app.inject({
      url: '/api/auth/sessions/current',
      headers: { authorization: `Bearer ${accepted.json().token}` },
    });
    expect(me.json().user.email).toBe('otto@example.test');
    const again = await accept(token);
    expect(again.statusCode).toBe(410);
    expect(again.json()).toMatchObject({ code: 'GONE', message: expect.any(String) });
    expect((await lookup(token)).statusCode).toBe(410);
  });

  it('resending mails a new link; the earlier one is 410', async () => {
    const answer = await invite('resend@example.test');
    const first = tokenOf(await mailTo('resend@example.test'));
    smtp.received.length = 0;
    const resent = await app.inject({
      method: 'POST',
      url: `/api/admin/people/${answer.person.id}/invitation`,
      headers: admin,
    });
    expect(resent.statusCode).toBe(200);
    expect(resent.json()).toMatchObject({ mail: 'queued', mailed: true, link: null });
    const second = tokenOf(await mailTo('resend@example.test'));
    expect(second).not.toBe(first);
    expect((await lookup(first)).statusCode).toBe(410);
    expect((await lookup(second)).statusCode).toBe(200);
  });

  it('in an organization that signs in with single sign-on only, accepting is 409', async () => {
    await invite('sso.only@example.test');
    const token = tokenOf(await mailTo('sso.only@example.test'));
    await db.execute(
      sql`UPDATE organizations SET password_sign_in = false WHERE id = ${cast.org.id}`,
    );
    try {
      const refused = await accept(token, 'my new password', '10.1.0.3');
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toMatch(/single sign-on only/);
    } finally {
      await db.execute(
        sql`UPDATE organizations SET password_sign_in = true WHERE id = ${cast.org.id}`,
      );
    }
  });

  it('refuses bad bodies and throttles guessing per address', async () => {
    expect(
      (
        await app.inject({
          method: 'POST',
          url: '/api/invitations/accept',
          payload: { token: 'x'.repeat(43) },
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await app.inject({
          method: 'POST',
          url: '/api/invitations/lookup',
          payload: { token: 'x'.repeat(43), extra: 1 },
        })
      ).statusCode,
    ).toBe(400);
    let last = 0;
    for (let i = 0; i < 32; i += 1)
      last = (await lookup(`guess${'y'.repeat(40)}${i}`, '10.9.9.9')).statusCode;
    expect(last).toBe(429);
  });
});
