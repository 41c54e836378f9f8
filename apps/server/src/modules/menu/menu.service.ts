import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Space } from '@signpost/contract';
import type { Database } from '../../db/client.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import { buildMenuParts, buildTeamSpace } from './menu-tree.ts';
import type { MenuRepository } from './menu.repository.ts';

export interface MenuDeps {
  db: Database;
  menu: MenuRepository;
  /** Bytes of serialized spaces to keep; 0 keeps none. */
  cacheBytes: number;
}

/**
 * Who runs a team's space (decision 0008): an administrator of its organization, or one of
 * its editors. A member who does not run it is refused (403); anyone else, as for every id of
 * a team one is not in, gets 404. `team` is the person's place in it, null for no such team.
 */
function refuseUnlessRuns(
  me: AuthContext,
  teamId: string,
  team: { role: 'member' | 'editor' | null } | null,
): void {
  const missing = `Team ${teamId} was not found`;
  if (!team) throw notFound(missing);
  if (me.role === 'admin') return;
  if (team.role === null) throw notFound(missing);
  if (team.role !== 'editor') {
    throw forbidden("Only the team's editors and the organization's administrators run its space.");
  }
}

/** The versions of a person's scopes, from `signpost_menu_scopes` ("scope=version …"). */
export function parseScopes(scopes: string): Map<string, string> {
  const versions = new Map<string, string>();
  for (const pair of scopes.split(' ')) {
    const at = pair.lastIndexOf('=');
    if (at > 0) versions.set(pair.slice(0, at), pair.slice(at + 1));
  }
  return versions;
}

/** Where a shared space is kept, and whether it was built with a runner's rights. */
export interface SpaceKey {
  key: string;
  /** Built for the team's editors (or an administrator): their flags and open suggestions. */
  runs: boolean;
}

/**
 * The cache keys of the spaces that are the same for everyone with the same rights (decision
 * 0057): a team's space depends on its scope, and for its editors (who alone have `te:`, as
 * do administrators) on their rights and its open suggestions; the organization's on its scope
 * and, for administrators, on theirs and its open suggestions.
 */
export function sharedSpaceKeys(
  me: Pick<AuthContext, 'organizationId' | 'role'>,
  versions: Map<string, string>,
): { teams: Map<string, SpaceKey>; organization: SpaceKey } {
  const teams = new Map<string, SpaceKey>();
  for (const [scope, version] of versions) {
    if (!scope.startsWith('t:')) continue;
    const id = scope.slice(2);
    const editor = versions.get(`te:${id}`);
    teams.set(
      id,
      editor === undefined
        ? { key: `${scope}=${version}`, runs: false }
        : { key: `${scope}=${version} e=${editor}`, runs: true },
    );
  }
  const org = `o:${me.organizationId}`;
  const administrator = me.role === 'admin' ? versions.get(`oa:${me.organizationId}`) : undefined;
  const organization: SpaceKey =
    administrator === undefined
      ? { key: `${org}=${versions.get(org) ?? '0'}`, runs: false }
      : { key: `${org}=${versions.get(org) ?? '0'} a=${administrator}`, runs: true };
  return { teams, organization };
}

/**
 * What a person's menu holds besides the shared spaces, as text: everything before the team
 * spaces (the head and the personal space), their team ids in the menu's order, and what
 * follows the organization's space.
 */
interface PersonalPart {
  before: Buffer;
  teams: string[];
  after: Buffer;
}

const COMMA = Buffer.from(',');

/** UTF-8 bytes of JSON text, encoded once: held answers are sent without encoding again. */
const bytesOf = (json: string) => Buffer.from(json, 'utf8');

/** Personal parts get this share of the shared spaces' bytes, on top of them. */
const PERSONAL_SHARE = 4;

export function createMenuService({ db, menu: repo, cacheBytes }: MenuDeps) {
  // Serialized spaces by scope, version and rights, as UTF-8 bytes, bounded by their size and
  // evicted least recently used first.
  const cache =
    cacheBytes > 0
      ? new LRUCache<string, Buffer>({
          maxSize: cacheBytes,
          sizeCalculation: (json, key) => json.length + 2 * key.length + 64,
        })
      : null;
  // Each person's own part, by person, role and the versions of every scope their menu is
  // built from: the inputs of the ETag, so it is reused exactly while a 304 would be right
  // (a menu asked again without its ETag: a reload, another tab or device). Its own bound,
  // so that people's parts never push out the spaces everyone shares.
  const personal =
    cacheBytes > 0
      ? new LRUCache<string, PersonalPart>({
          maxSize: Math.max(1, Math.floor(cacheBytes / PERSONAL_SHARE)),
          sizeCalculation: (part, key) =>
            part.before.length +
            part.after.length +
            2 * key.length +
            part.teams.reduce((n, id) => n + 2 * id.length + 16, 64),
        })
      : null;

  /** The menu from held text alone, or null when a space it needs is no longer held. */
  const fromHeld = (
    part: PersonalPart,
    keys: ReturnType<typeof sharedSpaceKeys>,
  ): Buffer | null => {
    if (!cache) return null;
    const chunks: Buffer[] = [part.before];
    for (const id of part.teams) {
      const where = keys.teams.get(id);
      const json = where ? cache.get(where.key) : undefined;
      if (json === undefined) return null;
      chunks.push(COMMA, json);
    }
    const organization = cache.get(keys.organization.key);
    if (organization === undefined) return null;
    chunks.push(COMMA, organization, part.after);
    return Buffer.concat(chunks);
  };

  return {
    /**
     * A team's space as its members see it, for the people who run it (decision 0008): an
     * organization administrator, whether they are in the team or not (the console opens it
     * from the team's page), and the team's editors. The flags are those the access layer
     * applies to their writes there. A member who does not run it is refused (403); anyone
     * else, as for every id of a team one is not in, gets 404.
     */
    async teamSpace(me: AuthContext, teamId: string): Promise<Space> {
      const rows = await repo.loadTeamSpace(db, me.organizationId, teamId, me.userId);
      const team = rows.team;
      refuseUnlessRuns(me, teamId, team);
      return buildTeamSpace(me, team!, rows.collections);
    },

    /**
     * Whether the person may follow a team's space in the console (its live updates): as for
     * `teamSpace`, nothing if they run it, 403 or 404 otherwise.
     */
    async assertRunsTeam(me: AuthContext, teamId: string): Promise<void> {
      refuseUnlessRuns(me, teamId, await repo.teamRole(db, me.organizationId, teamId, me.userId));
    },

    /**
     * A weak validator: a digest of the versions of the scopes the person's menu is built
     * from (read with the session, no statement of its own), so it changes with exactly the
     * changes the person can see (decision 0057), and reveals nothing of the others.
     */
    etagOf: (me: AuthContext) => menuEtag(me.menuScopes),

    /**
     * The person's menu as JSON text in UTF-8. Team and organization spaces are serialized
     * once per scope version and rights and kept as bytes: the menu statement leaves out the
     * ones held, and the answer is put together from those bytes, never parsed or encoded
     * again. The keys are the versions the session lookup read in this request; the
     * statement runs after it, so what it returns is at least that new, never older
     * (decision 0057).
     */
    async getMenuJson(me: AuthContext): Promise<Buffer> {
      const keys =
        cache && me.menuScopes !== null ? sharedSpaceKeys(me, parseScopes(me.menuScopes)) : null;
      const personalKey =
        personal && me.menuScopes !== null ? `${me.userId} ${me.role} ${me.menuScopes}` : null;
      if (personal && personalKey && keys) {
        const part = personal.get(personalKey);
        const json = part ? fromHeld(part, keys) : null;
        if (json !== null) return json;
      }
      const held = new Map<string, Buffer>();
      let organizationJson: Buffer | undefined;
      if (cache && keys) {
        for (const [id, { key }] of keys.teams) {
          const json = cache.get(key);
          if (json !== undefined) held.set(id, json);
        }
        organizationJson = cache.get(keys.organization.key);
      }
      const skip = { teams: new Set(held.keys()), organization: organizationJson !== undefined };
      const rows = await repo.load(db, me.organizationId, me.userId, {
        teams: [...skip.teams],
        organization: skip.organization,
      });
      const parts = buildMenuParts(me, rows, skip);
      const admin = me.role === 'admin';
      // Kept only when the rows were read with the rights the key names: a role changed
      // between the session lookup and the statement must not put one person's rights in
      // everyone's space.
      const serialize = (space: Space, where: SpaceKey | undefined, runs: boolean) => {
        const json = bytesOf(JSON.stringify(space));
        if (cache && where !== undefined && where.runs === runs) cache.set(where.key, json);
        return json;
      };
      const editorOf = new Map(rows.teams.map((t) => [t.id, t.role === 'editor' || admin]));
      const spaces: Buffer[] = [];
      for (const team of parts.teams) {
        const json = team.space
          ? serialize(team.space, keys?.teams.get(team.id), editorOf.get(team.id) === true)
          : held.get(team.id);
        // A team the statement listed but the versions did not (it was joined in between):
        // built from the rows, so never missing.
        if (json !== undefined) spaces.push(json);
      }
      spaces.push(
        parts.organization
          ? serialize(
              parts.organization,
              keys?.organization,
              admin && rows.organizationSuggestions !== null,
            )
          : (organizationJson as Buffer),
      );
      const { head } = parts;
      const before = bytesOf(
        `{"profile":${JSON.stringify(head.profile)},` +
          `"organization":${JSON.stringify(head.organization)},` +
          `"spaces":[${JSON.stringify(parts.personal)}`,
      );
      const after = bytesOf(`],"can":${JSON.stringify(head.can)}}`);
      // Kept when every team the statement listed is one the versions named (none joined in
      // between) and as many: the held part then lists exactly the teams of its key.
      const teams = parts.teams.map((team) => team.id);
      if (
        personal &&
        personalKey &&
        keys &&
        teams.length === keys.teams.size &&
        teams.every((id) => keys.teams.has(id))
      ) {
        personal.set(personalKey, { before, teams, after });
      }
      const chunks: Buffer[] = [before];
      for (const json of spaces) chunks.push(COMMA, json);
      chunks.push(after);
      return Buffer.concat(chunks);
    },
  };
}
export type MenuService = ReturnType<typeof createMenuService>;

/** The ETag of a menu built at these scope versions (`signpost_menu_scopes`). */
export function menuEtag(scopes: string | null): string {
  if (scopes === null) {
    throw new Error('the menu ETag needs the scope versions (config.menuScopes)');
  }
  return `W/"m${createHash('sha256').update(scopes).digest('base64url').slice(0, 27)}"`;
}
