import type { CollectionCan, CollectionShareItem, Menu, MenuItem } from '@signpost/contract';
import type { ShownLink } from '../lib/menu/menu-types';
import { SHARED_ROOT_ID } from '../lib/constants';
import {
  MY_SPACE,
  NO_LINK,
  NOTHING,
  OWN_LINK,
  READ_LINK,
  READ_ONLY,
  RUN_LINK,
  RUNS,
} from './can-fixture';

let counter = 0;
/** A link with its flags, as the server may send it and as the app shows it. */
export function makeLink(overrides: Partial<ShownLink> = {}): ShownLink {
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
    can: OWN_LINK,
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
    /** What the person may do with the team's collection (a plain member's by default). */
    teamCan?: CollectionCan;
    /** Whether the person runs the team (its editor). */
    teamEditor?: boolean;
    admin?: boolean;
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
    can: {
      administer: Boolean(overrides.teamEditor || overrides.admin),
      organization: Boolean(overrides.admin),
    },
    spaces: [
      {
        id: 'personal',
        name: 'My Space',
        type: 'personal',
        can: { addCollection: false },
        collections: [
          {
            type: 'collection',
            id: 'my',
            name: 'My Space',
            description: '',
            color: null,
            can: MY_SPACE,
            linkCan: OWN_LINK,
            items: overrides.myItems ?? [],
          },
          {
            type: 'shared-root',
            id: SHARED_ROOT_ID,
            name: 'Shared with me',
            description: '',
            color: null,
            can: NOTHING,
            linkCan: NO_LINK,
            items: overrides.sharedItems ?? [],
          },
        ],
      },
      {
        id: 'team-1',
        name: 'Engineering',
        type: 'team',
        buddy: null,
        can: { addCollection: Boolean(overrides.teamEditor) },
        collections: [
          {
            type: 'collection',
            id: 'team-tools',
            name: 'Tools',
            description: '',
            color: null,
            can: overrides.teamCan ?? READ_ONLY,
            linkCan: overrides.teamEditor ? RUN_LINK : READ_LINK,
            items: overrides.teamItems ?? [],
          },
        ],
      },
      {
        id: 'org-space',
        name: 'Acme Corp',
        type: 'organization',
        can: { addCollection: Boolean(overrides.admin) },
        collections: [
          {
            type: 'collection',
            id: 'org-hr',
            name: 'HR',
            description: '',
            color: null,
            can: overrides.admin ? RUNS : READ_ONLY,
            linkCan: overrides.admin ? RUN_LINK : READ_LINK,
            items: [
              makeLink({
                name: 'Payroll',
                url: 'https://payroll.example.com',
                appName: 'Workday',
                can: overrides.admin ? RUN_LINK : READ_LINK,
              }),
            ],
          },
        ],
      },
    ],
  };
}
