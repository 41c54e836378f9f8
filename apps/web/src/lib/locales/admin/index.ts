import { audit } from './audit';
import { brokenLinks } from './broken-links';
import { people } from './people';
import { settings } from './settings';
import { suggestions } from './suggestions';
import { teams } from './teams';

/**
 * The English texts of the administration console, in their own namespace ('admin'): they
 * load with the console, never with the portal's first screen. One file per tab.
 */
export const adminEn = {
  console: {
    title: 'Administration',
    tabs: 'Sections',
    close: 'Back to the portal',
    loading: 'Loading…',
    loadFailed: 'This could not be loaded.',
    retry: 'Try again',
  },
  people,
  teams,
  suggestions,
  brokenLinks,
  settings,
  audit,
};
export type AdminTexts = typeof adminEn;
