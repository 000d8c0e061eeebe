import { useState } from 'react';
import { Banner, Button, Checkbox, CheckboxGroup, ConfirmationDialog, FormControl, Heading, Select, TextInput } from '@primer/react';
import {
  CHANNEL_EVENTS,
  CHANNEL_EVENT_LABELS,
  CHANNEL_KINDS,
  CHANNEL_KIND_LABELS,
  type Channel,
  type ChannelEventType,
  type ChannelKind,
} from '@cc/shared/schemas/notification-channels.ts';
import { serverDetail } from '../../../common/api-error.ts';
import { useSnackbar } from '../../../common/Snackbar.tsx';
import forms from '../../../common/forms.module.css';
import styles from './Channels.module.css';
import { useCreateChannelMutation, useDeleteChannelMutation, useListChannelsQuery, useTestChannelMutation, useUpdateChannelMutation } from './channelsApi.ts';

const URL_HINT: Record<ChannelKind, string> = {
  webhook: 'Your endpoint (https). Each request is signed; the secret is shown once, after you add the channel.',
  slack: 'The incoming webhook URL Slack gave you (https://hooks.slack.com/services/…).',
  teams: 'The URL of the Teams workflow "Post to a channel when a webhook request is received".',
};

/** The events a channel takes, as a group of checkboxes (Space toggles, Tab moves on). */
function EventChoice({ id, value, onChange }: { id: string; value: ChannelEventType[]; onChange: (events: ChannelEventType[]) => void }) {
  return (
    <CheckboxGroup id={id}>
      <CheckboxGroup.Label>Events</CheckboxGroup.Label>
      {CHANNEL_EVENTS.map((e) => (
        <FormControl key={e}>
          <Checkbox value={e} checked={value.includes(e)} onChange={(ev) => onChange(ev.target.checked ? [...value, e] : value.filter((x) => x !== e))} />
          <FormControl.Label>{CHANNEL_EVENT_LABELS[e]}</FormControl.Label>
        </FormControl>
      ))}
    </CheckboxGroup>
  );
}

function AddChannel({ customerId, onSecret }: { customerId: string; onSecret: (s: { name: string; secret: string }) => void }) {
  const { show } = useSnackbar();
  const [kind, setKind] = useState<ChannelKind>('webhook');
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<ChannelEventType[]>(['anomaly.found', 'alert.over_quota']);
  const [error, setError] = useState<string | null>(null);
  const [create, { isLoading }] = useCreateChannelMutation();
  return (
    <form
      aria-label="Add a notification channel"
      className={styles.form}
      onSubmit={async (e) => {
        e.preventDefault();
        if (events.length === 0) return setError('Choose at least one event');
        const result = await create({ customer: customerId, body: { kind, name: name.trim(), url: url.trim(), events } });
        if ('error' in result) return setError(serverDetail(result.error) ?? 'Error adding the channel');
        setError(null);
        setName('');
        setUrl('');
        show({ message: `Channel ${result.data.channel.name} added`, variant: 'success' });
        if (result.data.secret) onSecret({ name: result.data.channel.name, secret: result.data.secret });
      }}
    >
      <Heading as="h4" className={forms.panelTitle}>
        Add a channel
      </Heading>
      {error ? <Banner variant="critical" title="The channel was not added" description={error} /> : null}
      <FormControl required>
        <FormControl.Label>Kind</FormControl.Label>
        <Select value={kind} onChange={(e) => setKind(e.target.value as ChannelKind)}>
          {CHANNEL_KINDS.map((k) => (
            <Select.Option key={k} value={k}>
              {CHANNEL_KIND_LABELS[k]}
            </Select.Option>
          ))}
        </Select>
      </FormControl>
      <FormControl required>
        <FormControl.Label>Name</FormControl.Label>
        <TextInput value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
      </FormControl>
      <FormControl required>
        <FormControl.Label>URL</FormControl.Label>
        <TextInput type="url" value={url} autoComplete="off" spellCheck={false} onChange={(e) => setUrl(e.target.value)} block />
        <FormControl.Caption>{URL_HINT[kind]}</FormControl.Caption>
      </FormControl>
      <EventChoice id="new-channel-events" value={events} onChange={setEvents} />
      <Button type="submit" variant="primary" disabled={isLoading}>
        Add channel
      </Button>
    </form>
  );
}

function ChannelRow({ customerId, channel }: { customerId: string; channel: Channel }) {
  const { show } = useSnackbar();
  const [editing, setEditing] = useState(false);
  const [events, setEvents] = useState<ChannelEventType[]>(channel.events as ChannelEventType[]);
  const [confirming, setConfirming] = useState(false);
  const [testResult, setTestResult] = useState<string | null>(null);
  const [test, { isLoading: testing }] = useTestChannelMutation();
  const [update, { isLoading: saving }] = useUpdateChannelMutation();
  const [remove] = useDeleteChannelMutation();
  return (
    <li aria-label={`Channel ${channel.name}`} className={styles.item}>
      <p>
        <strong>{channel.name}</strong> · {CHANNEL_KIND_LABELS[channel.kind]} · {channel.host}
      </p>
      <p>Events: {channel.events.map((e) => CHANNEL_EVENT_LABELS[e as ChannelEventType] ?? e).join(', ')}</p>
      <p className={styles.subtle}>
        {channel.failed_deliveries > 0 ? `${channel.failed_deliveries} notice(s) not delivered. ` : ''}
        {channel.last_delivered_at ? `Last delivered ${new Date(channel.last_delivered_at).toLocaleString()}` : 'Nothing delivered yet'}
      </p>
      <div role="status" aria-live="polite">
        {testResult}
      </div>
      <div className={styles.actions}>
      <Button
        disabled={testing}
        onClick={async () => {
          const result = await test({ customer: customerId, channel: channel.id });
          setTestResult('error' in result ? (serverDetail(result.error) ?? 'The test could not be sent') : result.data.detail);
        }}
      >
        Send test
      </Button>
      <Button onClick={() => setEditing(!editing)} aria-expanded={editing}>
        Choose events
      </Button>
      <Button variant="danger" onClick={() => setConfirming(true)}>
        Delete
      </Button>
      </div>
      {editing ? (
        <form
          aria-label={`Events of ${channel.name}`}
          className={styles.form}
          onSubmit={async (e) => {
            e.preventDefault();
            if (events.length === 0) return show({ message: 'Choose at least one event', variant: 'error' });
            const result = await update({ customer: customerId, channel: channel.id, body: { events } });
            if ('error' in result) return show({ message: serverDetail(result.error) ?? 'Error saving the events', variant: 'error' });
            setEditing(false);
            show({ message: `Events of ${channel.name} saved`, variant: 'success' });
          }}
        >
          <EventChoice id={`events-${channel.id}`} value={events} onChange={setEvents} />
          <Button type="submit" disabled={saving}>
            Save events
          </Button>
        </form>
      ) : null}
      {confirming ? (
        <ConfirmationDialog
          title={`Delete channel ${channel.name}?`}
          confirmButtonContent="Delete"
          confirmButtonType="danger"
          onClose={async (gesture) => {
            setConfirming(false);
            if (gesture !== 'confirm') return;
            const result = await remove({ customer: customerId, channel: channel.id });
            show('error' in result ? { message: serverDetail(result.error) ?? 'Error deleting the channel', variant: 'error' } : { message: `Channel ${channel.name} deleted`, variant: 'success' });
          }}
        >
          Notices queued for it are not sent.
        </ConfirmationDialog>
      ) : null}
    </li>
  );
}

/**
 * Notification channels of a customer besides its e-mail lists: signed webhooks, Slack and Microsoft Teams, each
 * with the events it takes, a test, and a webhook's signing secret shown once after it is added.
 */
export function ChannelsPanel({ customerId }: { customerId: string }) {
  const { data, isError, error } = useListChannelsQuery(customerId);
  const [secret, setSecret] = useState<{ name: string; secret: string } | null>(null);
  return (
    <section className={forms.panel} aria-label="Notification channels">
      <Heading as="h3" className={forms.panelTitle}>
        Notification channels
      </Heading>
      <p>Besides e-mail, notices go to these webhooks, Slack and Microsoft Teams channels.</p>
      {isError ? <Banner variant="critical" title="Channels could not be loaded" description={serverDetail(error) ?? ''} /> : null}
      {secret ? (
        <Banner
          variant="warning"
          title={`Signing secret of ${secret.name}`}
          description={
            <>
              Copy it now: it is not shown again. Verify each request&apos;s X-CommandCenter-Signature with it.{' '}
              <code aria-label="Signing secret">{secret.secret}</code>
            </>
          }
          onDismiss={() => setSecret(null)}
        />
      ) : null}
      {data && data.items.length === 0 ? <p>No channel yet.</p> : null}
      <ul aria-label="Channels" className={styles.list}>
        {data?.items.map((c) => <ChannelRow key={`${c.id}-${c.events.join(',')}`} customerId={customerId} channel={c} />)}
      </ul>
      <AddChannel customerId={customerId} onSecret={setSecret} />
    </section>
  );
}
