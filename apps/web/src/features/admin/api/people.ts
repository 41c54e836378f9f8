import type {
  BulkPeopleBody,
  BulkPeopleResponse,
  CreatePersonBody,
  InvitationSentResponse,
  InvitePersonBody,
  OffboardingChoice,
  OffboardingResponse,
  PeopleImportApplyBody,
  PeopleImportBody,
  PeopleImportPreview,
  PeopleImportResult,
  PeopleQuery,
  PeopleResponse,
  PersonDetail,
  PersonRow,
  UpdatePersonBody,
} from '@signpost/contract';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { adminApi } from '../../../lib/api-client';

export type PeopleFilters = Omit<PeopleQuery, 'cursor' | 'limit'>;

const root = ['admin', 'people'] as const;
export const peopleKeys = {
  all: root,
  list: (filters: PeopleFilters) => [...root, 'list', filters] as const,
  offboarding: (id: string) => [...root, 'offboarding', id] as const,
};

const person = (id: string) => `/people/${encodeURIComponent(id)}`;

export async function getPeople(filters: PeopleFilters, cursor?: string | null, limit = 50) {
  const query = { ...filters, cursor: cursor ?? undefined, limit };
  return (await adminApi.request<PeopleResponse>('/people', { query })).data;
}

/** The people list, page after page from the server, for the filters given. */
export function usePeople(filters: PeopleFilters) {
  return useInfiniteQuery({
    queryKey: peopleKeys.list(filters),
    queryFn: ({ pageParam }) => getPeople(filters, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}

export function useOffboarding(id: string) {
  return useQuery({
    queryKey: peopleKeys.offboarding(id),
    queryFn: async () =>
      (await adminApi.request<OffboardingResponse>(`${person(id)}/offboarding`)).data,
  });
}

/**
 * A write of the people console; the people lists reload after it, and so do the teams' (a
 * person's name, status or removal shows in the member lists and counts).
 */
function usePeopleWrite<I, O>(write: (input: I) => Promise<O>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: root }),
        client.invalidateQueries({ queryKey: ['admin', 'teams'] }),
      ]),
  });
}

export const useInvitePerson = () =>
  usePeopleWrite(
    async (body: InvitePersonBody) =>
      (
        await adminApi.request<InvitationSentResponse>('/people/invitations', {
          method: 'POST',
          body,
        })
      ).data,
  );

export const useResendInvitation = () =>
  usePeopleWrite(
    async (id: string) =>
      (
        await adminApi.request<InvitationSentResponse>(`${person(id)}/invitation`, {
          method: 'POST',
        })
      ).data,
  );

export const useCreatePerson = () =>
  usePeopleWrite(
    async (body: CreatePersonBody) =>
      (await adminApi.request<PersonRow>('/people', { method: 'POST', body })).data,
  );

export const useUpdatePerson = () =>
  usePeopleWrite(
    async ({ id, body }: { id: string; body: UpdatePersonBody }) =>
      (await adminApi.request<PersonRow>(person(id), { method: 'PATCH', body })).data,
  );

export const usePersonAction = () =>
  usePeopleWrite(
    async ({ id, action }: { id: string; action: 'sign-out' | 'second-factor/reset' }) => {
      await adminApi.request<null>(`${person(id)}/${action}`, { method: 'POST' });
    },
  );

export const useDeletePerson = () =>
  usePeopleWrite(async ({ id, choice }: { id: string; choice: OffboardingChoice }) => {
    await adminApi.request<null>(person(id), { method: 'DELETE', body: choice });
  });

export const useBulkPeople = () =>
  usePeopleWrite(
    async (body: BulkPeopleBody) =>
      (await adminApi.request<BulkPeopleResponse>('/people/bulk', { method: 'POST', body })).data,
  );

/**
 * How often a person is read again while their invitation's mail is on its way (decision
 * 0079): soon after it was queued, then while the mail server is tried again.
 */
export const MAIL_FOLLOW_MS = { queued: 2000, retrying: 15_000 } as const;

/**
 * One person, as a row of the list with their open invitation: their page in the console,
 * and what the invitation dialog says of its mail. Read again while the mail is on its way.
 */
export function usePerson(id: string) {
  return useQuery({
    queryKey: [...root, 'person', id],
    queryFn: async () => (await adminApi.request<PersonDetail>(person(id))).data,
    retry: false,
    refetchInterval: (query) => {
      const mail = query.state.data?.invitation?.mail;
      return mail === 'queued' || mail === 'retrying' ? MAIL_FOLLOW_MS[mail] : false;
    },
  });
}

/** What a CSV file of people would do (decision 0085); writes nothing. */
export const usePeopleImportPreview = () =>
  useMutation({
    mutationFn: async (body: PeopleImportBody) =>
      (
        await adminApi.request<PeopleImportPreview>('/people/import/preview', {
          method: 'POST',
          body,
        })
      ).data,
  });

/** Imports a CSV file of people in one transaction. */
export const usePeopleImport = () =>
  usePeopleWrite(
    async (body: PeopleImportApplyBody) =>
      (
        await adminApi.request<PeopleImportResult>('/people/import', {
          method: 'POST',
          body,
        })
      ).data,
  );
