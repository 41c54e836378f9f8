import type { InputHTMLAttributes, Ref } from 'react';

type OneTimeCodeInputProps = Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'type' | 'name' | 'inputMode' | 'autoComplete' | 'spellCheck'
> & { ref?: Ref<HTMLInputElement> };

/**
 * The field for a code of an authenticator app, wherever one is asked (sign-in, turning the
 * second step on or off): a numeric keyboard on phones, the browser's one-time-code autofill,
 * no spell check.
 */
export function OneTimeCodeInput({ ref, ...props }: OneTimeCodeInputProps) {
  return (
    <input
      ref={ref}
      type="text"
      name="totp"
      inputMode="numeric"
      autoComplete="one-time-code"
      spellCheck={false}
      {...props}
    />
  );
}
