import type { Page } from '@playwright/test';
import { expect, test } from './people-fixtures';
import { DEMO_PASSWORD, expectAccessible, signIn, type Person } from './support';
import { answerCodeStep, totpCode, totpStep } from './totp';

async function passwordStep(page: Page, person: Person) {
  await page.goto('/');
  const modal = page.getByRole('dialog', { name: 'Sign in' });
  await modal.getByLabel('E-mail').fill(person.email);
  await modal.getByLabel('Password').fill(DEMO_PASSWORD);
  await modal.getByRole('button', { name: 'Log in' }).click();
  const step = modal.getByRole('form', { name: 'Two-step sign-in' });
  await expect(step).toBeVisible();
  return { modal, step };
}

test('two-step sign-in: turned on in settings, then the code is asked at sign-in', async ({
  page,
  request,
  secondFactorPerson: person,
}) => {
  await signIn(page, person);
  // A session elsewhere, opened with the password alone.
  const elsewhere = await request.post('/api/auth/sessions/', {
    data: { type: 'email-password', email: person.email, password: DEMO_PASSWORD },
  });
  const other = { authorization: `Bearer ${(await elsewhere.json()).token}` };
  await page.getByRole('contentinfo').getByRole('button', { name: 'Settings' }).click();
  const factor = page
    .getByRole('dialog', { name: 'Settings' })
    .getByRole('region', { name: 'Two-step sign-in' });
  await expect(factor.getByText('Two-step sign-in is off.')).toBeVisible();
  await factor.getByRole('button', { name: 'Set up two-step sign-in' }).click();

  const secret = (await factor.locator('.secret-text--key').innerText()).replace(/\s/g, '');
  await expect(factor.getByText(/^otpauth:\/\/totp\//)).toBeVisible();
  // The same address as a QR code to scan, drawn from the encoder's modules.
  const qr = factor.getByRole('img', { name: 'QR code to scan with your authenticator app' });
  await expect(qr).toHaveAttribute('data-modules', /^\d+$/);
  expect(await qr.locator('rect').count()).toBeGreaterThan(50);
  await expectAccessible(page);
  const enabledAt = totpStep();
  await factor.getByRole('textbox', { name: '6-digit code' }).fill(totpCode(secret, enabledAt));
  await factor.getByRole('button', { name: 'Turn on' }).click();
  const codes = factor.getByRole('list', { name: 'Your recovery codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const recoveryCode = (await codes.first().innerText()).trim();
  await factor.getByRole('button', { name: 'I have saved them' }).click();
  await expect(factor.getByText('Two-step sign-in is on.')).toBeVisible();
  await expect(factor.getByRole('status')).toHaveText(
    'Two-step sign-in is now on, and you are signed out everywhere else.',
  );
  // The session opened with the password alone has ended; this one goes on.
  expect((await request.get('/api/auth/sessions/current', { headers: other })).status()).toBe(401);
  await expect(factor.getByText('10 recovery codes left.')).toBeVisible();
  await page.keyboard.press('Escape');

  // The password alone no longer opens a session.
  await page.getByRole('button', { name: 'Logout' }).click();
  const { modal, step } = await passwordStep(page, person);
  await expect(step.getByRole('textbox', { name: '6-digit code' })).toBeFocused();
  await expectAccessible(page);
  // The code that turned it on cannot sign in; the next step's code can (one step of drift).
  await answerCodeStep(page, modal, step, secret, enabledAt, person.name);

  // A recovery code works once instead of the app.
  await page.getByRole('button', { name: 'Logout' }).click();
  const again = await passwordStep(page, person);
  await again.step.getByRole('button', { name: 'Use a recovery code' }).click();
  await again.step.getByRole('textbox', { name: 'Recovery code' }).fill(recoveryCode);
  await again.step.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText(`Hello ${person.name}`)).toBeVisible();

  // Turned off with the password: the password alone signs in again.
  await page.getByRole('contentinfo').getByRole('button', { name: 'Settings' }).click();
  await expect(factor.getByText('9 recovery codes left.')).toBeVisible();
  await factor.getByRole('button', { name: 'Turn off two-step sign-in' }).click();
  await factor.getByRole('button', { name: 'Use my password instead' }).click();
  await factor.getByLabel('Password').fill(DEMO_PASSWORD);
  await factor.getByRole('button', { name: 'Turn off', exact: true }).click();
  await expect(factor.getByText('Two-step sign-in is off.')).toBeVisible();
  const plain = await request.post('/api/auth/sessions/', {
    data: { type: 'email-password', email: person.email, password: DEMO_PASSWORD },
  });
  expect(plain.status()).toBe(201);
});
