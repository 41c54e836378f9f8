import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { menuReadAt, type FetchedMenu } from '../menu/get-menu';
import '../panel-texts';
import { useOnline } from './use-online';

/** The time of day, with the date when it is not today. */
function asOf(at: number, now = Date.now()): string {
  const sameDay = new Date(at).toDateString() === new Date(now).toDateString();
  return new Intl.DateTimeFormat(
    undefined,
    sameDay ? { timeStyle: 'short' } : { dateStyle: 'medium', timeStyle: 'short' },
  ).format(at);
}

export interface OfflineWatchProps {
  menu: FetchedMenu;
  token: string | null;
  /** Reads the menu again. */
  refetch: (options: { cancelRefetch: boolean }) => unknown;
}

/**
 * The portal's watch on the network (decision 0065). While the browser says it is offline, or
 * the menu shown is the one last read, a mark says so: the links are those last read, as of
 * when, and changes wait (a status, so a screen reader says it when it appears). Back online,
 * the menu is read again at once: the query cannot tell by itself when it started offline.
 */
export function OfflineWatch({ menu, token, refetch }: OfflineWatchProps) {
  const { t } = useTranslation();
  const online = useOnline();
  const wasOnline = useRef(online);
  useEffect(() => {
    if (online && !wasOnline.current) void refetch({ cancelRefetch: false });
    wasOnline.current = online;
  }, [online, refetch]);
  if (online && !menu.offline) return null;
  const readAt = menuReadAt(menu, token);
  return (
    <p className="offline-mark" role="status">
      {readAt === null ? t('offline.markUndated') : t('offline.mark', { time: asOf(readAt) })}
    </p>
  );
}

/** What the portal says when it opens offline and this browser has no copy of the menu. */
export function NoOfflineCopy() {
  const { t } = useTranslation();
  return <p>{t('offline.noCopy')}</p>;
}
