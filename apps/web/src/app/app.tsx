import { lazy, Suspense, useState } from 'react';
import { ReauthenticationHost } from '../features/reauth/components/reauthentication-host';
import { forgetInvitation, pendingInvitation } from '../lib/invitation-fragment';
import { useSession } from '../lib/use-session';
import { LoginView } from './login-view';
import { PortalView } from './portal-view';

const InvitationView = lazy(() => import('../features/invitation/components/invitation-view'));

/** An unauthenticated person sees the login screen; an authenticated one the portal. */
export function App() {
  const { authenticated } = useSession();
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
    <LoginView />
  );
}
