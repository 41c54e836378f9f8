import { Type, type Static } from 'typebox';

/** Where a link's icon stands (decision 0068), for the people who may change the link. */
export const LinkIconState = Type.Object(
  {
    state: Type.Union(
      [
        Type.Literal('pending'),
        Type.Literal('found'),
        Type.Literal('none'),
        Type.Literal('uploaded'),
      ],
      {
        description:
          'pending: not looked for yet; found: found on the site; none: none found (the letter ' +
          'shows); uploaded: chosen by someone who may change the link',
      },
    ),
    icon: Type.Union([Type.String(), Type.Null()], {
      description: 'The kept icon (as in the menu), or null',
    }),
    foundAt: Type.Union([Type.String(), Type.Null()], {
      description: 'The address the icon was found at (state found)',
    }),
    checkedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When the site was last asked',
    }),
  },
  { additionalProperties: false },
);
export type LinkIconState = Static<typeof LinkIconState>;
