// People from a CSV file (decision 0085) against the service on the test database: what the
// preview counts and refuses (with each row's number), the file refused as a whole in words,
// the one transaction, teams, invitations and the audit log; and random and mutated files
// that never get anything but a clear 400, and never write when refused.
import { and, eq, inArray, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { selectRows } from '../../db/client.ts';
import { auditLog, invitations, teamMemberships, users } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { createTestServices } from '../../../test/app.ts';
import {
  addTeamMember,
  countRows,
  createOrganization,
  createTeam,
  createUser,
  type TestUser,
} from '../../../test/factories.ts';
import { refusal } from '../../../test/support/refusal.ts';
import { createPeopleImportService } from './people-import.service.ts';

const { services, repositories, db, config } = await createTestServices();
const service = services.peopleImport;

const org = await createOrganization(db, { name: 'Acme' });
const otherOrg = await createOrganization(db, { name: 'Elsewhere' });
const platform = await createTeam(db, org.id, { name: 'Platform' });
const sales = await createTeam(db, org.id, { name: 'Sales' });
await createTeam(db, otherOrg.id, { name: 'Secret' });
const admin = await createUser(db, org.id, { name: 'Ada Admin', role: 'admin' });
const member = await createUser(db, org.id, { name: 'Mo Member', email: 'mo@acme.test' });
await createUser(db, otherOrg.id, { name: 'Out', email: 'out@else.test' });
await addTeamMember(db, platform, member.id);

const origin = { ip: '10.5.0.1', userAgent: 'Console' };

async function signIn(person: TestUser) {
  const { token } = await services.auth.startSession(db, person.id, '10.5.0.2', 'Browser');
  const me = await services.auth.authenticate(token);
  if (!me) throw new Error('the session did not authenticate');
  return me;
}
const me = await signIn(admin);

/** Everything an import may write, counted. */
async function written() {
  return {
    users: await countRows(db, 'users'),
    collections: await countRows(db, 'collections'),
    invitations: await countRows(db, 'invitations'),
    memberships: await countRows(db, 'team_memberships'),
    audit: await countRows(db, 'audit_log'),
  };
}
const person = async (email: string) =>
  (
    await db
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = lower(${email})`)
  )[0];
const teamsOf = async (id: string) =>
  (
    await selectRows<{ name: string }>(
      db,
      sql`SELECT t.name FROM team_memberships m JOIN teams t ON t.id = m.team_id
          WHERE m.user_id = ${id} ORDER BY t.name`,
    )
  ).map((t) => t.name);
const badRequest = (message: string) => ({ statusCode: 400, code: 'VALIDATION_ERROR', message });

describe('the preview', () => {
  it('counts what the file creates, changes and leaves, and refuses rows with their number and reason', async () => {
    const csv = [
      'Name,E-mail,Role,Teams',
      'Nina New,nina@acme.test,,Platform; sales',
      '"Mo Member",MO@acme.test,member,Platform',
      'Mo Renamed,mo@acme.test,,',
      'Ada Admin,' + admin.email + ',admin,',
      'Out,out@else.test,,',
      'Bad,not-an-address,,',
      ',blank@acme.test,,',
      'Tess,tess@acme.test,owner,',
      'Uma,uma@acme.test,,Nowhere',
      'Short,short@acme.test',
      ',,,',
      'Nina Again,NINA@acme.test,,',
    ].join('\n');
    const before = await written();
    const preview = await service.preview(me, { csv });
    expect(await written()).toEqual(before);
    expect(preview).toMatchObject({ create: 1, change: 0, unchanged: 2, mailEnabled: false });
    expect(preview.refused).toEqual([
      { row: 4, email: 'mo@acme.test', reason: 'The e-mail address is also on row 3.' },
      { row: 6, email: 'out@else.test', reason: 'Someone already has this e-mail address.' },
      { row: 7, email: 'not-an-address', reason: 'This is not an e-mail address.' },
      { row: 8, email: 'blank@acme.test', reason: 'The name is missing.' },
      { row: 9, email: 'tess@acme.test', reason: 'The role "owner" is neither member nor admin.' },
      {
        row: 10,
        email: 'uma@acme.test',
        reason: 'No team is named "Nowhere": create it in the Teams tab first.',
      },
      { row: 11, email: 'short@acme.test', reason: 'The row has 2 cells where the header has 4.' },
      { row: 13, email: 'NINA@acme.test', reason: 'The e-mail address is also on row 2.' },
    ]);
    expect(preview.rows).toEqual([
      {
        row: 2,
        action: 'create',
        name: 'Nina New',
        email: 'nina@acme.test',
        role: 'member',
        teamsAdded: ['Platform', 'Sales'],
        changes: [],
      },
      expect.objectContaining({ row: 3, action: 'unchanged', email: 'mo@acme.test' }),
      expect.objectContaining({ row: 5, action: 'unchanged', role: 'admin' }),
    ]);
  });

  it('reads quoted cells with commas and line breaks, a BOM, CRLF, semicolons and the header in any order', async () => {
    const csv =
      '\ufeffTEAMS;email;NAME\r\n"Platform|Sales";"q1@acme.test";"Quinn, ""Q"" Quote"\r\n' +
      'Sales;q2@acme.test;"Line\r\nBreak"\r\n';
    const preview = await service.preview(me, { csv });
    expect(preview.create).toBe(1);
    expect(preview.rows[0]).toMatchObject({
      row: 2,
      name: 'Quinn, "Q" Quote',
      teamsAdded: ['Platform', 'Sales'],
    });
    // A line break inside a name is refused as the console refuses it; the row keeps its number.
    expect(preview.refused).toEqual([
      {
        row: 3,
        email: 'q2@acme.test',
        reason:
          'The name needs to be one line: tabs and line breaks (U+000D) are not allowed here.',
      },
    ]);
  });

  it('refuses the row that would demote the last active administrator', async () => {
    const preview = await service.preview(me, {
      csv: `name,email,role\nAda Admin,${admin.email},member\n`,
    });
    expect(preview.refused).toEqual([
      {
        row: 2,
        email: admin.email,
        reason:
          'The organization needs at least one active administrator: this row would demote the last one.',
      },
    ]);
  });

  it.each([
    ['no email column', 'name,mail\nA,a@acme.test', 'The file has no "email" column'],
    ['neither column', 'who,where\nA,B', 'The file has no "name" or "email" column'],
    ['an empty file', '', 'The file is empty'],
    ['only a header', 'name,email\n\n', 'The file has no people: only its header row.'],
    ['a column twice', 'name,email,Email\nA,a@x,a@x', 'The header names the column "email" twice.'],
    ['an unclosed quote', 'name,email\n"A,a@acme.test\n', 'The file is not valid CSV'],
    ['a replacement character', 'name,email\nA\ufffd,a@acme.test', 'The file is not valid UTF-8'],
    ['half a character', 'name,email\nA\ud800,a@acme.test', 'The file is not valid UTF-8'],
    ['a control character', 'name,email\nA\u0007,a@acme.test', 'The file cannot contain'],
  ])('refuses the whole file with %s: 400 in words, nothing written', async (_what, csv, words) => {
    const before = await written();
    for (const call of [
      () => service.preview(me, { csv }),
      () => service.apply(me, { csv, sendInvitations: true }, origin),
    ]) {
      const refused = await refusal(call());
      expect(refused).toMatchObject({ statusCode: 400, code: 'VALIDATION_ERROR' });
      expect(refused.message).toContain(words);
    }
    expect(await written()).toEqual(before);
  });

  it('refuses a file over 5 MB or 20,000 rows', async () => {
    const big = 'name,email\n' + `A,${'a'.repeat(100)}@acme.test\n`.repeat(52_000);
    expect(await refusal(service.preview(me, { csv: big }))).toEqual(
      badRequest('The file is 5.6 MB; an import takes 5 MB at most. Split it into smaller files.'),
    );
    const many =
      'name,email\n' + Array.from({ length: 20_001 }, (_, i) => `P${i},p${i}@acme.test`).join('\n');
    expect(await refusal(service.preview(me, { csv: many }))).toEqual(
      badRequest('The file has more than 20,000 rows of people; split it into smaller files.'),
    );
  });

  it('is for administrators only', async () => {
    const memberMe = await signIn(member);
    for (const call of [
      () => service.preview(memberMe, { csv: 'name,email\nA,a@acme.test' }),
      () =>
        service.apply(
          memberMe,
          { csv: 'name,email\nA,a@acme.test', sendInvitations: false },
          origin,
        ),
    ]) {
      expect(await refusal(call())).toMatchObject({ statusCode: 403 });
    }
    expect(await person('a@acme.test')).toBeUndefined();
  });
});

describe('the import', () => {
  it('invites new people, changes existing ones, adds teams by hand and never removes any, audited', async () => {
    const kept = await createUser(db, org.id, { name: 'Kim Kept', email: 'kim@acme.test' });
    await addTeamMember(db, sales, kept.id);
    const before = await written();
    const csv = [
      'name,email,teams',
      'Ivy Import,ivy@acme.test,Platform;Sales',
      'Kim Renamed,kim@acme.test,Platform',
      'Out,out@else.test,',
    ].join('\n');
    const result = await service.apply(me, { csv, sendInvitations: true }, origin);
    expect(result).toEqual({
      created: 1,
      changed: 1,
      unchanged: 0,
      refused: [
        { row: 4, email: 'out@else.test', reason: 'Someone already has this e-mail address.' },
      ],
      invitationsMailed: 0,
    });
    const ivy = await person('ivy@acme.test');
    expect(ivy).toMatchObject({
      name: 'Ivy Import',
      role: 'member',
      status: 'invited',
      passwordHash: null,
    });
    expect(await teamsOf(ivy!.id)).toEqual(['Platform', 'Sales']);
    // Kim keeps Sales (the file does not list it) and joins Platform by hand.
    expect(await person('kim@acme.test')).toMatchObject({ name: 'Kim Renamed', role: 'member' });
    expect(await teamsOf(kept.id)).toEqual(['Platform', 'Sales']);
    const [invitation] = await db.select().from(invitations).where(eq(invitations.userId, ivy!.id));
    expect(invitation).toMatchObject({ kind: 'invitation', createdBy: admin.id, mailState: null });
    // Mail is not set up: no mail, and the person's page has the open invitation to send again.
    expect((await services.people.get(me, ivy!.id)).invitation).toMatchObject({ mail: null });
    expect(await written()).toEqual({
      ...before,
      users: before.users + 1,
      collections: before.collections + 1,
      invitations: before.invitations + 1,
      memberships: before.memberships + 3,
      audit: before.audit + 3,
    });
    const entries = await db
      .select()
      .from(auditLog)
      .where(inArray(auditLog.action, ['person.imported', 'person.invited', 'person.updated']))
      .then((rows) => rows.filter((e) => e.occurredAt >= invitation!.createdAt));
    const summary = entries.find((e) => e.action === 'person.imported');
    expect(summary).toMatchObject({
      actorId: admin.id,
      ip: '10.5.0.1',
      details: { rows: 3, created: 1, changed: 1, unchanged: 0, refused: 1 },
    });
    const importId = (summary!.details as { import: string }).import;
    expect(entries.find((e) => e.targetId === ivy!.id)).toMatchObject({
      action: 'person.invited',
      after: { name: 'Ivy Import', email: 'ivy@acme.test', role: 'member', status: 'invited' },
      details: { import: importId, row: 2, teams: ['Platform', 'Sales'] },
    });
    expect(entries.find((e) => e.targetId === kept.id)).toMatchObject({
      action: 'person.updated',
      before: { name: 'Kim Kept' },
      after: { name: 'Kim Renamed' },
      details: { import: importId, row: 3, teamsJoined: ['Platform'] },
    });
    // The same file again changes nobody.
    const again = await service.apply(me, { csv, sendInvitations: false }, origin);
    expect(again).toMatchObject({ created: 0, changed: 0, unchanged: 2 });
    // The new person is in the console's list.
    expect((await services.people.list(me, { q: 'ivy@acme.test' })).items).toMatchObject([
      { name: 'Ivy Import', status: 'invited', teamCount: 2 },
    ]);
  });

  it('makes a membership another source made one made by hand too', async () => {
    const synced = await createUser(db, org.id, { name: 'Sy Synced', email: 'sy@acme.test' });
    await db.insert(teamMemberships).values({
      teamId: sales.id,
      userId: synced.id,
      organizationId: org.id,
      fromConsole: false,
      fromScim: true,
    });
    const result = await service.apply(
      me,
      { csv: 'name,email,teams\nSy Synced,sy@acme.test,Sales', sendInvitations: false },
      origin,
    );
    expect(result).toMatchObject({ changed: 1 });
    const [membership] = await db
      .select()
      .from(teamMemberships)
      .where(and(eq(teamMemberships.userId, synced.id), eq(teamMemberships.teamId, sales.id)));
    expect(membership).toMatchObject({ fromConsole: true, fromScim: true });
  });

  it('queues the invitations after the commit when mail is set up, and says which', async () => {
    const queued: { to: string; about: unknown }[] = [];
    const withMail = createPeopleImportService({
      db,
      config,
      peopleImport: repositories.peopleImport,
      people: repositories.people,
      adminAccess: services.adminAccess,
      invitations: services.invitations,
      jobs: {
        mailEnabled: true,
        sendMail: async (message, about) => {
          if (message.to === 'refused@acme.test') throw new Error('the queue is away');
          queued.push({ to: message.to, about });
        },
      },
    });
    const csv = 'name,email\nMia Mail,mia@acme.test\nRef Used,refused@acme.test\n';
    expect((await withMail.preview(me, { csv })).mailEnabled).toBe(true);
    const result = await withMail.apply(me, { csv, sendInvitations: true }, origin);
    expect(result).toMatchObject({ created: 2, invitationsMailed: 1 });
    expect(queued).toEqual([
      { to: 'mia@acme.test', about: { kind: 'invitation', id: expect.any(String) } },
    ]);
    const mia = await person('mia@acme.test');
    expect((await services.people.get(me, mia!.id)).invitation).toMatchObject({ mail: 'queued' });
    const refused = await person('refused@acme.test');
    expect((await services.people.get(me, refused!.id)).invitation).toMatchObject({ mail: null });
    // Without "send invitations", nothing is queued.
    await withMail.apply(
      me,
      { csv: 'name,email\nNo Mail,nomail@acme.test', sendInvitations: false },
      origin,
    );
    expect(queued).toHaveLength(1);
  });

  it('writes nothing when anything fails midway', async () => {
    const failing = createPeopleImportService({
      db,
      config,
      peopleImport: {
        ...repositories.peopleImport,
        insertAudit: async () => {
          throw new Error('the disk is full');
        },
      },
      people: repositories.people,
      adminAccess: services.adminAccess,
      invitations: services.invitations,
      jobs: services.jobs,
    });
    const before = await written();
    const csv = 'name,email,teams\nFay Fail,fay@acme.test,Sales\nMo Again,mo@acme.test,Sales\n';
    await expect(failing.apply(me, { csv, sendInvitations: false }, origin)).rejects.toThrow(
      'the disk is full',
    );
    expect(await written()).toEqual(before);
    expect(await person('fay@acme.test')).toBeUndefined();
  });

  it('asks for a fresh sign-in when the file makes administrators or changes roles', async () => {
    const stale = { ...me, recentlyAuthenticated: false };
    const before = await written();
    for (const csv of [
      'name,email,role\nNew Boss,boss@acme.test,admin',
      `name,email,role\nMo Member,mo@acme.test,admin`,
    ]) {
      expect(
        await refusal(service.apply(stale, { csv, sendInvitations: false }, origin)),
      ).toMatchObject({ statusCode: 403 });
    }
    expect(await written()).toEqual(before);
    const made = await service.apply(
      me,
      { csv: 'name,email,role\nNew Boss,boss@acme.test,ADMIN', sendInvitations: false },
      origin,
    );
    expect(made.created).toBe(1);
    expect(await person('boss@acme.test')).toMatchObject({ role: 'admin', status: 'invited' });
    // Promoting then demoting through files: audited as a change of role.
    const other = await createUser(db, org.id, { name: 'Al Second', role: 'admin' });
    const demoted = await service.apply(
      me,
      { csv: `name,email,role\nAl Second,${other.email},member`, sendInvitations: false },
      origin,
    );
    expect(demoted.changed).toBe(1);
    const [entry] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'person.role-changed'), eq(auditLog.targetId, other.id)));
    expect(entry).toMatchObject({ before: { role: 'admin' }, after: { role: 'member' } });
  });

  it('imports 500 people in one go', async () => {
    const csv =
      'name,email,role,teams\n' +
      Array.from({ length: 500 }, (_, i) => `Bulk ${i},bulk${i}@acme.test,member,Platform`).join(
        '\n',
      );
    const result = await service.apply(me, { csv, sendInvitations: false }, origin);
    expect(result).toMatchObject({ created: 500, refused: [] });
    const [counted] = await selectRows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM users u
          JOIN collections c ON c.owner_user_id = u.id AND c.is_root
          JOIN invitations i ON i.user_id = u.id
          JOIN team_memberships m ON m.user_id = u.id AND m.team_id = ${platform.id}
          WHERE u.email LIKE 'bulk%@acme.test'`,
    );
    expect(counted?.n).toBe(500);
  });
});

describe('random and mutated files', () => {
  const cell = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.constantFrom('', '"', '""', ',', ';', '|', '\n', '\r\n', 'a@b', 'Platform', 'admin', ' '),
    fc.string({ unit: 'grapheme', maxLength: 8 }),
  );
  const header = fc.shuffledSubarray(['name', 'email', 'E-Mail', 'role', 'teams', 'x'], {
    minLength: 0,
  });
  const file = fc
    .tuple(
      header,
      fc.array(fc.array(fc.tuple(cell, fc.boolean()), { maxLength: 6 }), { maxLength: 8 }),
    )
    .map(([head, rows]) =>
      [
        head.join(','),
        ...rows.map((row) =>
          row.map(([c, quoted]) => (quoted ? `"${c.replace(/"/g, '""')}"` : c)).join(','),
        ),
      ].join('\n'),
    );
  /** A file, then characters cut, doubled or swapped in it. */
  const mutated = fc
    .tuple(
      file,
      fc.array(fc.tuple(fc.nat(), fc.constantFrom('cut', 'double', 'quote', 'nul', 'bad')), {
        maxLength: 4,
      }),
    )
    .map(([text, edits]) =>
      edits.reduce((t, [at, edit]) => {
        const i = t.length === 0 ? 0 : at % t.length;
        if (edit === 'cut') return t.slice(0, i) + t.slice(i + 1);
        if (edit === 'double') return t.slice(0, i) + t.slice(i, i + 1).repeat(2) + t.slice(i + 1);
        if (edit === 'quote') return `${t.slice(0, i)}"${t.slice(i)}`;
        if (edit === 'nul') return `${t.slice(0, i)}\u0000${t.slice(i)}`;
        return `${t.slice(0, i)}\ud83d${t.slice(i)}`;
      }, text),
    );

  it('answers a plan or a clear 400, and a refused file writes nothing', async () => {
    const stale = { ...me, recentlyAuthenticated: false };
    await fc.assert(
      fc.asyncProperty(fc.oneof(file, mutated), async (csv) => {
        const before = await written();
        try {
          const preview = await service.preview(me, { csv });
          expect(preview.create + preview.change + preview.unchanged).toBeGreaterThanOrEqual(0);
        } catch (error) {
          expect(error).toBeInstanceOf(AppError);
          expect((error as AppError).statusCode).toBe(400);
          expect((error as AppError).message).toMatch(/^The (file|header)/);
          // The import refuses it the same way, writing nothing.
          await expect(
            service.apply(stale, { csv, sendInvitations: false }, origin),
          ).rejects.toBeInstanceOf(AppError);
          expect(await written()).toEqual(before);
        }
      }),
      { numRuns: 150 },
    );
  });
});
