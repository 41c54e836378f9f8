import { Suspense, useCallback, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { CollectionLike, DisplayItem, DisplaySpace, LinkLike } from '../lib/menu/menu-types';
import { useMenu } from '../lib/menu/get-menu';
import { buildSearchIndex } from '../lib/menu/process-menu';
import { useMenuEvents } from '../lib/menu/use-menu-events';
import { takeCollectionToOpen } from '../lib/page-address';
import { lastUsedOf, useLastUsed } from '../lib/recent-lists';
import { SpaceCard } from '../features/spaces/components/space-card';
import { teamSpaceEventsPath, useTeamSpace } from '../features/admin/api/team-space';
import { type ConsoleView as View } from '../features/admin/console-address';
import { AdminConsole } from './lazy-panels';
import { renderPanel, UndoNoticeSlot } from './portal-view';
import { usePanels } from './use-panels';

interface Props {
  view: View;
  /** The person runs nothing: back to the portal, which says why. */
  onRefused: () => void;
}

/**
 * The console's page (decision 0077), for the people the menu says run something; anyone
 * else is sent to the portal. The app gives it the team's space, composed here from the
 * portal's own space card and panels, so that an administrator runs it as its editors do.
 */
export function ConsoleView({ view, onRefused }: Props) {
  const { t } = useTranslation();
  const menu = useMenu();
  const can = menu.data?.can;
  const refused = menu.isSuccess && !can?.administer;
  useEffect(() => {
    if (refused) onRefused();
  }, [refused, onRefused]);
  const teamSpace = useCallback((teamId: string) => <ConsoleTeamSpace teamId={teamId} />, []);

  if (!menu.data || refused) {
    return menu.isError ? (
      <div className="load-error" role="alert">
        <p>{t('portal.loadFailed')}</p>
        <button type="button" className="button" onClick={() => void menu.refetch()}>
          {t('portal.retry')}
        </button>
      </div>
    ) : (
      <p className="loading">{t('portal.loading')}</p>
    );
  }
  return (
    <>
      <Suspense fallback={<p className="loading">{t('portal.loading')}</p>}>
        <AdminConsole admin={Boolean(can?.organization)} view={view} teamSpace={teamSpace} />
      </Suspense>
      <UndoNoticeSlot />
    </>
  );
}

/** A team's space in the console: its card as the portal shows it, and the portal's panels. */
function ConsoleTeamSpace({ teamId }: { teamId: string }) {
  const { t } = useTranslation();
  const menu = useMenu();
  const base = menu.data;
  const space = useTeamSpace(teamId, {
    profile: base?.profile ?? { id: '', name: '', email: '' },
    organization: base?.organization ?? {
      id: '',
      name: '',
      feedbackUrl: null,
      consentUrl: null,
      intros: { personal: '', team: '', organization: '' },
    },
    can: base?.can ?? { administer: false, organization: false },
  });
  const panels = usePanels();
  const { open } = panels;
  const shown = space.data !== undefined;
  // Changes by the team's editors reach this view without a reload, as they reach the
  // portal's spaces (decision 0062): the stream also hears the team while the person runs it.
  useMenuEvents(shown, teamSpaceEventsPath(teamId));
  // Opened to show where a link lives (the console's broken links): its collection.
  useEffect(() => {
    if (!shown) return;
    const id = takeCollectionToOpen();
    if (id) open({ kind: 'collection', id, parentPanelId: null });
  }, [shown, open]);
  const [, pushLastUsed] = useLastUsed();
  // The portal's menu with this space in it: the panels find its collections and links there,
  // a link's details through the search index, which must hold the space's links too.
  const data = useMemo(() => {
    if (!base || !space.data) return undefined;
    const spaces = [...base.spaces.filter((s) => s.id !== teamId), space.data];
    return { ...base, spaces, searchIndex: buildSearchIndex(spaces) };
  }, [base, space.data, teamId]);
  const onOpenLink = useCallback(
    (link: LinkLike) => pushLastUsed(lastUsedOf(link)),
    [pushLastUsed],
  );
  const tileProps = {
    onOpenLink,
    onOpenCollection: (collection: CollectionLike) =>
      open({ kind: 'collection', id: collection.id, parentPanelId: null }),
    onAdd: (collectionId: string) =>
      open({ kind: 'add', id: collectionId, parentPanelId: collectionId }),
    onItemMenu: (item: DisplayItem) =>
      open({ kind: 'item-menu', id: item.id, itemType: item.type }),
  };
  if (space.isPending) return <p className="hint">{t('portal.loading')}</p>;
  if (space.isError || !data || !space.data) {
    return (
      <p role="alert" className="form-error">
        {t('portal.loadFailed')}
      </p>
    );
  }
  const top = panels.top;
  return (
    <div className="console-team-space">
      <div className="space-grid space-grid--single">
        <SpaceCard
          space={space.data}
          profileName={data.profile.name}
          onShowAll={(shown: DisplaySpace) => open({ kind: 'space', id: shown.id })}
          onAddCollection={(shown: DisplaySpace) =>
            open({ kind: 'add-collection', spaceId: shown.id })
          }
          {...tileProps}
        />
      </div>
      <Suspense fallback={null}>
        {top ? renderPanel(top, { data, panels, onOpenLink, tileProps }) : null}
      </Suspense>
    </div>
  );
}
