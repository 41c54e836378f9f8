import { useTranslation } from 'react-i18next';

/** The time of day, with the date when it is not today. */
function asOf(at: number, now = Date.now()): string {
  const sameDay = new Date(at).toDateString() === new Date(now).toDateString();
  return new Intl.DateTimeFormat(
    undefined,
    sameDay ? { timeStyle: 'short' } : { dateStyle: 'medium', timeStyle: 'short' },
  ).format(at);
}

/**
 * The portal's mark while it has no network (decision 0065): the links shown are those last
 * read, as of when, and changes wait. A status, so a screen reader says it when it appears.
 */
export function OfflineMark({ readAt }: { readAt: number | null }) {
  const { t } = useTranslation();
  return (
    <p className="offline-mark" role="status">
      {readAt === null ? t('offline.markUndated') : t('offline.mark', { time: asOf(readAt) })}
    </p>
  );
}
