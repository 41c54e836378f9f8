import type { InvitationResponse, SessionResponse } from '@signpost/contract';
import { invitationsApi } from '../../../lib/api-client';

export async function lookUpInvitation(token: string): Promise<InvitationResponse> {
  return (
    await invitationsApi.request<InvitationResponse>('/lookup', {
      method: 'POST',
      body: { token },
    })
  ).data;
}

export async function acceptInvitation(token: string, password: string): Promise<string> {
  return (
    await invitationsApi.request<SessionResponse>('/accept', {
      method: 'POST',
      body: { token, password },
    })
  ).data.token;
}
