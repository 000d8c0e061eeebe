import { api } from '../../app/api.ts';

export interface PasswordChange {
  current_password: string;
  new_password: string;
}

export const passwordApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The caller's own password; the api ends their other sessions and e-mails a notice. */
    changePassword: build.mutation<{ ended: number }, PasswordChange>({
      query: (body) => ({ url: '/v1/auth/password', method: 'POST', body }),
    }),
  }),
});

export const { useChangePasswordMutation } = passwordApi;
