import type { PeersResponse, Person } from '@signpost/contract';
import { consumerApi, reportApiError } from '../../../lib/api-client';
import { PEERS_PAGE_SIZE } from '../../../lib/constants';

export interface PeersPage {
  offset: number;
  query: string;
  limit?: number;
}

/**
 * One page of colleagues (spec §7: GET /peers?limit&offset&query). A failed fetch is
 * logged and reported, and yields an empty list (spec §8).
 */
export async function getPeers({ offset, query, limit = PEERS_PAGE_SIZE }: PeersPage) {
  try {
    const response = await consumerApi.request<PeersResponse>('/peers', {
      query: { limit, offset, query: query === '' ? undefined : query },
    });
    return response.data?.items ?? [];
  } catch (error) {
    reportApiError('GET /peers', error);
    return [] as Person[];
  }
}
