import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { clearSession, setSessionToken } from '../../../lib/session-store';
import { mockFetch } from '../../../test/fetch-mock';
import { makeMenu } from '../../../test/menu-fixture';
import { renderWithQuery } from '../../../test/render-with-query';
import { ConsentDialog } from './consent-dialog';
import { FeedbackDialog } from './feedback-dialog';

afterEach(() => clearSession());

function withOrganization(feedbackUrl: string | null, consentUrl: string | null) {
  const menu = makeMenu();
  setSessionToken('token');
  mockFetch([
    {
      path: '/api/consumer/menu',
      status: 200,
      body: { ...menu, organization: { ...menu.organization, feedbackUrl, consentUrl } },
    },
  ]);
}

describe("the organization's footer addresses", () => {
  it("the feedback dialog opens the organization's form", async () => {
    withOrganization('https://forms.acme.test/feedback', null);
    renderWithQuery(<FeedbackDialog onClose={() => {}} />);
    expect(await screen.findByRole('link', { name: 'Open the feedback form' })).toHaveAttribute(
      'href',
      'https://forms.acme.test/feedback',
    );
  });

  it("the consent dialog links to the organization's consent page and keeps its own choice", async () => {
    withOrganization(null, 'https://acme.test/privacy');
    renderWithQuery(<ConsentDialog onClose={() => {}} />);
    expect(
      await screen.findByRole('link', { name: "Your organization's consent preferences" }),
    ).toHaveAttribute('href', 'https://acme.test/privacy');
    expect(
      screen.getByRole('checkbox', { name: 'Allow anonymous usage events' }),
    ).toBeInTheDocument();
  });
});
