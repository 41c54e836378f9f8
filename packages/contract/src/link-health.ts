import { Type, type Static } from 'typebox';

const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(
  schema: T,
  description: string,
) => Type.Union([schema, Type.Null()], { description });

/**
 * A link that needs someone (decision 0069): broken (two checks in a row failed) or moved (its
 * site answers with a permanent redirect), as the people who may fix it see it — and the
 * members of a share, who see its marks with nothing to do (`canChange` false).
 */
export const AttentionLink = Type.Object(
  {
    linkId: Type.String(),
    name: Type.String(),
    url: Type.String(),
    collectionId: Type.String(),
    collectionName: Type.String(),
    space: Type.Union([
      Type.Literal('personal'),
      Type.Literal('team'),
      Type.Literal('organization'),
    ]),
    teamName: nullable(Type.String(), "The team's name for a team link"),
    state: Type.Union([Type.Literal('broken'), Type.Literal('moved')]),
    movedTo: nullable(Type.String(), 'Where a moved link now leads: the address to offer'),
    status: nullable(Type.Integer(), "The site's last HTTP status, when it answered"),
    failureKind: nullable(
      Type.String(),
      'Why the last check failed: dns, timeout, network, too-many-redirects, or null for a status',
    ),
    since: Type.String({ format: 'date-time', description: 'Since when it is broken or moved' }),
    checkedAt: nullable(Type.String({ format: 'date-time' }), 'When it was last checked'),
    canChange: Type.Boolean({ description: 'The person may change the link, so fix it' }),
  },
  { additionalProperties: false },
);
export type AttentionLink = Static<typeof AttentionLink>;

export const AttentionResponse = Type.Object(
  { items: Type.Array(AttentionLink) },
  { additionalProperties: false },
);
export type AttentionResponse = Static<typeof AttentionResponse>;

/** A broken link of a team or organization space, in the administration console. */
export const BrokenLink = Type.Object(
  {
    linkId: Type.String(),
    name: Type.String(),
    url: Type.String(),
    collectionId: Type.String(),
    collectionName: Type.String(),
    space: Type.Union([Type.Literal('team'), Type.Literal('organization')]),
    spaceName: Type.String({ description: "The team's name, or the organization's" }),
    teamId: nullable(Type.String(), 'The team of a team link'),
    status: nullable(Type.Integer(), "The site's last HTTP status, when it answered"),
    failureKind: nullable(Type.String(), 'dns, timeout, network, too-many-redirects, or null'),
    brokenSince: Type.String({ format: 'date-time' }),
    checkedAt: nullable(Type.String({ format: 'date-time' }), 'When it was last checked'),
  },
  { additionalProperties: false },
);
export type BrokenLink = Static<typeof BrokenLink>;

export const BrokenLinksResponse = Type.Object(
  { items: Type.Array(BrokenLink) },
  { additionalProperties: false },
);
export type BrokenLinksResponse = Static<typeof BrokenLinksResponse>;
