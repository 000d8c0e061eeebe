import type { InvitationInfo } from '@cc/shared/schemas/invitations.ts';
import { api } from '../../app/api.ts';

/** The invitation link's token is the credential: these calls need no sign-in. */
export const invitationsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getInvitation: build.query<InvitationInfo, string>({
      query: (token) => `/v1/invitations/${encodeURIComponent(token)}`,
    }),
    acceptInvitation: build.mutation<InvitationInfo, { token: string; password: string }>({
      query: ({ token, password }) => ({ url: `/v1/invitations/${encodeURIComponent(token)}`, method: 'POST', body: { password } }),
    }),
  }),
});

export const { useGetInvitationQuery, useAcceptInvitationMutation } = invitationsApi;
