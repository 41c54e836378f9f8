// Rows of a data set, built in memory as column arrays: one BulkTable per table.
import { createHash } from 'node:crypto';
import { BulkTable } from './bulk.ts';
import { Prng } from './prng.ts';
import { APPS, NOUNS, TOPICS } from './words.ts';

const TABLES = {
  organizations: [
    ['id', 'text'],
    ['name', 'text'],
  ],
  users: [
    ['id', 'text'],
    ['organization_id', 'text'],
    ['name', 'text'],
    ['email', 'text'],
    ['password_hash', 'text'],
    ['role', 'text'],
  ],
  teams: [
    ['id', 'text'],
    ['organization_id', 'text'],
    ['name', 'text'],
    ['buddy_id', 'text'],
  ],
  team_memberships: [
    ['team_id', 'text'],
    ['user_id', 'text'],
    ['organization_id', 'text'],
    ['role', 'text'],
  ],
  collections: [
    ['id', 'text'],
    ['organization_id', 'text'],
    ['owner_type', 'text'],
    ['owner_user_id', 'text'],
    ['owner_team_id', 'text'],
    ['parent_id', 'text'],
    ['is_root', 'bool'],
    ['name', 'text'],
    ['description', 'text'],
    ['position', 'int'],
    ['created_by', 'text'],
  ],
  links: [
    ['id', 'text'],
    ['organization_id', 'text'],
    ['collection_id', 'text'],
    ['name', 'text'],
    ['description', 'text'],
    ['url', 'text'],
    ['icon', 'text'],
    ['app_name', 'text'],
    ['position', 'int'],
    ['created_by', 'text'],
  ],
  favorites: [
    ['id', 'text'],
    ['organization_id', 'text'],
    ['user_id', 'text'],
    ['link_id', 'text'],
    ['collection_id', 'text'],
    ['position', 'int'],
  ],
  collection_shares: [
    ['id', 'text'],
    ['organization_id', 'text'],
    ['collection_id', 'text'],
    ['created_by', 'text'],
  ],
  share_members: [
    ['share_id', 'text'],
    ['user_id', 'text'],
    ['organization_id', 'text'],
  ],
} as const;

export type Owner =
  { type: 'user'; userId: string } | { type: 'team'; teamId: string } | { type: 'organization' };

/** Splits `total` into `parts` counts that differ by at most one. */
const spread = (total: number, parts: number) =>
  Array.from({ length: parts }, (_, i) => Math.floor(total / parts) + (i < total % parts ? 1 : 0));

/** Builds every row of a data set in memory; `write` then inserts them table by table. */
export class Builder {
  readonly rng: Prng;
  readonly t = Object.fromEntries(
    Object.entries(TABLES).map(([name, columns]) => [name, new BulkTable(name, columns)]),
  ) as Record<keyof typeof TABLES, BulkTable>;
  private readonly positions = new Map<string, number>();

  constructor(
    readonly organizationId: string,
    seed: number,
  ) {
    this.rng = new Prng(seed);
  }

  position(key: string): number {
    const p = this.positions.get(key) ?? 0;
    this.positions.set(key, p + 1);
    return p;
  }

  collection(owner: Owner, parentId: string | null, name: string, createdBy: string | null) {
    const id = this.rng.id();
    const ownerKey =
      owner.type === 'user' ? owner.userId : owner.type === 'team' ? owner.teamId : 'org';
    this.t.collections.add(
      id,
      this.organizationId,
      owner.type,
      owner.type === 'user' ? owner.userId : null,
      owner.type === 'team' ? owner.teamId : null,
      parentId,
      false,
      name,
      `${name}: what the team keeps here`,
      this.position(parentId ?? `top:${ownerKey}`),
      createdBy,
    );
    return id;
  }

  link(collectionId: string, createdBy: string | null): string {
    const id = this.rng.id();
    const [app, domain] = this.rng.pick(APPS);
    const topic = this.rng.pick(TOPICS);
    const noun = this.rng.pick(NOUNS);
    const n = this.rng.int(10_000);
    this.t.links.add(
      id,
      this.organizationId,
      collectionId,
      `${topic} ${noun}`,
      `The ${topic.toLowerCase()} ${noun} in ${app}`,
      `https://${domain}/${topic.toLowerCase()}-${noun}-${n}`,
      this.rng.int(4) === 0 ? null : this.iconOf(domain),
      app,
      this.position(collectionId),
      createdBy,
    );
    return id;
  }

  /**
   * The icon a link of `domain` shows: a path of an icon the server keeps (decision 0068;
   * migration 0014 allows nothing else), one per site and organization as the server names
   * them. The images themselves are not written: the menu carries only the path.
   */
  iconOf(domain: string): string {
    const id = createHash('sha256')
      .update(`${this.organizationId}\n${domain}`)
      .digest('base64url')
      .slice(0, 32);
    return `/api/icons/${id}`;
  }

  /** `count` collections holding `links` links; `nested` of them sit inside earlier ones. */
  tree(
    owner: Owner,
    parentId: string | null,
    count: number,
    nested: number,
    links: number,
    createdBy: string | null,
    label: string,
  ): { collections: string[]; links: string[] } {
    const collections: string[] = [];
    const linkIds: string[] = [];
    const perCollection = spread(links, count);
    for (let i = 0; i < count; i += 1) {
      // The last `nested` collections go inside earlier ones, the second of them two deep.
      const nestedIndex = i - (count - nested);
      const parent =
        nestedIndex < 0
          ? parentId
          : (collections[nestedIndex === 1 ? i - 1 : nestedIndex] ?? parentId);
      const id = this.collection(owner, parent, `${label} ${this.rng.pick(TOPICS)}`, createdBy);
      collections.push(id);
      for (let k = 0; k < (perCollection[i] ?? 0); k += 1) linkIds.push(this.link(id, createdBy));
    }
    return { collections, links: linkIds };
  }

  share(collectionId: string, ownerId: string, memberIds: string[]) {
    const id = this.rng.id();
    this.t.collection_shares.add(id, this.organizationId, collectionId, ownerId);
    for (const userId of [ownerId, ...memberIds]) {
      this.t.share_members.add(id, userId, this.organizationId);
    }
  }

  favorite(userId: string, linkId: string, collectionId: string) {
    this.t.favorites.add(
      this.rng.id(),
      this.organizationId,
      userId,
      linkId,
      collectionId,
      this.position(collectionId),
    );
  }
}
