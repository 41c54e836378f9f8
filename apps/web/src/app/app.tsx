import { useSession } from '../lib/use-session';
import { LoginView } from './login-view';
import { PortalView } from './portal-view';

/** An unauthenticated person sees the login screen; an authenticated one the portal. */
export function App() {
  const { authenticated } = useSession();
  if (authenticated === null) return null;
  return authenticated ? <PortalView /> : <LoginView />;
}
