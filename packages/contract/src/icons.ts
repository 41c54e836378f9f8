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

/** The image types an icon may be uploaded as (decision 0068); what the bytes are is checked. */
export const ICON_UPLOAD_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/x-icon',
  'image/vnd.microsoft.icon',
] as const;

/** The largest uploaded icon, in bytes: a tile's icon needs far less. */
export const ICON_UPLOAD_BYTES = 256 * 1024;
