import { asc } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { App } from '../../src/app.ts';
import type { Database } from '../../src/db/client.ts';
import {
  auditLog,
  collections,
  linkSuggestions,
  links,
  organizations,
  teamMemberships,
  teams,
} from '../../src/db/schema/index.ts';

/** Sends a request to /api/admin as someone, or anonymously. */
export function adminCall(
  app: App,
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  who?: { headers: Record<string, string> } | null,
  payload?: unknown,
) {
  return app.inject({
    method,
    url: `/api/admin${url}`,
    headers: who?.headers ?? {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

/** Every row the teams, organization and suggestions calls may write. */
export async function adminSnapshot(db: Database) {
  return {
    organizations: await db.select().from(organizations).orderBy(asc(organizations.id)),
    teams: await db.select().from(teams).orderBy(asc(teams.id)),
    memberships: await db
      .select()
      .from(teamMemberships)
      .orderBy(asc(teamMemberships.teamId), asc(teamMemberships.userId)),
    collections: await db.select().from(collections).orderBy(asc(collections.id)),
    links: await db.select().from(links).orderBy(asc(links.id)),
    suggestions: await db.select().from(linkSuggestions).orderBy(asc(linkSuggestions.id)),
    audit: await db.select().from(auditLog).orderBy(asc(auditLog.id)),
  };
}

/** Sends a request that must be refused with `status` and change nothing. */
export async function expectAdminRefused(
  db: Database,
  send: () => Promise<LightMyRequestResponse>,
  status: number,
) {
  const before = await adminSnapshot(db);
  const response = await send();
  expect(response.statusCode, response.body).toBe(status);
  expect(response.json()).toMatchObject({ message: expect.any(String) });
  expect(await adminSnapshot(db)).toEqual(before);
  return response.json<{ message: string; code: string }>();
}
