import { lazy, Suspense, useState } from 'react';
import { ReauthenticationHost } from '../features/reauth/components/reauthentication-host';
import { takeAddFragment } from '../lib/add-fragment';
import { forgetInvitation, pendingInvitation } from '../lib/invitation-fragment';
import { parseSessionFragment } from '../lib/session-fragment';
import { getSession } from '../lib/session-store';
import { useSession } from '../lib/use-session';
import { PortalView } from './portal-view';

const InvitationView = lazy(() => import('../features/invitation/components/invitation-view'));

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
      <PortalView />
      <ReauthenticationHost />
    </>
  ) : (
    <Suspense fallback={null}>
      <LoginView />
    </Suspense>
  );
}
