import type { Person } from '@signpost/contract';
import { useTranslation } from 'react-i18next';

/** A mailto address for an e-mail, with its parts encoded and its @ kept readable. */
export function mailtoOf(email: string): string {
  return `mailto:${encodeURIComponent(email).replace('%40', '@')}`;
}

/**
 * A team's buddy, its support contact (spec §1): who it is and a link to write to them.
 * Shown where a person looks for help about the space: on its card, in its Show all panel
 * and in its info (decision 0056).
 */
export function BuddyContact({ buddy, className }: { buddy: Person; className?: string }) {
  const { t } = useTranslation();
  return (
    <p className={`buddy-contact ${className ?? ''}`}>
      {t('space.buddy', { name: buddy.name })} <a href={mailtoOf(buddy.email)}>{buddy.email}</a>
    </p>
  );
}
