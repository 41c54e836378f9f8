import type {
  AddTeamMembersBody,
  PeopleResponse,
  TeamDetail,
  TeamMembersResponse,
  TeamsResponse,
  UpdateTeamBody,
} from '@signpost/contract';
import {
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { adminApi } from '../../../lib/api-client';
import { useSession } from '../../../lib/use-session';

const TEAMS_PAGE = 50;

export const teamsKeys = {
  all: (token: string | null) => ['admin', 'teams', token] as const,
  list: (token: string | null, query: string) => ['admin', 'teams', token, 'list', query] as const,
  detail: (token: string | null, id: string) => ['admin', 'teams', token, 'detail', id] as const,
  members: (token: string | null, id: string, query: string) =>
    ['admin', 'teams', token, 'members', id, query] as const,
  candidates: (token: string | null, id: string, query: string) =>
    ['admin', 'teams', token, 'candidates', id, query] as const,
};

/**
 * After a team write: the teams' lists, details, members and the people to add reload from
 * the server, and so do the people lists (their teams column and team filter).
 */
const refresh = (client: QueryClient, token: string | null) =>
  Promise.all([
    client.invalidateQueries({ queryKey: teamsKeys.all(token) }),
    client.invalidateQueries({ queryKey: ['admin', 'people'] }),
  ]);

/** The organization's teams by name, searched on the server, a page at a time. */
export function useTeams(query: string) {
  const { token } = useSession();
  return useInfiniteQuery({
    queryKey: teamsKeys.list(token, query),
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam }) =>
      (
        await adminApi.request<TeamsResponse>('/teams', {
          query: { query: query || undefined, limit: TEAMS_PAGE, after: pageParam },
        })
      ).data,
    getNextPageParam: (last) => last.next ?? undefined,
  });
}

/** One team with the counts its deletion would take. */
export function useTeam(id: string) {
  const { token } = useSession();
  return useQuery({
    queryKey: teamsKeys.detail(token, id),
    queryFn: async () => (await adminApi.request<TeamDetail>(`/teams/${id}`)).data,
  });
}

/** A team's members by name, searched on the server, a page at a time. */
export function useTeamMembers(id: string, query: string) {
  const { token } = useSession();
  return useInfiniteQuery({
    queryKey: teamsKeys.members(token, id, query),
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam }) =>
      (
        await adminApi.request<TeamMembersResponse>(`/teams/${id}/members`, {
          query: { query: query || undefined, limit: TEAMS_PAGE, after: pageParam },
        })
      ).data,
    getNextPageParam: (last) => last.next ?? undefined,
  });
}

/** A person found to add to a team, and whether they are in it already. */
export type Candidate = PeopleResponse['items'][number] & { member: boolean };

const CANDIDATES = 20;

/**
 * People of the organization to add, by name or e-mail: the console's people list, so that
 * invited people and the administrator themself can be added too (disabled people cannot).
 * Those already in the team are marked (the team's members found by the same text). It
 * reloads after every team write, so that whoever was just added shows as a member.
 */
export function useCandidates(id: string, query: string) {
  const { token } = useSession();
  return useQuery({
    queryKey: teamsKeys.candidates(token, id, query),
    enabled: query !== '',
    placeholderData: (previous) => previous,
    queryFn: async (): Promise<Candidate[]> => {
      const [people, members] = await Promise.all([
        adminApi.request<PeopleResponse>('/people', { query: { q: query, limit: CANDIDATES } }),
        adminApi.request<TeamMembersResponse>(`/teams/${id}/members`, {
          query: { query, limit: 100 },
        }),
      ]);
      const inTeam = new Set(members.data.items.map((member) => member.id));
      return people.data.items
        .filter((person) => person.status !== 'disabled')
        .map((person) => ({ ...person, member: inTeam.has(person.id) }));
    },
  });
}

/** Every team write: each reloads the teams' lists and details when it is done. */
export function useTeamWrites() {
  const client = useQueryClient();
  const { token } = useSession();
  const onSettled = () => refresh(client, token);
  return {
    create: useMutation({
      mutationFn: async (name: string) =>
        (await adminApi.request<TeamDetail>('/teams', { method: 'POST', body: { name } })).data,
      onSettled,
    }),
    update: useMutation({
      mutationFn: async ({ id, body }: { id: string; body: UpdateTeamBody }) =>
        (await adminApi.request<TeamDetail>(`/teams/${id}`, { method: 'PATCH', body })).data,
      onSettled,
    }),
    remove: useMutation({
      mutationFn: async ({
        id,
        collections,
        links,
      }: {
        id: string;
        collections: number;
        links: number;
      }) => {
        await adminApi.request<null>(`/teams/${id}`, {
          method: 'DELETE',
          query: { collections, links },
        });
      },
      onSettled,
    }),
    addMembers: useMutation({
      mutationFn: async ({ id, body }: { id: string; body: AddTeamMembersBody }) =>
        (
          await adminApi.request<{ changed: number }>(`/teams/${id}/members`, {
            method: 'POST',
            body,
          })
        ).data,
      onSettled,
    }),
    removeMembers: useMutation({
      mutationFn: async ({ id, userIds }: { id: string; userIds: string[] }) =>
        (
          await adminApi.request<{ changed: number }>(`/teams/${id}/members/remove`, {
            method: 'POST',
            body: { userIds },
          })
        ).data,
      onSettled,
    }),
    setRole: useMutation({
      mutationFn: async (input: { id: string; userId: string; role: 'member' | 'editor' }) => {
        await adminApi.request<null>(`/teams/${input.id}/members/${input.userId}`, {
          method: 'PATCH',
          body: { role: input.role },
        });
      },
      onSettled,
    }),
  };
}
