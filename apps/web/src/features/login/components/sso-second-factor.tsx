import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { completeSsoSecondFactor, errorCode, type SecondFactor } from '../../../lib/auth';
import { SecondFactorStep } from './second-factor-step';

/** The answer of a ticket that can no longer be used (expired, used, another browser). */
export const SIGN_IN_EXPIRED = 'SIGN_IN_EXPIRED';

interface Props {
  /** The ticket of `#sso-second-factor?ticket=…`. */
  ticket: string;
  onError: (message: string | null) => void;
  /** The sign-in is over without a session (cancelled or expired): back to the methods. */
  onEnd: () => void;
}

function messageOf(error: unknown) {
  return (error instanceof ApiError ? errorMessage(error.data) : null) ?? (error as Error).message;
}

/**
 * After a single sign-on, a person with a Signpost second factor has no session yet: the
 * login screen asks for the code (or a recovery code) and sends it with the ticket the
 * server gave this browser (decision 0048). A wrong code can be typed again; an expired
 * ticket ends this step with the server's message.
 */
export function SsoSecondFactor({ ticket, onError, onEnd }: Props) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);

  async function submit(factor: SecondFactor): Promise<boolean> {
    setBusy(true);
    onError(null);
    try {
      const result = await completeSsoSecondFactor(ticket, factor);
      if (result.error) onError(result.msg);
      return true;
    } catch (error) {
      onError(messageOf(error));
      if (errorCode(error) === SIGN_IN_EXPIRED) {
        onEnd();
        return true;
      }
      return false;
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="sso-second-factor">
      <p className="hint">{t('login.secondFactor.ssoIntro')}</p>
      <SecondFactorStep
        busy={busy}
        onSubmit={submit}
        backLabel={t('login.secondFactor.ssoBack')}
        onBack={() => {
          onError(null);
          onEnd();
        }}
      />
    </div>
  );
}
