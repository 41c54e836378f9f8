import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { AppProvider } from './app/provider';
import { initI18n } from './lib/i18n';
import { applyMotion } from './lib/motion';
import { takeSessionFragment } from './lib/session-fragment';
import { initSession } from './lib/session-store';
import './styles.css';

// The fragment is read and cleared before anything renders or logs.
initSession(takeSessionFragment());
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
