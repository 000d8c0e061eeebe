import { useState, type FormEvent } from 'react';
import { Banner, Button, FormControl, Radio, RadioGroup, Textarea, TextInput } from '@primer/react';
import { useLocation } from 'wouter';
import type { PageProps } from '../../app/route-types.ts';
import { errorDetail } from '../../common/api-error.ts';
import { useAppSelector } from '../../app/hooks.ts';
import { Page } from '../../common/Page.tsx';
import { useSelectedCustomer } from '../../app/selection/useCustomerContext.ts';
import { AttachmentDropZone } from './AttachmentDropZone.tsx';
import { useUploadFiles } from './attachment-transfer.ts';
import { readPrefill } from './prefill.ts';
import { LIMITS, PRIORITY_MEANINGS, TICKET_PRIORITIES } from '@cc/shared/tickets/rules.ts';
import { useCreateTicketMutation } from './ticketsApi.ts';
import { validateTicket, type TicketDraftErrors } from './validate-ticket.ts';
import styles from './tickets.module.css';

const LIST_PATH = '/supportrequest';

/** A v4 UUID; `crypto.randomUUID` exists only in secure contexts (https or localhost). */
function newTicketId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** A new support ticket: Summary, Priority, Description and up to 10 attachments (spec 000 §2). */
export function NewTicketPage({ route }: PageProps) {
  const [, navigate] = useLocation();
  const email = useAppSelector((s) => s.session.claims?.email ?? '');
  const { selected } = useSelectedCustomer();
  // Read once: the inventory and recommendation screens pass their selection as route state.
  const [prefill] = useState(() => readPrefill(window.history.state));
  const [summary, setSummary] = useState(prefill.summary);
  const [priority, setPriority] = useState('');
  const [description, setDescription] = useState(prefill.description);
  const [files, setFiles] = useState<File[]>([]);
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  // One id per page: a save retried after a network failure finds the ticket the first try made.
  const [ticketId] = useState(newTicketId);
  const [serverError, setServerError] = useState<string | null>(null);
  const uploadFiles = useUploadFiles();
  const [createTicket] = useCreateTicketMutation();

  const draft = { summary, priority, description };
  const errors: TicketDraftErrors = submitted ? validateTicket(draft) : {};

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    setServerError(null);
    const found = validateTicket(draft);
    const first = (['summary', 'priority', 'description'] as const).find((f) => found[f]);
    if (first) {
      document.getElementById(first === 'priority' ? 'ticket-priority-P1' : `ticket-${first}`)?.focus();
      return;
    }
    if (!selected) return;
    setBusy(true);
    try {
      const attachments = await uploadFiles(files);
      const result = await createTicket({
        id: ticketId,
        summary: summary.trim(),
        creation_date: new Date().toISOString(),
        creation_by: email,
        description,
        priority,
        customer: selected.id,
        attachments,
      });
      if ('error' in result) throw new Error(errorDetail(result.error) ?? 'Error saving ticket');
      navigate(LIST_PATH);
    } catch (error) {
      setServerError(error instanceof Error ? error.message : String(error));
      setBusy(false);
    }
  }

  return (
    <Page title={route.title} subtitle={selected ? `for ${selected.name}` : undefined}>
      {serverError ? (
        <div role="alert">
          <Banner variant="critical" title="The ticket was not saved" description={serverError} />
        </div>
      ) : null}
      <form className={styles.form} onSubmit={onSubmit} noValidate aria-label="New ticket">
        <FormControl required id="ticket-summary">
          <FormControl.Label>Summary</FormControl.Label>
          <TextInput
            block
            value={summary}
            maxLength={LIMITS.summary}
            onChange={(e) => setSummary(e.target.value)}
            validationStatus={errors.summary ? 'error' : undefined}
          />
          <FormControl.Caption>
            {summary.length} / {LIMITS.summary}
          </FormControl.Caption>
          {errors.summary ? <FormControl.Validation variant="error">{errors.summary}</FormControl.Validation> : null}
        </FormControl>

        <RadioGroup name="priority" required onChange={(value) => setPriority(value ?? '')}>
          <RadioGroup.Label>Priority</RadioGroup.Label>
          {TICKET_PRIORITIES.map((p) => (
            <FormControl key={p} id={`ticket-priority-${p}`}>
              <Radio value={p} checked={priority === p} />
              <FormControl.Label>{p}</FormControl.Label>
              <FormControl.Caption>{PRIORITY_MEANINGS[p]}</FormControl.Caption>
            </FormControl>
          ))}
          {errors.priority ? <RadioGroup.Validation variant="error">{errors.priority}</RadioGroup.Validation> : null}
        </RadioGroup>

        <FormControl required id="ticket-description">
          <FormControl.Label>Description</FormControl.Label>
          <Textarea
            block
            rows={10}
            resize="vertical"
            value={description}
            maxLength={LIMITS.description}
            onChange={(e) => setDescription(e.target.value)}
            validationStatus={errors.description ? 'error' : undefined}
          />
          <FormControl.Caption>
            {description.length.toLocaleString('en-GB')} / {LIMITS.description.toLocaleString('en-GB')}
          </FormControl.Caption>
          {errors.description ? <FormControl.Validation variant="error">{errors.description}</FormControl.Validation> : null}
        </FormControl>

        <AttachmentDropZone label="Attachments" files={files} onChange={setFiles} max={LIMITS.attachmentsPerTicket} disabled={busy} />

        <div className={styles.actions}>
          <Button type="submit" variant="primary" loading={busy}>
            Save
          </Button>
          <Button disabled={busy} onClick={() => navigate(LIST_PATH)}>
            Cancel
          </Button>
        </div>
      </form>
    </Page>
  );
}
