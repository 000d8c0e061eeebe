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
        // The token in the answer is for API clients; the browser already holds it as an httpOnly cookie.
        if (data) dispatch(tokenIssued({ claims: data.claims, expiresIn: data.expires_in }));
      },
    }),
    /** New token with the current claims; also how the app re-checks claims (spec 001 §4, 000 §2). */
    refreshToken: build.mutation<TokenAnswer, void>({
      query: () => ({ url: '/v1/auth/refresh', method: 'POST' }),
      async onQueryStarted(_arg, { dispatch, getState, queryFulfilled }) {
        const epochOf = () => (getState() as unknown as { session: { epoch: number } }).session.epoch;
        const sentIn = epochOf();
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        // A sign-out while the refresh was in flight wins: do not sign the user back in.
        if (data && epochOf() === sentIn) dispatch(tokenIssued({ claims: data.claims, expiresIn: data.expires_in }));
      },
    }),
    /** Ends this sign-in's session (every token refreshed from it) and clears the cookie. */
    logout: build.mutation<void, void>({
      query: () => ({ url: '/v1/auth/logout', method: 'POST' }),
    }),
    /** Sign out everywhere: ends every session of the user, on every device. */
    signOutEverywhere: build.mutation<{ ended: number }, void>({
      query: () => ({ url: '/v1/auth/sessions', method: 'DELETE' }),
    }),
    /** Initialises the caller's claims from their role (spec 000 §7). */
    setClaims: build.mutation<{ user_id: string; claims: unknown }, void>({
      query: () => ({ url: '/v1/customers/set_claims/', method: 'POST' }),
    }),
  }),
});

export const { useLoginMutation, useRefreshTokenMutation, useLogoutMutation, useSignOutEverywhereMutation, useSetClaimsMutation } = sessionApi;
