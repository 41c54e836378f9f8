import { lazy, Suspense, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { parseConsolePath } from '../features/admin/console-address';
import { ReauthenticationHost } from '../features/reauth/components/reauthentication-host';
import { takeAddFragment } from '../lib/add-fragment';
import { useOfferedSignIn } from '../lib/fragment-sign-in';
import { forgetInvitation, pendingInvitation } from '../lib/invitation-fragment';
import { parseSessionFragment } from '../lib/session-fragment';
import { navigate, usePathname } from '../lib/page-address';
import { getSession } from '../lib/session-store';
import { useSession } from '../lib/use-session';
import { ConsoleView } from './console-view';
import { PortalView } from './portal-view';

const InvitationView = lazy(() => import('../features/invitation/components/invitation-view'));
// Asked only when a link brought a session token of its own (decision 0080).
const SignInOffer = lazy(() => import('../features/login/components/sign-in-offer'));

// The login screen is not the portal's first screen: a signed-in person's page never loads
// it. A page opened without a session, and not bringing one in its address
// (`#session?token=…`), starts loading it at once, beside the app's own files.
const loadLoginView = () => import('./login-view');
if (getSession().token === null && parseSessionFragment(window.location.hash) === null) {
  void loadLoginView();
}
const LoginView = lazy(() => loadLoginView().then((m) => ({ default: m.LoginView })));

/** An unauthenticated person sees the login screen; an authenticated one the portal. */
export function App() {
  const { authenticated } = useSession();
  // A page sent to be added (`#add?…`) leaves the address at once, signed in or not, and
  // waits for the portal to offer it (app/use-page-to-add.ts).
  useState(takeAddFragment);
  const [invitation, setInvitation] = useState(pendingInvitation);
  // A sign-in a link brought: the person says whether to take it before anything is
  // replaced, or shown of the account signed in now.
  const offered = useOfferedSignIn();
  if (offered) {
    return (
      <Suspense fallback={null}>
        <SignInOffer token={offered} />
      </Suspense>
    );
  }
  if (invitation) {
    return (
      <Suspense fallback={null}>
        <InvitationView
          token={invitation}
          onDone={() => {
            forgetInvitation();
            setInvitation(null);
          }}
        />
      </Suspense>
    );
  }
  if (authenticated === null) return null;
  return authenticated ? (
    <>
      <SignedIn />
      <ReauthenticationHost />
    </>
  ) : (
    <Suspense fallback={null}>
      <LoginView />
    </Suspense>
  );
}

/**
 * A signed-in person's page, by its address (decision 0077): the console at `/console/…`,
 * the portal anywhere else. Someone who runs nothing is sent from the console to the portal,
 * which says why.
 */
function SignedIn() {
  const { t } = useTranslation();
  const view = parseConsolePath(usePathname());
  const [notice, setNotice] = useState<string | null>(null);
  const onRefused = useCallback(() => {
    setNotice(t('portal.consoleRefused'));
    navigate('/', { replace: true });
  }, [t]);
  if (view) return <ConsoleView view={view} onRefused={onRefused} />;
  return <PortalView notice={notice} onDismissNotice={() => setNotice(null)} />;
}
