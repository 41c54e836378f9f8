import { customType, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { links } from './links.table.ts';
import { organizations } from './organizations.table.ts';

/** Drizzle has no bytea column; PGlite reads one as a Uint8Array, node-postgres as a Buffer. */
const bytea = customType<{ data: Uint8Array }>({ dataType: () => 'bytea' });

/**
 * A site's icon, shared by the organization's links to it; its id is a digest of the
 * organization and the images (0014_site_icons.sql, decision 0068).
 */
export const icons = pgTable('icons', {
  id: text('id').primaryKey(),
  organizationId: text('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** An icon's image at one size; the database holds size, type and length in bounds. */
export const iconImages = pgTable(
  'icon_images',
  {
    iconId: text('icon_id')
      .notNull()
      .references(() => icons.id, { onDelete: 'cascade' }),
    size: integer('size').notNull(),
    contentType: text('content_type').$type<'image/png' | 'image/webp'>().notNull(),
    body: bytea('body').notNull(),
  },
  (t) => [primaryKey({ columns: [t.iconId, t.size] })],
);

/** Where each link's icon stands, kept by triggers on `links` (0014_site_icons.sql). */
export const linkIcons = pgTable('link_icons', {
  linkId: text('link_id')
    .primaryKey()
    .references(() => links.id, { onDelete: 'cascade' }),
  organizationId: text('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  url: text('url').notNull(),
  state: text('state')
    .$type<'pending' | 'found' | 'none' | 'uploaded'>()
    .notNull()
    .default('pending'),
  iconId: text('icon_id').references(() => icons.id, { onDelete: 'set null' }),
  foundAt: text('found_at'),
  failure: text('failure'),
  tries: integer('tries').notNull().default(0),
  checkedAt: timestamp('checked_at', { withTimezone: true }),
  dueAt: timestamp('due_at', { withTimezone: true }).notNull().defaultNow(),
  /** The instance whose round holds the link (0020_instances.sql). */
  takenBy: text('taken_by'),
});
