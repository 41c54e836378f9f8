import {
  ADMIN_BASE_PATH,
  AUTH_BASE_PATH,
  CONSUMER_BASE_PATH,
  SETUP_BASE_PATH,
  STATUS_UNAUTHORIZED,
  STATUS_WRITE_OK,
} from './constants';
import { clearSession, getSession } from './session-store';
import { track } from './tracking';
import { reviveDisplayText } from './display-text';

/** A non-2xx answer other than 401, passed through unchanged to the caller. */
export class ApiError extends Error {
  readonly status: number;
  readonly data: unknown;
  constructor(status: number, data: unknown) {
    super(errorMessage(data) ?? `Request failed with status ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.data = data;
  }
}

/**
 * No answer at all: the network is gone or the server cannot be reached. The portal then
 * shows the menu it kept, and a write says that it waits for the network (decision 0065).
 */
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = 'NetworkError';
  }
}

/** The human-readable text of an error body (`message`, or `msg` as spec §8 reads it). */
export function errorMessage(data: unknown): string | null {
  if (data && typeof data === 'object') {
    const record = data as Record<string, unknown>;
    if (typeof record.message === 'string') return record.message;
    if (typeof record.msg === 'string') return record.msg;
  }
  return null;
}

/**
 * The property of the request a refusal is about, as the server names it (`field`, decision
 * 0078): the form shows the message by that field. Null when it names none.
 */
export function errorField(data: unknown): string | null {
  if (data && typeof data === 'object') {
    const field = (data as Record<string, unknown>).field;
    if (typeof field === 'string' && field !== '') return field;
  }
  return null;
}

export interface ApiResponse<T> {
  status: number;
  data: T;
  headers: Headers;
}

/** A body sent as its bytes rather than as JSON: an image, for one. */
export type BinaryBody = Blob | ArrayBuffer | ArrayBufferView<ArrayBuffer>;

function isBinary(body: unknown): body is BinaryBody {
  return body instanceof Blob || body instanceof ArrayBuffer || ArrayBuffer.isView(body);
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /**
   * Sent as JSON; a Blob, an ArrayBuffer or a typed array is sent as it is, typed as
   * `contentType` (else a Blob's own type, else application/octet-stream).
   */
  body?: unknown;
  /** The type of a binary body (see `body`); a JSON body is always application/json. */
  contentType?: string;
  query?: Record<string, string | number | undefined>;
  headers?: Record<string, string>;
  /**
   * A token to use instead of the session's: sign-in calls check a token before it becomes
   * the session's, and handle their own 401 (the server's message must reach the person).
   */
  token?: string | null;
  signal?: AbortSignal;
  /** Set on the repeat of a call after re-authentication: it is not offered twice. */
  noReauthentication?: boolean;
}

/** The 403 of a sensitive change that needs the person to confirm who they are (decision 0048). */
export const REAUTHENTICATION_REQUIRED = 'REAUTHENTICATION_REQUIRED';

/**
 * Asks the person to confirm who they are, with the server's message; resolves true once
 * they did (the call is then repeated), false when they cancelled. Registered by the
 * re-authentication dialog while a person is signed in.
 */
export type ReauthenticationHandler = (message: string | null) => Promise<boolean>;
let reauthenticationHandler: ReauthenticationHandler | null = null;

/** Registers the dialog that answers REAUTHENTICATION_REQUIRED; returns its removal. */
export function setReauthenticationHandler(handler: ReauthenticationHandler) {
  reauthenticationHandler = handler;
  return () => {
    if (reauthenticationHandler === handler) reauthenticationHandler = null;
  };
}

function needsReauthentication(status: number, data: unknown) {
  return (
    status === 403 &&
    !!data &&
    typeof data === 'object' &&
    (data as { code?: unknown }).code === REAUTHENTICATION_REQUIRED
  );
}

function buildUrl(base: string, path: string, query?: RequestOptions['query']) {
  const url = `${base}${path.startsWith('/') ? path : `/${path}`}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${url}?${search}` : url;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204 || response.status === 304) return null;
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text, reviveDisplayText);
  } catch {
    return text;
  }
}

/**
 * The one HTTP client. Every request carries `Authorization: Bearer <token>` once a token
 * exists. A 401 on a request made with the session's token is a session expiry: the person
 * is logged out and the call rejects with 'Unauthorized'. A 403 REAUTHENTICATION_REQUIRED
 * opens the re-authentication dialog and repeats the call once confirmed. Other failures
 * reject with an ApiError carrying the status and the response data.
 */
async function request<T>(
  base: string,
  path: string,
  options: RequestOptions = {},
): Promise<ApiResponse<T>> {
  const explicitToken = options.token !== undefined;
  const token = explicitToken ? options.token : getSession().token;
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (token) headers.Authorization = `Bearer ${token}`;
  const init: RequestInit = {
    method: options.method ?? 'GET',
    headers,
    cache: 'no-store',
    signal: options.signal,
  };
  if (isBinary(options.body)) {
    const own = options.body instanceof Blob ? options.body.type : '';
    headers['Content-Type'] = options.contentType || own || 'application/octet-stream';
    init.body = options.body;
  } else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(buildUrl(base, path, options.query), init);
  } catch (error) {
    // A call the caller cancelled is not the network's failure.
    if (options.signal?.aborted) throw error;
    throw new NetworkError(error);
  }
  const data = await readBody(response);
  if (response.status === STATUS_UNAUTHORIZED && !explicitToken) {
    clearSession();
    throw new Error('Unauthorized');
  }
  // A sensitive change the server wants confirmed: the dialog asks, then the call is made
  // once more. Cancelled, the call fails with the server's answer as any other.
  if (
    needsReauthentication(response.status, data) &&
    reauthenticationHandler &&
    !options.noReauthentication &&
    (await reauthenticationHandler(errorMessage(data)))
  ) {
    return request<T>(base, path, { ...options, noReauthentication: true });
  }
  if (!response.ok && response.status !== 304) throw new ApiError(response.status, data);
  return { status: response.status, data: data as T, headers: response.headers };
}

export const authApi = {
  request: <T>(path: string, options?: RequestOptions) => request<T>(AUTH_BASE_PATH, path, options),
};

export const consumerApi = {
  request: <T>(path: string, options?: RequestOptions) =>
    request<T>(CONSUMER_BASE_PATH, path, options),
};

export const setupApi = {
  request: <T>(path: string, options?: RequestOptions) =>
    request<T>(SETUP_BASE_PATH, path, options),
};

/** The administration calls (the console). */
export const adminApi = {
  request: <T>(path: string, options?: RequestOptions) =>
    request<T>(ADMIN_BASE_PATH, path, options),
};

/** The public invitation calls, `/api/invitations` (no session token is sent). */
export const invitationsApi = {
  request: <T>(path: string, options?: RequestOptions) =>
    request<T>('/api/invitations', path, { token: null, ...options }),
};

/** Logs a failed call and reports it (with consent) as an error event with the response data. */
export function reportApiError(what: string, error: unknown) {
  const data = error instanceof ApiError ? error.data : String(error);
  console.error(`Signpost: ${what} failed`, data);
  track({ name: 'api', status: 'error', data: { call: what, response: data } });
}

/**
 * A consumer write (spec §7): resolves on 204. Any other answer is logged, reported as an
 * error event (spec §8) and rejects with an ApiError carrying the server's error, so that a
 * mutation holds it for its caller. A 401 still logs the person out and rejects 'Unauthorized'.
 * The body is JSON, or bytes typed as `contentType` (see RequestOptions).
 */
export async function consumerWrite(
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
  contentType?: string,
): Promise<void> {
  try {
    const response = await consumerApi.request<unknown>(path, { method, body, contentType });
    if (response.status !== STATUS_WRITE_OK) throw new ApiError(response.status, response.data);
  } catch (error) {
    reportApiError(`${method} ${path}`, error);
    throw error;
  }
}
