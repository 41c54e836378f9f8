// The console's list answered by its statement (while the people directory is being built,
// or on a database that orders otherwise): its cursors hold the name as the database lowers
// it, so that paging never skips nor repeats a person.
import { describe, expect, it } from 'vitest';
import type { AuthContext } from '../../lib/auth-context.ts';
import { createTestServices } from '../../../test/app.ts';
import { createOrganization, createUser } from '../../../test/factories.ts';
import { createPeopleRules } from './people.rules.ts';
import { createPeopleService } from './people.service.ts';

const { services, repositories, db, config } = await createTestServices();

// İ lowers to "i" in the database and to "i" with a combining dot in JavaScript; a final Σ
// to σ in the database and to ς in JavaScript. Each has a name between the two lowerings.
const NAMES = ['İlkay', 'Ivan', 'Ina', 'ΟΔΥΣΣΕΑΣ', 'οδυσσεας x', 'Zoë'];

describe('the console’s list from its statement', () => {
  it('pages through everyone, in order, one person a page', async () => {
    const org = await createOrganization(db);
    const admin = await createUser(db, org.id, { name: 'Admin', role: 'admin' });
    for (const name of NAMES) await createUser(db, org.id, { name });
    const me: AuthContext = {
      sessionId: null,
      accessTokenId: null,
      userId: admin.id,
      name: 'Admin',
      email: admin.email,
      role: 'admin',
      organizationId: org.id,
      organizationName: 'Org',
      menuScopes: null,
      peopleVersion: null,
      expiresAt: null,
    };
    // No directory: every page comes from the statement.
    const people = createPeopleService({
      db,
      config,
      people: repositories.people,
      rules: createPeopleRules({ people: repositories.people, audit: services.audit }),
      adminAccess: services.adminAccess,
      audit: services.audit,
      invitations: services.invitations,
      jobs: services.jobs,
      directory: null,
    });
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 20; pages += 1) {
      const page = await people.list(me, { limit: 1, ...(cursor ? { cursor } : {}) });
      seen.push(...page.items.map((row) => row.name));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    const everyone = await people.list(me, { limit: 50 });
    expect(everyone.items).toHaveLength(NAMES.length + 1);
    expect(seen).toEqual(everyone.items.map((row) => row.name));
  });
});
