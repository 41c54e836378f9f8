import { expect, test } from '@playwright/test';
import { DEMO_EMAIL, expectAccessible, signIn } from './support';

// Teams from a sign-in's groups (decision 0084) in the console's organization tab, against
// the real server. The demo single sign-on provider does not serve the demo organization
// through OIDC_PROVIDERS, so the section says where providers are configured; editing the
// mappings is covered by the component tests (settings-sso-groups.test.tsx).

test('the organization tab says where single sign-on providers are configured when none serves it', async ({
  page,
}) => {
  await signIn(page, { id: '', name: 'Demo', email: DEMO_EMAIL });
  await page.goto('/console/organization');
  const region = page.getByRole('region', { name: 'Teams from single sign-on groups' });
  await expect(region).toContainText('single sign-on is configured with OIDC_PROVIDERS');
  await expect(region.getByRole('form')).toHaveCount(0);
  await expectAccessible(page);
});
