import { lazy, Suspense } from 'react';
import { useSetupStatus } from '../features/setup/api/setup-status';
import { LoginScreen } from '../features/login/components/login-screen';

// Seen once per installation: loaded only when the server says setup is needed.
const SetupScreen = lazy(() =>
  import('../features/setup/components/setup-screen').then((m) => ({ default: m.SetupScreen })),
);

/**
 * The view of a person who is not signed in: the login screen, or the setup screen while
 * the installation has no organization yet.
 */
export function LoginView() {
  const setup = useSetupStatus();
  if (setup.data?.required) {
    return (
      <Suspense fallback={null}>
        <SetupScreen />
      </Suspense>
    );
  }
  return <LoginScreen />;
}
