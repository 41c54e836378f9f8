import type { AuditLogResponse } from '@signpost/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api-client';
import { saveResponse } from '../../../lib/download';
import { clearSession, getSession } from '../../../lib/session-store';
import { useSession } from '../../../lib/use-session';
import { reviveDisplayText } from '../../../lib/display-text';

const BASE = '/api/admin/audit-log';
const PAGE = 50;

/** The console's filters, as the person set them (dates as yyyy-mm-dd, local days). */
export interface AuditFilters {
  /** Only entries this person did or that were done to them. */
  person?: { id: string; label: string } | null;
  /** An action group prefix such as `person.`, or '' for every action. */
  group?: string;
  from?: string;
  to?: string;
  q?: string;
}

/** The next local day of a yyyy-mm-dd date, at midnight. */
function dayAfter(date: string): Date {
  const day = new Date(`${date}T00:00:00`);
  day.setDate(day.getDate() + 1);
  return day;
}

/** The query string of the filters, the same for the list and the export. */
export function auditQuery(filters: AuditFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.person) params.set('person', filters.person.id);
  if (filters.group) params.set('action', filters.group);
  if (filters.from) params.set('from', new Date(`${filters.from}T00:00:00`).toISOString());
  // The end date is included: entries before the next day's midnight.
  if (filters.to) params.set('to', dayAfter(filters.to).toISOString());
  const q = filters.q?.trim();
  if (q) params.set('q', q);
  return params;
}

/** A GET of the admin API with the session's bearer token; a 401 ends the session. */
async function adminGet(path: string, params: URLSearchParams): Promise<Response> {
  const { token } = getSession();
  const search = params.toString();
  const response = await fetch(`${BASE}${path}${search ? `?${search}` : ''}`, {
    headers: { Accept: '*/*', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    cache: 'no-store',
  });
  if (response.status === 401) {
    clearSession();
    throw new Error('Unauthorized');
  }
  if (!response.ok) {
    const text = await response.text();
    let data: unknown = text;
    try {
      data = JSON.parse(text);
    } catch {
      // Not JSON: the text itself.
    }
    throw new ApiError(response.status, data);
  }
  return response;
}

export async function getAuditLog(
  filters: AuditFilters,
  cursor: string | null,
): Promise<AuditLogResponse> {
  const params = auditQuery(filters);
  params.set('limit', String(PAGE));
  if (cursor) params.set('cursor', cursor);
  const text = await (await adminGet('', params)).text();
  return JSON.parse(text, reviveDisplayText) as AuditLogResponse;
}

/** The audit log of the filters, newest first, a page at a time ("Load more"). */
export function useAuditLog(filters: AuditFilters) {
  const { token } = useSession();
  return useInfiniteQuery({
    queryKey: ['admin', 'audit', token, auditQuery(filters).toString()],
    queryFn: ({ pageParam }) => getAuditLog(filters, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}

/**
 * Downloads the CSV of the filters: fetched with the bearer token (a plain link could not
 * carry it), then saved from a Blob.
 */
export async function downloadAuditCsv(filters: AuditFilters): Promise<void> {
  const response = await adminGet('/export', auditQuery(filters));
  await saveResponse(response, 'audit-log.csv');
}
