import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { setReauthenticationHandler } from '../../../lib/api-client';
import {
  clearPendingSsoError,
  getPendingSsoError,
  takeReauthenticated,
} from '../../../lib/session-fragment';

/** The dialog loads when first asked for, or on idle after the portal is painted (decision 0063). */
export const loadReauthDialog = () => import('./reauth-dialog');
const ReauthDialog = lazy(() => loadReauthDialog().then((m) => ({ default: m.ReauthDialog })));

/** How long the note after a re-authentication by single sign-on stays. */
const NOTICE_MS = 8000;

interface Pending {
  message: string | null;
  settle: (confirmed: boolean) => void;
}

/**
 * Mounted while a person is signed in: answers every call that the server refuses with 403
 * REAUTHENTICATION_REQUIRED by the "Confirm it's you" dialog, then lets the call repeat
 * (decision 0048). Calls refused at once share one dialog. After a re-authentication by
 * single sign-on (the browser came back with `#reauthenticated`, or `#sso-error`) it says
 * how it went.
 */
export function ReauthenticationHost() {
  const { t } = useTranslation();
  const [pending, setPending] = useState<Pending | null>(null);
  // Back from a single sign-on that re-authenticated this session, or that failed to (its
  // message would otherwise wait for a login screen a signed-in person never sees).
  const [notice, setNotice] = useState<string | null>(() =>
    takeReauthenticated() ? t('reauth.confirmed') : (getPendingSsoError()?.message ?? null),
  );
  useEffect(() => clearPendingSsoError(), []);
  const asking = useRef<Promise<boolean> | null>(null);

  useEffect(
    () =>
      setReauthenticationHandler((message) => {
        asking.current ??= new Promise<boolean>((resolve) => {
          setPending({
            message,
            settle: (confirmed) => {
              asking.current = null;
              setPending(null);
              resolve(confirmed);
            },
          });
        });
        return asking.current;
      }),
    [],
  );

  useEffect(() => {
    if (!notice) return undefined;
    const timer = window.setTimeout(() => setNotice(null), NOTICE_MS);
    return () => window.clearTimeout(timer);
  }, [notice]);

  return (
    <>
      {notice ? (
        <p className="reauth-notice" role="status">
          {notice}
        </p>
      ) : null}
      {pending ? (
        <Suspense fallback={null}>
          <ReauthDialog
            message={pending.message}
            onDone={() => pending.settle(true)}
            onCancel={() => pending.settle(false)}
          />
        </Suspense>
      ) : null}
    </>
  );
}
