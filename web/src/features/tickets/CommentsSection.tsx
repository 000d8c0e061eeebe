import { useMemo, useState, type FormEvent } from 'react';
import { Button, FormControl, Spinner, Textarea } from '@primer/react';
import { errorDetail } from '../../common/api-error.ts';
import { useSnackbar } from '../../common/Snackbar.tsx';
import { isFinal, LIMITS } from '@cc/shared/tickets/rules.ts';
import { formatTicketDate } from './ticket-dates.ts';
import { TICKET_MESSAGES } from './ticket-rules.ts';
import type { TicketDetail } from '@cc/shared/schemas/tickets.ts';
import { useAddCommentMutation, useGetCommentsQuery } from './ticketsApi.ts';
import { useTicketAccess } from './useTicketAccess.ts';
import styles from './tickets.module.css';

const time = (s: string) => Date.parse(s) || 0;

/** Comments newest first, with a form to add one while the ticket is open (spec 000 §2). */
export function CommentsSection({ ticket }: { ticket: TicketDetail }) {
  const id = ticket.id;
  const { email, canWrite } = useTicketAccess();
  const { data, isLoading } = useGetCommentsQuery(id);
  const comments = useMemo(() => [...(data ?? [])].sort((a, b) => time(b.date) - time(a.date)), [data]);
  const open = canWrite && !isFinal(ticket.status);

  return (
    <section className={styles.section} aria-labelledby="comments-title">
      <h2 id="comments-title" className={styles.sectionTitle}>
        Comments
      </h2>
      {open ? <AddComment ticketId={id} author={email} /> : null}
      {isLoading ? <Spinner size="small" srText="Loading comments" /> : null}
      {!isLoading && comments.length === 0 ? <p className={styles.muted}>No comments yet.</p> : null}
      <ol className={styles.comments} aria-label="Comments, newest first">
        {comments.map((c, i) => (
          <li key={`${c.date}-${i}`} className={styles.comment}>
            <div className={styles.commentHead}>
              <span className={styles.commentAuthor}>{c.author}</span>
              <span>{formatTicketDate(c.date)}</span>
              <ChangeNote from={c.previous_status} to={c.current_status} />
              <ChangeNote from={c.previous_priority} to={c.current_priority} />
            </div>
            <p className={styles.commentText}>{c.message}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** "Open → In Progress" on a comment that came with a change. */
function ChangeNote({ from, to }: { from?: string | null; to?: string | null }) {
  if (!from || !to || from === to) return null;
  return (
    <span>
      {from} → {to}
    </span>
  );
}

function AddComment({ ticketId, author }: { ticketId: string; author: string }) {
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [addComment, { isLoading }] = useAddCommentMutation();
  const { show } = useSnackbar();

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!message.trim()) {
      setError(TICKET_MESSAGES.required);
      return;
    }
    setError(null);
    const result = await addComment({ id: ticketId, comment: { message, author, date: new Date().toISOString() } });
    if ('error' in result) {
      setError(errorDetail(result.error) ?? 'The comment was not saved');
      return;
    }
    setMessage('');
    show({ message: TICKET_MESSAGES.commentSaved, variant: 'success' });
  }

  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate aria-label="Add comment">
      <FormControl id="new-comment">
        <FormControl.Label>New comment</FormControl.Label>
        <Textarea
          block
          rows={3}
          resize="vertical"
          value={message}
          maxLength={LIMITS.comment}
          onChange={(e) => setMessage(e.target.value)}
          validationStatus={error ? 'error' : undefined}
        />
        {error ? <FormControl.Validation variant="error">{error}</FormControl.Validation> : null}
      </FormControl>
      <div className={styles.actions}>
        <Button type="submit" loading={isLoading}>
          Add comment
        </Button>
      </div>
    </form>
  );
}
