import type { Claims } from '@cc/shared/claims.ts';
import { api } from '../../app/api.ts';
import { tokenIssued } from './sessionSlice.ts';

/** Answer of login and refresh. */
export interface TokenAnswer {
  token: string;
  expires_in: number;
  claims: Claims | null;
}

export interface Credentials {
  email: string;
  password: string;
}

export const sessionApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<TokenAnswer, Credentials>({
      query: (body) => ({ url: '/v1/auth/login', method: 'POST', body }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(tokenIssued({ token: data.token, claims: data.claims }));
      },
    }),
    /** New token with the current claims; also how the app re-checks claims (spec 001 §4, 000 §2). */
    refreshToken: build.mutation<TokenAnswer, void>({
      query: () => ({ url: '/v1/auth/refresh', method: 'POST' }),
      async onQueryStarted(_arg, { dispatch, getState, queryFulfilled }) {
        const tokenOf = () => (getState() as unknown as { session: { token: string | null } }).session.token;
        const sentWith = tokenOf();
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        // A sign-out while the refresh was in flight wins: do not sign the user back in.
        if (data && sentWith && tokenOf() === sentWith) dispatch(tokenIssued({ token: data.token, claims: data.claims }));
      },
    }),
    /** Revokes the token. Takes it explicitly: the session may already be cleared when this runs. */
    logout: build.mutation<void, { token: string }>({
      query: ({ token }) => ({ url: '/v1/auth/logout', method: 'POST', headers: { authorization: `Bearer ${token}` } }),
    }),
    /** Initialises the caller's claims from their role (spec 000 §7). */
    setClaims: build.mutation<{ user_id: string; claims: unknown }, void>({
      query: () => ({ url: '/v1/customers/set_claims/', method: 'POST' }),
    }),
  }),
});

export const { useLoginMutation, useRefreshTokenMutation, useLogoutMutation, useSetClaimsMutation } = sessionApi;
