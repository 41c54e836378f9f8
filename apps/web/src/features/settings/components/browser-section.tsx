import { useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { config } from '../../../lib/config';
import { bookmarklet } from './bookmarklet';
import { CopyButton } from '../../../components/copy-button';
import { SettingsSection } from './settings-section';
import '../../../lib/panel-texts';

/**
 * "Add pages from your browser": the bookmarklet to drag to the bookmarks bar (or to copy),
 * and a word about the browser extension (decision 0066).
 */
export function BrowserSection() {
  const { t } = useTranslation();
  const code = bookmarklet(window.location.origin);
  const link = useRef<HTMLAnchorElement>(null);
  const [clicked, setClicked] = useState(false);
  // React refuses a `javascript:` address as an href (it renders one that throws instead):
  // the link is rendered with a harmless one, and the bookmarklet's address is set on the
  // element itself once React rendered it. React writes an attribute only when its prop
  // changes, and this one never does.
  useLayoutEffect(() => {
    link.current?.setAttribute('href', code);
  }, [code]);
  return (
    <SettingsSection title={t('settings.browser.title')}>
      <p className="hint">{t('settings.browser.intro', { brand: config.brand })}</p>
      <p>
        <a
          ref={link}
          href="#add-pages-from-your-browser"
          className="button"
          style={{ cursor: 'grab' }}
          draggable
          // A click here would run the script on the portal, which its Content-Security-Policy
          // refuses: the link is for dragging, and says so.
          onClick={(event) => {
            event.preventDefault();
            setClicked(true);
          }}
        >
          {t('settings.browser.bookmarklet', { brand: config.brand })}
        </a>
      </p>
      <p role="status" className="hint">
        {clicked ? t('settings.browser.dragHint') : null}
      </p>
      <p className="hint">{t('settings.browser.copyIntro')}</p>
      <CopyButton text={code} label={t('settings.browser.copy')} />
      <p className="hint">{t('settings.browser.extension', { brand: config.brand })}</p>
    </SettingsSection>
  );
}
