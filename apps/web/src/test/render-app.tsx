import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from '../app/app';
import { AppProvider, createQueryClient } from '../app/provider';

/** Renders the whole app with a fresh query cache, as a person would meet it. */
export function renderApp() {
  const user = userEvent.setup();
  const client = createQueryClient();
  const view = render(
    <AppProvider client={client}>
      <App />
    </AppProvider>,
  );
  return { user, client, ...view };
}
