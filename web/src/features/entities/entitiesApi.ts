import type { Entity, EntityInput } from '@cc/shared/schemas/entities.ts';
import { api } from '../../app/api.ts';

const LIST = { type: 'Entity' as const, id: 'LIST' };

export const entitiesApi = api.injectEndpoints({
  endpoints: (build) => ({
    listEntities: build.query<Entity[], void>({
      query: () => '/v1/entities/',
      providesTags: (result) => [LIST, ...(result ?? []).map((e) => ({ type: 'Entity' as const, id: e.id }))],
    }),
    getEntity: build.query<Entity, string>({
      query: (id) => `/v1/entities/${encodeURIComponent(id)}/`,
      providesTags: (_r, _e, id) => [{ type: 'Entity', id }],
    }),
    createEntity: build.mutation<Entity, EntityInput>({
      query: (body) => ({ url: '/v1/entities/', method: 'POST', body }),
      invalidatesTags: [LIST],
    }),
    updateEntity: build.mutation<Entity, { id: string } & EntityInput>({
      query: ({ id, ...body }) => ({ url: `/v1/entities/${encodeURIComponent(id)}/`, method: 'PUT', body }),
      invalidatesTags: (_r, _e, { id }) => [LIST, { type: 'Entity', id }],
    }),
    changeEntityAdmins: build.mutation<Entity, { id: string; action: 'add' | 'remove'; admins: string[] }>({
      query: ({ id, action, admins }) => ({
        url: `/v1/entities/${encodeURIComponent(id)}/admins/`,
        method: action === 'add' ? 'POST' : 'DELETE',
        body: { admins },
      }),
      invalidatesTags: (_r, _e, { id }) => [LIST, { type: 'Entity', id }, { type: 'User', id: 'LIST' }],
    }),
  }),
});

export const { useListEntitiesQuery, useGetEntityQuery, useCreateEntityMutation, useUpdateEntityMutation, useChangeEntityAdminsMutation } =
  entitiesApi;
