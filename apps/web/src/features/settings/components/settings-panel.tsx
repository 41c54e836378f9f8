import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/dialog';
import { AccessTokensSection } from './access-tokens-section';
import { BookmarksSection } from './bookmarks-section';
import { BrowserSection } from './browser-section';
import { PasswordSection } from './password-section';
import { SecondFactorSection } from './second-factor-section';
import { SessionsSection } from './sessions-section';
import { SuggestionsSection } from './suggestions-section';
import '../../../lib/panel-texts';

interface Props {
  onClose: () => void;
  /** Opens the import of a bookmark file into My Space. */
  onImportBookmarks?: () => void;
}

/** The person's settings: access tokens, where they are signed in, two-step sign-in, password, what became of one's suggestions, adding pages from the browser, and bookmarks in and out. */
export function SettingsPanel({ onClose, onImportBookmarks }: Props) {
  const { t } = useTranslation();
  return (
    <Dialog open onClose={onClose} title={t('settings.title')} variant="sheet" className="settings">
      <AccessTokensSection />
      <SessionsSection />
      <SecondFactorSection />
      <PasswordSection />
      <SuggestionsSection />
      <BrowserSection />
      <BookmarksSection onImport={onImportBookmarks} />
    </Dialog>
  );
}
