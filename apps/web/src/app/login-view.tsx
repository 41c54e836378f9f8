import { LoginScreen } from '../features/login/components/login-screen';

/** The view of a person who is not signed in. */
export function LoginView() {
  return <LoginScreen />;
}
