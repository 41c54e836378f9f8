import type { AttentionLink } from '@signpost/contract';

/** This year's 3 November, so that a "since" reads "Nov 3" without a year. */
export const NOV_3 = `${new Date().getFullYear()}-11-03T10:00:00.000Z`;

/** A link that needs attention, as `GET /api/consumer/links/attention` lists it. */
export function attentionLink(overrides: Partial<AttentionLink> = {}): AttentionLink {
  return {
    linkId: 'wiki',
    name: 'Wiki',
    url: 'https://wiki.example.com/',
    collectionId: 'my',
    collectionName: 'My Space',
    space: 'personal',
    teamName: null,
    state: 'broken',
    movedTo: null,
    status: 404,
    failureKind: null,
    since: NOV_3,
    checkedAt: NOV_3,
    canChange: true,
    ...overrides,
  };
}
