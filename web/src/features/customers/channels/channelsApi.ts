import type { Channel, ChannelCreate, ChannelCreated, ChannelList, ChannelTestResult, ChannelUpdate } from '@cc/shared/schemas/notification-channels.ts';
import { api } from '../../../app/api.ts';

/** A customer's notification channels (routes in shared/src/schemas/notification-channels.ts). */
const tag = (id: string) => ({ type: 'Customer' as const, id: `${id}/channels` });
const path = (id: string, channel?: string) => `/v1/customers/${encodeURIComponent(id)}/channels/${channel ? `${encodeURIComponent(channel)}/` : ''}`;

export const channelsApi = api.injectEndpoints({
  endpoints: (build) => ({
    listChannels: build.query<ChannelList, string>({
      query: (id) => path(id),
      providesTags: (_r, _e, id) => [tag(id)],
    }),
    createChannel: build.mutation<ChannelCreated, { customer: string; body: ChannelCreate }>({
      query: ({ customer, body }) => ({ url: path(customer), method: 'POST', body }),
      invalidatesTags: (_r, _e, { customer }) => [tag(customer)],
    }),
    updateChannel: build.mutation<Channel, { customer: string; channel: string; body: ChannelUpdate }>({
      query: ({ customer, channel, body }) => ({ url: path(customer, channel), method: 'PATCH', body }),
      invalidatesTags: (_r, _e, { customer }) => [tag(customer)],
    }),
    deleteChannel: build.mutation<null, { customer: string; channel: string }>({
      query: ({ customer, channel }) => ({ url: path(customer, channel), method: 'DELETE' }),
      invalidatesTags: (_r, _e, { customer }) => [tag(customer)],
    }),
    testChannel: build.mutation<ChannelTestResult, { customer: string; channel: string }>({
      query: ({ customer, channel }) => ({ url: `${path(customer, channel)}test/`, method: 'POST' }),
      invalidatesTags: (_r, _e, { customer }) => [tag(customer)],
    }),
  }),
});

export const { useListChannelsQuery, useCreateChannelMutation, useUpdateChannelMutation, useDeleteChannelMutation, useTestChannelMutation } = channelsApi;
