import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { AppProvider } from './app/provider';
import { initI18n } from './lib/i18n';
import { applyMotion } from './lib/motion';
import { keepMenuPrivate, setKeptMenuLoader } from './lib/offline/keep';
import { takeSearchAddress } from './lib/search-address';
import { offerSessionFragments, startSession } from './lib/fragment-sign-in';
import { takeSessionFragment } from './lib/session-fragment';
import { whenIdle } from './lib/when-idle';
import './styles.css';

// The fragment is read and cleared before anything renders, logs or reports. A token this
// browser's own single sign-on handed over signs in; any other is asked about (decision 0080).
startSession(takeSessionFragment());
offerSessionFragments();
// `/?q=…` from the browser's address bar: the search opens with it (decision 0065).
takeSearchAddress();
// The menu kept for offline use goes with the session that read it.
setKeptMenuLoader(() => import('./lib/offline/kept-menu'));
keepMenuPrivate();
initI18n();
applyMotion(document.documentElement.style);

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <AppProvider>
        <App />
      </AppProvider>
    </StrictMode>,
  );
}

// The service worker (decision 0065), registered a few seconds after the page has loaded, when
// the browser is idle: the first screen never waits for it. The entry's address names this
// page's build.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  const entry = new URL(import.meta.url).pathname;
  const register = () =>
    whenIdle(() => {
      import('./lib/offline/service-worker')
        .then(({ registerServiceWorker }) => registerServiceWorker(entry))
        .catch(() => {
          // No service worker: the portal works as before, without its offline copy.
        });
    }, 5000);
  const later = () => setTimeout(register, 3000);
  if (document.readyState === 'complete') later();
  else window.addEventListener('load', later, { once: true });
}
