import type { CollectionShareItem, LinkItem, Menu, MenuItem } from '@signpost/contract';
import { SHARED_ROOT_ID } from '../lib/constants';

let counter = 0;
export function makeLink(overrides: Partial<LinkItem> = {}): LinkItem {
  counter += 1;
  return {
    type: 'link',
    id: `link-${counter}`,
    name: `Link ${counter}`,
    description: '',
    url: `https://example.com/${counter}`,
    icon: null,
    appName: null,
    createdBy: null,
    ...overrides,
  };
}

export const PROFILE = { id: 'me', name: 'Ada Lovelace', email: 'ada@example.com' };

/** A menu with a personal space (My Space + shared-root), a team and the organization. */
export function makeMenu(
  overrides: {
    myItems?: MenuItem[];
    sharedItems?: CollectionShareItem[];
    teamItems?: MenuItem[];
  } = {},
): Menu {
  return {
    profile: PROFILE,
    organization: {
      id: 'org',
      name: 'Acme Corp',
      feedbackUrl: null,
      consentUrl: null,
      intros: { personal: '', team: '', organization: '' },
    },
    spaces: [
      {
        id: 'personal',
        name: 'My Space',
        type: 'personal',
        collections: [
          {
            type: 'collection',
            id: 'my',
            name: 'My Space',
            description: '',
            color: null,
            items: overrides.myItems ?? [],
          },
          {
            type: 'shared-root',
            id: SHARED_ROOT_ID,
            name: 'Shared with me',
            description: '',
            color: null,
            items: overrides.sharedItems ?? [],
          },
        ],
      },
      {
        id: 'team-1',
        name: 'Engineering',
        type: 'team',
        buddy: null,
        collections: [
          {
            type: 'collection',
            id: 'team-tools',
            name: 'Tools',
            description: '',
            color: null,
            items: overrides.teamItems ?? [],
          },
        ],
      },
      {
        id: 'org-space',
        name: 'Acme Corp',
        type: 'organization',
        collections: [
          {
            type: 'collection',
            id: 'org-hr',
            name: 'HR',
            description: '',
            color: null,
            items: [
              makeLink({ name: 'Payroll', url: 'https://payroll.example.com', appName: 'Workday' }),
            ],
          },
        ],
      },
    ],
  };
}
