// Reads of the rows the collection and link calls can write, to compare before and after.
import { asc, eq } from 'drizzle-orm';
import type { Database } from '../../src/db/client.ts';
import {
  collections,
  collectionShares,
  favorites,
  links,
  linkSuggestions,
  shareMembers,
  shareOptOuts,
  shareTeams,
} from '../../src/db/schema/index.ts';

/** Every row these calls may write, to assert that a refused request changed nothing. */
export async function snapshot(db: Database) {
  return {
    collections: await db.select().from(collections).orderBy(asc(collections.id)),
    links: await db.select().from(links).orderBy(asc(links.id)),
    favorites: await db.select().from(favorites).orderBy(asc(favorites.id)),
    shares: await db.select().from(collectionShares).orderBy(asc(collectionShares.id)),
    members: await db
      .select()
      .from(shareMembers)
      .orderBy(asc(shareMembers.shareId), asc(shareMembers.userId)),
    shareTeams: await db
      .select()
      .from(shareTeams)
      .orderBy(asc(shareTeams.shareId), asc(shareTeams.teamId)),
    optOuts: await db
      .select()
      .from(shareOptOuts)
      .orderBy(asc(shareOptOuts.shareId), asc(shareOptOuts.userId)),
    suggestions: await db.select().from(linkSuggestions).orderBy(asc(linkSuggestions.id)),
  };
}

export async function collectionRow(db: Database, id: string) {
  const [row] = await db.select().from(collections).where(eq(collections.id, id));
  return row;
}

export async function linkRow(db: Database, id: string) {
  const [row] = await db.select().from(links).where(eq(links.id, id));
  return row;
}
