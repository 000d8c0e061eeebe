import type {
  AdminUser,
  DeleteUsersAnswer,
  InvitationSent,
  InviteAnswer,
  InviteBody,
  UserListQuery,
  UserPage,
  UserUpdate,
} from '@cc/shared/schemas/users.ts';
import { api } from '../../app/api.ts';

/** Spec 001 §9: the user table shows 100 rows a page. */
export const USER_PAGE_SIZE = 100;
/** The api's largest page: pick lists load every user in one call up to this many. */
export const ALL_USERS_PAGE_SIZE = 500;

const LIST = { type: 'User' as const, id: 'LIST' };

export const usersApi = api.injectEndpoints({
  endpoints: (build) => ({
    listUsers: build.query<UserPage, UserListQuery>({
      query: ({ page = 0, page_size = USER_PAGE_SIZE, q }) => ({ url: '/v1/users/', params: { page, page_size, ...(q ? { q } : {}) } }),
      providesTags: (result) => [LIST, ...(result?.users ?? []).map((u) => ({ type: 'User' as const, id: u.id }))],
    }),
    getUser: build.query<AdminUser, string>({
      query: (id) => `/v1/users/${encodeURIComponent(id)}/`,
      providesTags: (_r, _e, id) => [{ type: 'User', id }],
    }),
    inviteUsers: build.mutation<InviteAnswer, Required<InviteBody>>({
      query: (body) => ({ url: '/v1/users/', method: 'POST', body }),
      invalidatesTags: [LIST, 'Customer', { type: 'Entity', id: 'LIST' }],
    }),
    updateUser: build.mutation<AdminUser, { id: string } & Required<UserUpdate>>({
      query: ({ id, ...body }) => ({ url: `/v1/users/${encodeURIComponent(id)}/`, method: 'PUT', body }),
      invalidatesTags: (_r, _e, { id }) => [LIST, { type: 'User', id }, 'Customer', 'Entity'],
    }),
    deleteUsers: build.mutation<DeleteUsersAnswer, string[]>({
      query: (users) => ({ url: '/v1/users/', method: 'DELETE', body: { users } }),
      invalidatesTags: [LIST, 'Customer', 'Entity'],
    }),
    resendInvitation: build.mutation<InvitationSent, string>({
      query: (id) => ({ url: `/v1/users/${encodeURIComponent(id)}/invitation/`, method: 'POST' }),
    }),
    /** Ends every session of the user: they are signed out on every device at their next request. */
    endUserSessions: build.mutation<{ email: string; ended: number }, string>({
      query: (id) => ({ url: `/v1/users/${encodeURIComponent(id)}/sessions/`, method: 'DELETE' }),
    }),
  }),
});

export const {
  useListUsersQuery,
  useGetUserQuery,
  useInviteUsersMutation,
  useUpdateUserMutation,
  useDeleteUsersMutation,
  useResendInvitationMutation,
  useEndUserSessionsMutation,
} = usersApi;

/** Every user's e-mail, for the add-user pick lists. */
export function useAllUserIds(): string[] {
  const { data } = useListUsersQuery({ page: 0, page_size: ALL_USERS_PAGE_SIZE });
  return (data?.users ?? []).filter((u) => u.role !== null).map((u) => u.id);
}
