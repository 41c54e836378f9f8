import { withoutBidiControls, type CreateLinkBody, type Menu } from '@signpost/contract';

/** A portal and the access token the person signed in to it with. */
export interface Session {
  origin: string;
  token: string;
}

/**
 * Why a call failed, in the terms the popup acts on:
 * - `unauthorized`: the token does not work (wrong, revoked, its person disabled);
 * - `expired`: the token's own expiry passed (`ACCESS_TOKEN_EXPIRED`, decision 0054);
 * - `refused`: the portal said no, and why, for the person (400, 403, 409, 429);
 * - `not-found`: the collection is gone (404);
 * - `not-a-portal`: something answered that is not a Signpost API;
 * - `unavailable`: the portal failed on its side (5xx);
 * - `network`: nothing answered (offline, a wrong host, a timeout).
 */
export type FailureKind =
  'unauthorized' | 'expired' | 'refused' | 'not-found' | 'not-a-portal' | 'unavailable' | 'network';

export class PortalError extends Error {
  constructor(
    readonly kind: FailureKind,
    /** The server's `message` where it wrote one for people. */
    readonly serverMessage: string | null = null,
  ) {
    super(serverMessage ?? kind);
    this.name = 'PortalError';
  }
}

/** How long a call may take before the popup says the portal did not answer. */
export const CALL_TIMEOUT_MS = 15_000;

const REFUSALS = new Set([400, 403, 409, 413, 429]);

async function readJson(response: Response): Promise<unknown> {
  if (!/^application\/json\b/i.test(response.headers.get('content-type') ?? '')) {
    throw new PortalError('not-a-portal');
  }
  try {
    // Every string without bidirectional controls, as the web app reads its answers (decision
    // 0081): the server takes them out where text enters, and this keeps a name of an older
    // server from turning `invoice<U+202E>gnp.exe` into "invoiceexe.png" in the popup.
    return JSON.parse(await response.text(), (_key, value: unknown) =>
      typeof value === 'string' ? withoutBidiControls(value) : value,
    );
  } catch {
    throw new PortalError('not-a-portal');
  }
}

function field(data: unknown, name: 'code' | 'message' | 'msg'): string | null {
  if (!data || typeof data !== 'object') return null;
  const value = (data as Record<string, unknown>)[name];
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

async function failure(response: Response): Promise<PortalError> {
  const data = await readJson(response).catch((error: unknown) => {
    if (error instanceof PortalError) return null;
    throw error;
  });
  // Every error of the API has one shape (README, "The API"): an answer without it is not one.
  if (data === null || field(data, 'code') === null) return new PortalError('not-a-portal');
  const message = field(data, 'message') ?? field(data, 'msg');
  if (response.status === 401) {
    return new PortalError(
      field(data, 'code') === 'ACCESS_TOKEN_EXPIRED' ? 'expired' : 'unauthorized',
    );
  }
  if (response.status === 404) return new PortalError('not-found', message);
  if (REFUSALS.has(response.status)) return new PortalError('refused', message);
  return new PortalError('unavailable');
}

/**
 * One call to the portal's API with the bearer token. No cookie goes with it (the portal
 * signs calls in by the header alone), and nothing is cached beyond the call.
 */
async function call(
  session: Session,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  fetchImpl: typeof fetch = fetch,
): Promise<Response> {
  let response: Response;
  try {
    response = await fetchImpl(`${session.origin}${path}`, {
      method,
      credentials: 'omit',
      cache: 'no-store',
      headers: {
        Accept: 'application/json',
        Authorization: `Bearer ${session.token}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
  } catch {
    throw new PortalError('network');
  }
  if (!response.ok) throw await failure(response);
  return response;
}

function isMenu(data: unknown): data is Menu {
  const menu = data as Partial<Menu> | null;
  return (
    !!menu &&
    typeof menu === 'object' &&
    Array.isArray(menu.spaces) &&
    typeof menu.profile?.name === 'string' &&
    typeof menu.organization?.name === 'string'
  );
}

/** The person's menu: what they see, and what they may do with each collection. */
export async function getMenu(session: Session, fetchImpl?: typeof fetch): Promise<Menu> {
  const data = await readJson(
    await call(session, 'GET', '/api/consumer/menu', undefined, fetchImpl),
  );
  if (!isMenu(data)) throw new PortalError('not-a-portal');
  return data;
}

/** Adds a link at the end of a collection (`POST /collections/{id}/links`). */
export async function addLink(
  session: Session,
  collectionId: string,
  link: CreateLinkBody,
  fetchImpl?: typeof fetch,
): Promise<void> {
  const path = `/api/consumer/collections/${encodeURIComponent(collectionId)}/links`;
  await call(session, 'POST', path, link, fetchImpl);
}

/** Suggests a link to the people who run a team or the organization. */
export async function suggestLink(
  session: Session,
  collectionId: string,
  link: CreateLinkBody,
  fetchImpl?: typeof fetch,
): Promise<void> {
  const path = `/api/consumer/collections/${encodeURIComponent(collectionId)}/suggestions`;
  await call(session, 'POST', path, link, fetchImpl);
}
