import { useState, type FormEvent } from 'react';
import { Banner, Button, FormControl, Radio, RadioGroup, Textarea, TextInput } from '@primer/react';
import { useLocation } from 'wouter';
import type { PageProps } from '../../app/routes.ts';
import { errorDetail } from '../../app/api.ts';
import { useAppSelector } from '../../app/hooks.ts';
import { Page } from '../../common/Page.tsx';
import { useSelectedCustomer } from '../customers/useCustomerContext.ts';
import { AttachmentDropZone } from './AttachmentDropZone.tsx';
import { useUploadFiles } from './attachment-transfer.ts';
import { readPrefill } from './prefill.ts';
import { MAX_ATTACHMENTS, MAX_DESCRIPTION, MAX_SUMMARY, PRIORITIES } from './ticket-rules.ts';
import { useCreateTicketMutation } from './ticketsApi.ts';
import { validateTicket, type TicketDraftErrors } from './validate-ticket.ts';
import styles from './tickets.module.css';

const LIST_PATH = '/supportrequest';

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
            maxLength={MAX_SUMMARY}
            onChange={(e) => setSummary(e.target.value)}
            validationStatus={errors.summary ? 'error' : undefined}
          />
          <FormControl.Caption>
            {summary.length} / {MAX_SUMMARY}
          </FormControl.Caption>
          {errors.summary ? <FormControl.Validation variant="error">{errors.summary}</FormControl.Validation> : null}
        </FormControl>

        <RadioGroup name="priority" required onChange={(value) => setPriority(value ?? '')}>
          <RadioGroup.Label>Priority</RadioGroup.Label>
          {PRIORITIES.map((p) => (
            <FormControl key={p.name} id={`ticket-priority-${p.name}`}>
              <Radio value={p.name} checked={priority === p.name} />
              <FormControl.Label>{p.name}</FormControl.Label>
              <FormControl.Caption>{p.meaning}</FormControl.Caption>
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
            maxLength={MAX_DESCRIPTION}
            onChange={(e) => setDescription(e.target.value)}
            validationStatus={errors.description ? 'error' : undefined}
          />
          <FormControl.Caption>
            {description.length.toLocaleString('en-GB')} / {MAX_DESCRIPTION.toLocaleString('en-GB')}
          </FormControl.Caption>
          {errors.description ? <FormControl.Validation variant="error">{errors.description}</FormControl.Validation> : null}
        </FormControl>

        <AttachmentDropZone label="Attachments" files={files} onChange={setFiles} max={MAX_ATTACHMENTS} disabled={busy} />

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
