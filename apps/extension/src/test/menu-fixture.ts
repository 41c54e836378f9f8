import type { CollectionCan, LinkCan, Menu, MenuItem } from '@signpost/contract';

/** What a person may do, by their part: they keep it, they may add, they may only suggest. */
export const OWNS: CollectionCan = {
  edit: true,
  delete: true,
  move: true,
  reorder: true,
  addLink: true,
  addCollection: true,
  share: true,
  leave: false,
  suggest: false,
};
export const MEMBER: CollectionCan = {
  ...OWNS,
  edit: false,
  delete: false,
  move: false,
  reorder: false,
  addLink: false,
  addCollection: false,
  share: false,
  suggest: true,
};
export const SHARE_MEMBER: CollectionCan = {
  ...MEMBER,
  addLink: true,
  suggest: false,
  leave: true,
};
export const NOTHING: CollectionCan = { ...MEMBER, suggest: false };

const LINK_CAN: LinkCan = { edit: true, delete: true, move: true, favorite: false };

export const link = (id: string, name: string, url: string, description = ''): MenuItem => ({
  type: 'link',
  id,
  name,
  url,
  description,
  icon: null,
  appName: null,
  createdBy: null,
});

export const favorite = (id: string, linkId: string, name: string, url: string): MenuItem => ({
  type: 'link-favorite',
  id,
  linkId,
  name,
  url,
  description: '',
  icon: null,
  appName: null,
  can: { ...LINK_CAN, edit: false },
});

export const collection = (
  id: string,
  name: string,
  can: CollectionCan,
  items: MenuItem[] = [],
): MenuItem & { type: 'collection' } => ({
  type: 'collection',
  id,
  name,
  description: '',
  color: null,
  can,
  linkCan: LINK_CAN,
  items,
});

/**
 * Ada's menu: My Space with a favorite, Reading list › Talks and a share of her own; a share
 * of Ben's she may add to; Engineering, where she is a member (suggest only) with one
 * collection she may neither add to nor suggest to; Design, where she is an editor; and the
 * organization, Acme.
 */
export function makeMenu(): Menu {
  return {
    profile: { id: 'ada', name: 'Ada Lovelace', email: 'ada@acme.example' },
    organization: {
      id: 'acme',
      name: 'Acme',
      feedbackUrl: null,
      consentUrl: null,
      intros: { personal: '', team: '', organization: '' },
    },
    can: { administer: false, organization: false },
    spaces: [
      {
        id: 'ada',
        name: 'My Space',
        type: 'personal',
        can: { addCollection: false },
        collections: [
          {
            ...collection('my', 'My Space', { ...OWNS, share: false }, [
              link('l-notes', 'Standup notes', 'https://docs.acme.example/standup'),
              favorite('f-wiki', 'l-wiki', 'Team wiki', 'https://wiki.acme.example/'),
              collection('reading', 'Reading list', OWNS, [
                link('l-mdn', 'MDN Web Docs', 'https://developer.mozilla.org/', 'The web platform'),
                collection('talks', 'Talks', OWNS, [
                  link('l-loop', 'Strange Loop', 'https://www.youtube.com/@StrangeLoopConf'),
                ]),
              ]),
              {
                ...collection('launch', 'Launch checklist', OWNS),
                type: 'collection-share',
                shareId: 's-launch',
                shareCreatorId: 'ada',
                members: [],
                teams: [],
              },
            ]),
          },
          {
            type: 'shared-root',
            id: 'shared-root',
            name: 'Shared collections',
            description: '',
            color: null,
            can: NOTHING,
            linkCan: LINK_CAN,
            items: [
              {
                ...collection('design-system', 'Design system', SHARE_MEMBER, [
                  link('l-storybook', 'Storybook', 'https://storybook.acme.example/'),
                ]),
                type: 'collection-share',
                shareId: 's-ds',
                shareCreatorId: 'ben',
                members: [],
                teams: [],
              },
            ],
          },
        ],
      },
      {
        id: 'engineering',
        name: 'Engineering',
        type: 'team',
        buddy: null,
        can: { addCollection: false },
        collections: [
          collection('code', 'Code & delivery', MEMBER, [
            link('l-wiki', 'Team wiki', 'https://wiki.acme.example/', 'How we work'),
            collection('runbooks', 'Runbooks', MEMBER),
          ]),
          collection('archive', 'Archive', NOTHING),
        ],
      },
      {
        id: 'design',
        name: 'Design',
        type: 'team',
        buddy: null,
        can: { addCollection: true },
        collections: [
          collection('tools', 'Design tools', { ...OWNS, share: false, suggest: true }),
        ],
      },
      {
        id: 'acme',
        name: 'Acme',
        type: 'organization',
        can: { addCollection: false },
        collections: [
          collection('essentials', 'Company essentials', MEMBER, [
            link('l-hr', 'HR portal', 'https://hr.acme.example/', 'Leave and payslips'),
          ]),
        ],
      },
    ],
  };
}
