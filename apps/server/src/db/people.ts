import type { Executor } from './client.ts';
import { collections, users, type OrganizationRole, type UserStatus } from './schema/index.ts';
import { newId } from '../lib/ids.ts';

export interface NewPerson {
  organizationId: string;
  name: string;
  email: string;
  role: OrganizationRole;
  status: UserStatus;
  passwordHash: string | null;
}

/**
 * A new person with their own root collection, "My Space": every person has exactly one,
 * however they came (first-run setup, the console, single sign-on). Returns the person's id.
 */
export async function insertPerson(db: Executor, person: NewPerson): Promise<string> {
  const id = newId();
  await db.insert(users).values({ id, ...person });
  await db.insert(collections).values({
    id: newId(),
    organizationId: person.organizationId,
    ownerType: 'user',
    ownerUserId: id,
    isRoot: true,
    name: 'My Space',
    position: 0,
    createdBy: id,
  });
  return id;
}
