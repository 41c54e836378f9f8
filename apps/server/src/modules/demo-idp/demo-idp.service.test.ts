// Who the demo identity provider may sign in: the demo organization, once its data and its
// demo person are here, and only that organization's active people.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../db/schema/index.ts';
import { DEMO_EMAIL } from '../../db/seed/demo.ts';
import { ORGANIZATION_NAME } from '../../db/seed/demo-data.ts';
import { createTestServices } from '../../../test/app.ts';
import { createOrganization, createUser } from '../../../test/factories.ts';

const { services, db } = await createTestServices();
const demoIdp = services.demoIdp;
const demo = await createOrganization(db, { name: `${ORGANIZATION_NAME} people` });
const other = await createOrganization(db);

describe('the demo organization', () => {
  it('is not found until the demo data and its demo person are here', async () => {
    const lookalike = await createOrganization(db, { name: ORGANIZATION_NAME });
    await createUser(db, lookalike.id, { email: 'someone@example.com' });
    expect(await demoIdp.findDemoOrganization()).toBeNull();

    await createUser(db, lookalike.id, { email: DEMO_EMAIL, name: 'Dana Demo' });
    expect(await demoIdp.findDemoOrganization()).toBe(lookalike.id);
  });
});

describe('the people the demo provider signs in', () => {
  it('finds an active person of the demo organization, with their e-mail and name', async () => {
    const person = await createUser(db, demo.id, { name: 'Ada Active' });
    expect(await demoIdp.findDemoPerson(demo.id, person.id)).toEqual({
      id: person.id,
      email: person.email,
      name: 'Ada Active',
    });
  });

  it.each(['disabled', 'invited'] as const)('does not find a %s person', async (status) => {
    const person = await createUser(db, demo.id, { status });
    expect(await demoIdp.findDemoPerson(demo.id, person.id)).toBeNull();
  });

  it('does not find a person of another organization, nor an unknown id', async () => {
    const outsider = await createUser(db, other.id);
    expect(await demoIdp.findDemoPerson(demo.id, outsider.id)).toBeNull();
    expect(await demoIdp.findDemoPerson(demo.id, 'no-such-person')).toBeNull();
  });

  it('stops finding a person once they are disabled', async () => {
    const person = await createUser(db, demo.id);
    expect(await demoIdp.findDemoPerson(demo.id, person.id)).not.toBeNull();
    await db.update(users).set({ status: 'disabled' }).where(eq(users.id, person.id));
    expect(await demoIdp.findDemoPerson(demo.id, person.id)).toBeNull();
  });
});
