import { Type, type Static } from 'typebox';
import { Color, Description, Id, ID_PATTERN, LIMITS, Name, Person, Url } from './common.ts';

/** `POST /collections/{id}/links`: add a link to a collection. */
export const CreateLinkBody = Type.Object(
  {
    name: Name,
    description: Type.Optional(Description),
    url: Url,
  },
  { additionalProperties: false },
);
export type CreateLinkBody = Static<typeof CreateLinkBody>;

/** `PATCH /links/{id}`: edit a link one owns. */
export const UpdateLinkBody = Type.Object(
  {
    name: Type.Optional(Name),
    description: Type.Optional(Description),
    url: Type.Optional(Url),
    appName: Type.Optional(
      Type.Union([Type.String({ maxLength: LIMITS.name }), Type.Null()], {
        description:
          'The app the link belongs to (links of one app are shown together); empty or null for none',
      }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateLinkBody = Static<typeof UpdateLinkBody>;

/** `POST /collections/`: add a personal collection, nested through parentId. */
export const CreateCollectionBody = Type.Object(
  {
    name: Name,
    description: Type.Optional(Description),
    color: Type.Optional(Color),
    parentId: Type.Optional(
      Type.Union([Id, Type.Null()], {
        description: 'The collection to nest in; omitted or null means My Space',
      }),
    ),
    spaceId: Type.Optional(
      Type.String({
        pattern: ID_PATTERN,
        description:
          "A team's or the organization's id: a top-level collection of that space, for the people who run it (not with parentId)",
      }),
    ),
  },
  { additionalProperties: false },
);
export type CreateCollectionBody = Static<typeof CreateCollectionBody>;

/** `PATCH /collections/{id}`: edit or move a personal collection. */
export const UpdateCollectionBody = Type.Object(
  {
    name: Type.Optional(Name),
    description: Type.Optional(Description),
    color: Type.Optional(Color),
    parentId: Type.Optional(Id),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateCollectionBody = Static<typeof UpdateCollectionBody>;

/** How many items one call may move or delete at once (decision 0075). */
export const BATCH_MAX_ITEMS = 500;

/** Items of one collection chosen together: links, favorites, collections. */
const ChosenItems = Type.Array(
  Type.Object(
    {
      type: Type.Union([
        Type.Literal('link'),
        Type.Literal('link-favorite'),
        Type.Literal('collection'),
      ]),
      id: Id,
    },
    { additionalProperties: false },
  ),
  { minItems: 1, maxItems: BATCH_MAX_ITEMS, uniqueItems: true },
);

/** `POST /items/move`: several items to the end of one collection, in the order given. */
export const MoveItemsBody = Type.Object(
  { items: ChosenItems, collectionId: Id },
  { additionalProperties: false },
);
export type MoveItemsBody = Static<typeof MoveItemsBody>;

/** `POST /items/delete`: several items deleted together, undone together. */
export const DeleteItemsBody = Type.Object({ items: ChosenItems }, { additionalProperties: false });
export type DeleteItemsBody = Static<typeof DeleteItemsBody>;

/** `PUT /collections/{id}/order`: the new order of a collection's items. */
export const OrderItemsBody = Type.Object(
  {
    items: Type.Array(
      Type.Object(
        {
          type: Type.Union([
            Type.Literal('link'),
            Type.Literal('link-favorite'),
            Type.Literal('collection'),
          ]),
          id: Id,
        },
        { additionalProperties: false },
      ),
      { maxItems: LIMITS.orderItems, description: 'Every item of the collection, in order' },
    ),
  },
  { additionalProperties: false },
);
export type OrderItemsBody = Static<typeof OrderItemsBody>;

/** `POST /collections/{id}/favorites`: favorite a team or organization link. */
export const CreateFavoriteBody = Type.Object(
  {
    type: Type.Literal('link'),
    id: Id,
  },
  { additionalProperties: false },
);
export type CreateFavoriteBody = Static<typeof CreateFavoriteBody>;

/** `PUT /links/{id}/collection` and `PUT /favorites/{id}/collection`: move into a collection. */
export const MoveBody = Type.Object(
  {
    collectionId: Id,
  },
  { additionalProperties: false },
);
export type MoveBody = Static<typeof MoveBody>;

/** `POST /collections/{id}/suggestions`: suggest a link to a team or organization collection. */
export const SuggestLinkBody = Type.Object(
  {
    name: Name,
    description: Type.Optional(Description),
    url: Url,
  },
  { additionalProperties: false },
);
export type SuggestLinkBody = Static<typeof SuggestLinkBody>;

const MemberIds = Type.Array(Id, {
  minItems: 1,
  maxItems: LIMITS.membersPerCall,
  uniqueItems: true,
  description: 'People of the same organization',
});

const TeamIds = Type.Array(Id, {
  minItems: 1,
  maxItems: LIMITS.teamsPerCall,
  uniqueItems: true,
  description:
    'Teams of the same organization the owner is in (any team for an administrator): their members see the collection while they are in them',
});

/**
 * `POST /collection-shares/`: share a personal collection with people, teams or both (at
 * least one person or one team).
 */
export const CreateShareBody = Type.Object(
  {
    collectionId: Id,
    memberIds: Type.Array(Id, {
      maxItems: LIMITS.membersPerCall,
      uniqueItems: true,
      description: 'People of the same organization; may be empty when teamIds names a team',
    }),
    teamIds: Type.Optional(TeamIds),
  },
  { additionalProperties: false },
);
export type CreateShareBody = Static<typeof CreateShareBody>;

/** `POST /collection-shares/{shareId}/members`. */
export const AddMembersBody = Type.Object(
  {
    memberIds: MemberIds,
  },
  { additionalProperties: false },
);
export type AddMembersBody = Static<typeof AddMembersBody>;

/** `POST /collection-shares/{shareId}/teams`. */
export const AddShareTeamsBody = Type.Object({ teamIds: TeamIds }, { additionalProperties: false });
export type AddShareTeamsBody = Static<typeof AddShareTeamsBody>;

export const ShareTeamParams = Type.Object(
  { shareId: Id, teamId: Id },
  { additionalProperties: false },
);
export type ShareTeamParams = Static<typeof ShareTeamParams>;

export const ShareParams = Type.Object({ shareId: Id }, { additionalProperties: false });
export type ShareParams = Static<typeof ShareParams>;

export const ShareMemberParams = Type.Object(
  { shareId: Id, memberId: Id },
  { additionalProperties: false },
);
export type ShareMemberParams = Static<typeof ShareMemberParams>;

/** `GET /peers`: people of one's organization to share with. */
export const PeersQuery = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: LIMITS.peersPage.max,
        default: LIMITS.peersPage.default,
      }),
    ),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
    query: Type.Optional(
      Type.String({
        maxLength: LIMITS.peerQuery,
        description: 'Matched case-insensitively on name or e-mail; % _ and \\ are literal',
      }),
    ),
  },
  { additionalProperties: false },
);
export type PeersQuery = Static<typeof PeersQuery>;

export const PeersResponse = Type.Object({ items: Type.Array(Person) });
export type PeersResponse = Static<typeof PeersResponse>;
