import { Type, type Static } from 'typebox';
import { Person, ShareTeam } from './common.ts';
import { SHARED_ROOT_ID } from './markers.ts';

export const SPACE_TYPES = ['personal', 'team', 'organization'] as const;
export type SpaceType = (typeof SPACE_TYPES)[number];

/** The id of the personal space's collection of shares one takes part in. */
export { SHARED_ROOT_ID };

// The menu is built field by field on the server and sent with JSON.stringify, so nothing
// strips a field the schema does not name: the schemas list every field, and no other.
const exact = { additionalProperties: false } as const;

const flag = (description: string) => Type.Boolean({ description });

/**
 * What the signed-in person may do with a collection, decided by the server's access layer
 * (decision 0008). The web app shows actions from these flags and decides none of its own.
 */
export const CollectionCan = Type.Object(
  {
    edit: flag('Change its name, description and colour'),
    delete: flag('Delete it and everything inside it'),
    move: flag('Move it into another collection of the same space'),
    reorder: flag('Put its items in another order (drag and drop inside it)'),
    addLink: flag('Add a link to it'),
    addCollection: flag('Nest a new collection in it'),
    share: flag('Share it, or add people to its share (its owner)'),
    leave: flag('Leave its share (a member who does not own it)'),
    suggest: flag('Suggest a link to the people who run its space'),
  },
  { ...exact, description: 'What the signed-in person may do with this collection' },
);
export type CollectionCan = Static<typeof CollectionCan>;

/** What the signed-in person may do with a link or a favorite. */
export const LinkCan = Type.Object(
  {
    edit: flag('Change its name, description and address'),
    delete: flag('Delete it (a favorite: remove it)'),
    move: flag("Move it to another collection of the same space (a favorite: of one's own)"),
    favorite: flag('Add it to My Space as a favorite (team and organization links)'),
  },
  { ...exact, description: 'What the signed-in person may do with this item' },
);
export type LinkCan = Static<typeof LinkCan>;

/** What the signed-in person may do at the top level of a space. */
export const SpaceCan = Type.Object(
  {
    addCollection: flag('Add a top-level collection to the space (the people who run it)'),
  },
  exact,
);
export type SpaceCan = Static<typeof SpaceCan>;

/** What the signed-in person may administer. */
export const MenuCan = Type.Object(
  {
    administer: flag(
      'May open the administration console: an organization administrator or an editor of some team',
    ),
    organization: flag('Administers the whole organization (an organization administrator)'),
  },
  exact,
);
export type MenuCan = Static<typeof MenuCan>;

const linkFields = {
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  url: Type.String(),
  icon: Type.Union([Type.String(), Type.Null()]),
  appName: Type.Union([Type.String(), Type.Null()]),
};

/** A link in a collection. */
export const LinkItem = Type.Object(
  {
    type: Type.Literal('link'),
    ...linkFields,
    can: Type.Optional(
      Type.Object(LinkCan.properties, {
        ...exact,
        description:
          "What the signed-in person may do with this link, sent only where it differs from its collection's `linkCan`",
      }),
    ),
    createdBy: Type.Union([Type.String(), Type.Null()], {
      description: 'Who added the link (null when that person is gone)',
    }),
  },
  exact,
);
export type LinkItem = Static<typeof LinkItem>;

/** A favorite: a person's pointer to a team or organization link, shown with that link's fields. */
export const FavoriteItem = Type.Object(
  {
    type: Type.Literal('link-favorite'),
    ...linkFields,
    id: Type.String({ description: 'The favorite id (for delete and move)' }),
    linkId: Type.String({ description: 'The id of the original link' }),
    can: LinkCan,
  },
  exact,
);
export type FavoriteItem = Static<typeof FavoriteItem>;

const collectionFields = {
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  color: Type.Union([Type.String(), Type.Null()]),
  can: CollectionCan,
  linkCan: Type.Object(LinkCan.properties, {
    ...exact,
    description:
      'What the signed-in person may do with the links directly in this collection, unless a link carries its own `can`',
  }),
};

/**
 * The menu as one module of schemas: items nest without limit, so a collection's items refer
 * to MenuItem, which refers back to the collections. Each entry becomes a self-contained
 * schema (`$defs` plus `$ref`), and `Static` of it is the recursive TypeScript type.
 * Every collection carries a `type` tag (decision 0005): `collection` or `collection-share`
 * among items, `collection` or `shared-root` at the top of a space.
 */
const MenuModule = Type.Module({
  CollectionItem: Type.Object(
    {
      type: Type.Literal('collection'),
      ...collectionFields,
      items: Type.Array(Type.Ref('MenuItem')),
    },
    exact,
  ),
  CollectionShareItem: Type.Object(
    {
      type: Type.Literal('collection-share'),
      ...collectionFields,
      shareId: Type.String(),
      shareCreatorId: Type.String({ description: 'Who shared it: the owner' }),
      members: Type.Array(Person, {
        description:
          'The people the share names, the owner included; members through its teams are not listed one by one',
      }),
      teams: Type.Array(ShareTeam, {
        description: 'The teams it is shared with: their members see it while they are in them',
      }),
      items: Type.Array(Type.Ref('MenuItem')),
    },
    exact,
  ),
  MenuItem: Type.Union([
    LinkItem,
    FavoriteItem,
    Type.Ref('CollectionItem'),
    Type.Ref('CollectionShareItem'),
  ]),
  SharedRootCollection: Type.Object(
    {
      type: Type.Literal('shared-root'),
      ...collectionFields,
      items: Type.Array(Type.Ref('CollectionShareItem')),
    },
    {
      ...exact,
      description: `The personal space's collection (id \`${SHARED_ROOT_ID}\`) of the shares of others one takes part in; one's own shares stand where one keeps them, in My Space`,
    },
  ),
  Collection: Type.Union([Type.Ref('CollectionItem'), Type.Ref('SharedRootCollection')], {
    description:
      "A space's top-level collection: a plain one (My Space, a team's, the organization's) " +
      'or, in the personal space, the shared-root',
  }),
  Space: Type.Object(
    {
      id: Type.String(),
      name: Type.String(),
      type: Type.Union([
        Type.Literal(SPACE_TYPES[0]),
        Type.Literal(SPACE_TYPES[1]),
        Type.Literal(SPACE_TYPES[2]),
      ]),
      buddy: Type.Optional(
        Type.Union([Person, Type.Null()], {
          description: 'Team spaces name their buddy, the support contact',
        }),
      ),
      collections: Type.Array(Type.Ref('Collection')),
      can: SpaceCan,
      openSuggestions: Type.Optional(
        Type.Integer({
          minimum: 0,
          description:
            'For the people who run the space only: the suggested links waiting for a decision in its collections',
        }),
      ),
    },
    exact,
  ),
  Menu: Type.Object(
    {
      profile: Person,
      organization: Type.Object(
        {
          id: Type.String(),
          name: Type.String(),
          feedbackUrl: Type.Union([Type.String(), Type.Null()], {
            description: "The footer's feedback form; null for the built-in one",
          }),
          consentUrl: Type.Union([Type.String(), Type.Null()], {
            description: "The footer's consent preferences; null for the built-in dialog",
          }),
          intros: Type.Object(
            { personal: Type.String(), team: Type.String(), organization: Type.String() },
            { ...exact, description: "The spaces' intro texts; empty for the built-in text" },
          ),
        },
        exact,
      ),
      spaces: Type.Array(Type.Ref('Space')),
      can: MenuCan,
    },
    exact,
  ),
});

/** A collection nested in another. */
export const CollectionItem = MenuModule.CollectionItem;
export type CollectionItem = Static<typeof CollectionItem>;

/** A shared collection, as its owner and its members see it in shared-root. */
export const CollectionShareItem = MenuModule.CollectionShareItem;
export type CollectionShareItem = Static<typeof CollectionShareItem>;

export const MenuItem = MenuModule.MenuItem;
export type MenuItem = Static<typeof MenuItem>;

/** The personal space's shared-root. */
export const SharedRootCollection = MenuModule.SharedRootCollection;
export type SharedRootCollection = Static<typeof SharedRootCollection>;

/** A top-level collection of a space. */
export const Collection = MenuModule.Collection;
export type Collection = Static<typeof Collection>;

export const Space = MenuModule.Space;
export type Space = Static<typeof Space>;

export const Menu = MenuModule.Menu;
export type Menu = Static<typeof Menu>;

/** `GET /api/consumer/menu`. */
export const MenuResponse = Menu;
