import { expect, type Locator, type Page } from '@playwright/test';
import { createHmac } from 'node:crypto';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error(`not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** The 30-second step of a time (RFC 6238). */
export function totpStep(at = Date.now()): number {
  return Math.floor(at / 1000 / 30);
}

/** The 6-digit code of a base32 secret for a step: RFC 6238 with HMAC-SHA-1. */
export function totpCode(secret: string, step = totpStep()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const hmac = createHmac('sha1', base32Decode(secret)).update(counter).digest();
  const offset = hmac[hmac.length - 1]! & 0x0f;
  const binary = hmac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 1_000_000).padStart(6, '0');
}

/**
 * The two-step sign-in's code step: a wrong code is refused with a message; then the code of
 * the step after the one that turned the factor on (that one cannot sign in) opens the portal.
 */
export async function answerCodeStep(
  page: Page,
  modal: Locator,
  step: Locator,
  secret: string,
  enabledAt: number,
  name: string,
) {
  const code = step.getByRole('textbox', { name: '6-digit code' });
  await code.fill('000000');
  await step.getByRole('button', { name: 'Verify' }).click();
  await expect(modal.getByRole('alert')).toContainText('not right');
  await code.fill(totpCode(secret, Math.max(enabledAt + 1, totpStep())));
  await step.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText(`Hello ${name}`)).toBeVisible();
}
