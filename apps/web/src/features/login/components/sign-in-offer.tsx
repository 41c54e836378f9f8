import type { CurrentSessionResponse } from '@signpost/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { authApi } from '../../../lib/api-client';
import { loginByToken } from '../../../lib/auth';
import { config } from '../../../lib/config';
import { dropOfferedSignIn } from '../../../lib/fragment-sign-in';
import { getSession } from '../../../lib/session-store';
import { useSession } from '../../../lib/use-session';
import '../../../lib/panel-texts';

/** Who a token signs in as; rejects when it signs in nobody (expired, ended, made up). */
async function accountOf(token: string | null): Promise<CurrentSessionResponse> {
  // With the session's own token (null) a 401 ends that session, as any call's does; with
  // the link's token it only says the link cannot be used.
  const options = token === null ? {} : { token };
  return (await authApi.request<CurrentSessionResponse>('/sessions/current', options)).data;
}

/** Ends a session on the server quietly: the one a sign-in from a link replaced. */
async function endSession(token: string) {
  try {
    await authApi.request('/logout', { method: 'POST', token });
  } catch {
    // Already ended, or the server is away: the token is forgotten here all the same.
  }
}

function Account({ account }: { account: CurrentSessionResponse }) {
  const { t } = useTranslation();
  return (
    <p className="sign-in-offer__account">
      <bdi>{account.user.name}</bdi>
      <br />
      <bdi>{account.user.email}</bdi>
      <br />
      <span className="hint">
        {t('signInOffer.ofOrganization', { organization: account.organization.name })}
      </span>
    </p>
  );
}

/**
 * A session token a link brought, which this browser's own single sign-on did not hand over
 * (decision 0080): the person is asked, with the account named — and the one signed in now,
 * if any — before anything is replaced. Declining forgets the link's token; accepting signs
 * in with it, ends the session it replaces and leaves nothing of its person behind.
 */
export default function SignInOffer({ token }: { token: string }) {
  const { t } = useTranslation();
  const { token: current } = useSession();
  const offered = useQuery({
    queryKey: ['sign-in-offer', token],
    queryFn: () => accountOf(token),
    retry: false,
    gcTime: 0,
  });
  const mine = useQuery({
    queryKey: ['sign-in-offer', 'current', current],
    queryFn: () => accountOf(null),
    enabled: current !== null,
    retry: false,
    gcTime: 0,
  });
  const accept = useMutation({
    mutationFn: async () => {
      const previous = getSession().token;
      const result = await loginByToken(token);
      if (result.error) throw new Error(result.msg);
      if (previous !== null && previous !== token) await endSession(previous);
      // Here rather than in onSuccess: the switch of account empties the query client, this
      // mutation with it.
      dropOfferedSignIn();
    },
  });

  const same =
    offered.data && mine.data && offered.data.user.id === mine.data.user.id && current !== null;
  // The link signs in the person signed in now: nothing to ask, nothing to change.
  useEffect(() => {
    if (same) dropOfferedSignIn();
  }, [same]);

  const safe = useRef<HTMLButtonElement>(null);
  const account = offered.data?.user.email ?? '';
  const ready = offered.isSuccess && (current === null || mine.isSuccess || mine.isError) && !same;
  useEffect(() => {
    // The safe answer has the focus: Enter keeps things as they are.
    if (ready) safe.current?.focus();
  }, [ready]);

  const invalid = offered.isError || accept.isError;
  return (
    <main className="login">
      <p className="login__brand">{config.brand}</p>
      <section
        className="login__modal sign-in-offer"
        role="dialog"
        aria-modal="false"
        aria-labelledby="sign-in-offer-title"
        aria-busy={!ready && !invalid}
      >
        {invalid ? (
          <>
            <h1 id="sign-in-offer-title">{t('signInOffer.invalidTitle')}</h1>
            <p role="alert">{t('signInOffer.invalid')}</p>
            <button type="button" className="button button--primary" onClick={dropOfferedSignIn}>
              {t('signInOffer.continue')}
            </button>
          </>
        ) : ready && offered.data ? (
          <>
            <h1 id="sign-in-offer-title">{t('signInOffer.title', { account })}</h1>
            <p>{t('signInOffer.linkFor')}</p>
            <Account account={offered.data} />
            {mine.data ? (
              <>
                <p>{t('signInOffer.signedInNow')}</p>
                <Account account={mine.data} />
                <p>{t('signInOffer.replaces', { account })}</p>
              </>
            ) : (
              <p>{t('signInOffer.onlyIfAsked')}</p>
            )}
            <div className="sign-in-offer__actions">
              <button
                ref={safe}
                type="button"
                className="button button--primary"
                onClick={dropOfferedSignIn}
                disabled={accept.isPending}
              >
                {mine.data
                  ? t('signInOffer.stay', { account: mine.data.user.email })
                  : t('signInOffer.decline')}
              </button>
              <button
                type="button"
                className="button"
                onClick={() => accept.mutate()}
                disabled={accept.isPending}
                aria-busy={accept.isPending}
              >
                {t('signInOffer.accept', { account })}
              </button>
            </div>
          </>
        ) : (
          <p className="hint" role="status">
            {t('signInOffer.checking')}
          </p>
        )}
      </section>
    </main>
  );
}
