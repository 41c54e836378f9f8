import { Type, type Static, type TSchema } from 'typebox';
import { Person } from './common.ts';

export const SPACE_TYPES = ['personal', 'team', 'organization'] as const;
export type SpaceType = (typeof SPACE_TYPES)[number];

/** The id of the personal space's collection that holds the shares a person takes part in. */
export const SHARED_ROOT_ID = 'shared-root';

const linkFields = {
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  url: Type.String(),
  icon: Type.Union([Type.String(), Type.Null()]),
  appName: Type.Union([Type.String(), Type.Null()]),
};

/** A link in a collection. */
export const LinkItem = Type.Object({
  type: Type.Literal('link'),
  ...linkFields,
  createdBy: Type.Union([Type.String(), Type.Null()], {
    description: 'Who added the link (null when that person is gone)',
  }),
});
export type LinkItem = Static<typeof LinkItem>;

/** A favorite: a person's pointer to a team or organization link, shown with that link's fields. */
export const FavoriteItem = Type.Object({
  type: Type.Literal('link-favorite'),
  ...linkFields,
  id: Type.String({ description: 'The favorite id (for delete and move)' }),
  linkId: Type.String({ description: 'The id of the original link' }),
});
export type FavoriteItem = Static<typeof FavoriteItem>;

const collectionFields = {
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  color: Type.Union([Type.String(), Type.Null()]),
};

export interface CollectionItem {
  type: 'collection';
  id: string;
  name: string;
  description: string;
  color: string | null;
  items: MenuItem[];
}
export interface CollectionShareItem {
  type: 'collection-share';
  id: string;
  name: string;
  description: string;
  color: string | null;
  shareId: string;
  shareCreatorId: string;
  members: Person[];
  items: MenuItem[];
}
export type MenuItem = LinkItem | FavoriteItem | CollectionItem | CollectionShareItem;

/**
 * Items nest without limit, so the schema is recursive. The same schema is used for
 * response serialization on the server.
 */
export const MenuItemSchema = Type.Cyclic(
  {
    Item: Type.Union([
      LinkItem,
      FavoriteItem,
      Type.Object({
        type: Type.Literal('collection'),
        ...collectionFields,
        items: Type.Array(Type.Ref('Item')),
      }),
      Type.Object({
        type: Type.Literal('collection-share'),
        ...collectionFields,
        shareId: Type.String(),
        shareCreatorId: Type.String(),
        members: Type.Array(Person),
        items: Type.Array(Type.Ref('Item')),
      }),
    ]),
  },
  'Item',
) as TSchema;

/** A top-level collection of a space. */
export interface Collection {
  id: string;
  name: string;
  description: string;
  color: string | null;
  items: MenuItem[];
  shareId?: string;
  members?: Person[];
}

export interface Space {
  id: string;
  name: string;
  type: SpaceType;
  /** Team spaces name their buddy, the support contact. */
  buddy?: Person | null;
  collections: Collection[];
}

export interface Menu {
  profile: Person;
  organization: { id: string; name: string };
  spaces: Space[];
}

const CollectionSchema = Type.Object({
  ...collectionFields,
  items: Type.Array(MenuItemSchema),
  shareId: Type.Optional(Type.String()),
  members: Type.Optional(Type.Array(Person)),
});

/** `GET /api/consumer/menu`: documented by this schema, typed as Menu. */
export const MenuResponse = Type.Unsafe<Menu>(
  Type.Object({
    profile: Person,
    organization: Type.Object({ id: Type.String(), name: Type.String() }),
    spaces: Type.Array(
      Type.Object({
        id: Type.String(),
        name: Type.String(),
        type: Type.Union(SPACE_TYPES.map((t) => Type.Literal(t))),
        buddy: Type.Optional(Type.Union([Person, Type.Null()])),
        collections: Type.Array(CollectionSchema),
      }),
    ),
  }),
);
