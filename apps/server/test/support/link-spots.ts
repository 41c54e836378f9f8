// Links in every relation to the cast of the collection tests.
import type { Database } from '../../src/db/client.ts';
import { newId } from '../../src/lib/ids.ts';
import { createLink } from '../factories.ts';
import { createSpaces, type Cast } from './cast.ts';

/** Fresh collections (see createSpaces) and one link of each kind in them. */
export async function createLinkSpots(db: Database, cast: Cast) {
  const spaces = await createSpaces(db, cast);
  const links = {
    own: await createLink(db, spaces.own, { createdBy: cast.owner.id }),
    inRoot: await createLink(db, spaces.root, { createdBy: cast.owner.id }),
    /** In the owner's collection, added by nobody known (say, an imported link). */
    ownUnattributed: await createLink(db, spaces.own, { createdBy: null }),
    ownerInShare: await createLink(db, spaces.shared, { createdBy: cast.owner.id }),
    memberInShare: await createLink(db, spaces.shared, { createdBy: cast.member.id }),
    memberInSharedSub: await createLink(db, spaces.sharedSub, { createdBy: cast.member.id }),
    /** Added to the share by someone who is no longer a member of it. */
    formerMemberInShare: await createLink(db, spaces.shared, { createdBy: cast.stranger.id }),
    strangers: await createLink(db, spaces.strangers, { createdBy: cast.stranger.id }),
    outsiders: await createLink(db, spaces.outsiders, { createdBy: cast.outsider.id }),
    team: await createLink(db, spaces.team, { createdBy: cast.teamEditor.id }),
    otherTeam: await createLink(db, spaces.otherTeam),
    organization: await createLink(db, spaces.organization, { createdBy: cast.admin.id }),
    otherOrganization: await createLink(db, spaces.otherOrganization),
    unknown: { id: newId(), collectionId: spaces.unknown.id },
  };
  return { spaces, links };
}
export type LinkKind = keyof Awaited<ReturnType<typeof createLinkSpots>>['links'];
