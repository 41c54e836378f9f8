import { Type, type Static } from 'typebox';
import { Description, Id, Name, Person, Url } from './common.ts';
import { multiline } from './text.ts';
import { AdminPageLimit } from './admin-teams.ts';

const exact = { additionalProperties: false } as const;

export const SUGGESTION_STATUSES = ['open', 'accepted', 'declined'] as const;
export type SuggestionStatus = (typeof SUGGESTION_STATUSES)[number];
const Status = Type.Union([
  Type.Literal('open'),
  Type.Literal('accepted'),
  Type.Literal('declined'),
]);

export const SUGGESTION_REASON_MAX = 500;

/** Where a suggestion was made: a collection of a team or of the organization. */
export const SuggestionPlace = Type.Object(
  {
    collection: Type.Object({ id: Type.String(), name: Type.String() }, exact),
    space: Type.Object(
      {
        type: Type.Union([Type.Literal('team'), Type.Literal('organization')]),
        id: Type.String(),
        name: Type.String(),
      },
      exact,
    ),
  },
  exact,
);
export type SuggestionPlace = Static<typeof SuggestionPlace>;

const suggestionFields = {
  id: Type.String(),
  name: Type.String(),
  url: Type.String(),
  description: Type.String(),
  status: Status,
  reason: Type.String({ description: 'Why it was declined; empty when no reason was given' }),
  createdAt: Type.String({ format: 'date-time' }),
  decidedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  linkId: Type.Union([Type.String(), Type.Null()], {
    description: 'The link an accepted suggestion became (null once that link is gone)',
  }),
  ...SuggestionPlace.properties,
};

/** A suggestion as the people who run its space see it. */
export const AdminSuggestion = Type.Object(
  {
    ...suggestionFields,
    suggestedBy: Type.Union([Person, Type.Null()]),
    decidedBy: Type.Union([Person, Type.Null()]),
  },
  exact,
);
export type AdminSuggestion = Static<typeof AdminSuggestion>;

/** `GET /api/admin/suggestions`: newest first; keyset: `after` a suggestion id. */
export const AdminSuggestionsQuery = Type.Object(
  {
    status: Type.Optional(Status),
    spaceId: Type.Optional(Id),
    limit: Type.Optional(AdminPageLimit),
    after: Type.Optional(Id),
  },
  exact,
);
export type AdminSuggestionsQuery = Static<typeof AdminSuggestionsQuery>;

export const AdminSuggestionsResponse = Type.Object(
  { items: Type.Array(AdminSuggestion), next: Type.Union([Type.String(), Type.Null()]) },
  exact,
);
export type AdminSuggestionsResponse = Static<typeof AdminSuggestionsResponse>;

/** `POST /api/admin/suggestions/{id}/accept`: optionally edited before it is added. */
export const AcceptSuggestionBody = Type.Object(
  {
    name: Type.Optional(Name),
    url: Type.Optional(Url),
    description: Type.Optional(Description),
  },
  exact,
);
export type AcceptSuggestionBody = Static<typeof AcceptSuggestionBody>;

/** `POST /api/admin/suggestions/{id}/decline`. */
export const DeclineSuggestionBody = Type.Object(
  { reason: Type.Optional(Type.String({ maxLength: SUGGESTION_REASON_MAX, ...multiline })) },
  exact,
);
export type DeclineSuggestionBody = Static<typeof DeclineSuggestionBody>;

/** A suggestion as the person who made it sees it. */
export const OwnSuggestion = Type.Object(suggestionFields, exact);
export type OwnSuggestion = Static<typeof OwnSuggestion>;

/** `GET /api/consumer/suggestions`: one's own, newest first. */
export const OwnSuggestionsQuery = Type.Object(
  { limit: Type.Optional(AdminPageLimit), after: Type.Optional(Id) },
  exact,
);
export type OwnSuggestionsQuery = Static<typeof OwnSuggestionsQuery>;

export const OwnSuggestionsResponse = Type.Object(
  { items: Type.Array(OwnSuggestion), next: Type.Union([Type.String(), Type.Null()]) },
  exact,
);
export type OwnSuggestionsResponse = Static<typeof OwnSuggestionsResponse>;
