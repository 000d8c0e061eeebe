import { useMemo, useState, type FormEvent } from 'react';
import { Button, FormControl, Spinner, Textarea } from '@primer/react';
import { errorDetail } from '../../app/api.ts';
import { useSnackbar } from '../../common/Snackbar.tsx';
import { formatTicketDate } from './ticket-format.ts';
import { isFinished, MAX_COMMENT, TICKET_MESSAGES } from './ticket-rules.ts';
import { useAddCommentMutation, useGetCommentsQuery, type Ticket } from './ticketsApi.ts';
import { useTicketAccess } from './useTicketAccess.ts';
import styles from './tickets.module.css';

const time = (s: string) => Date.parse(s) || 0;

/** Comments newest first, with a form to add one while the ticket is open (spec 000 §2). */
export function CommentsSection({ ticket }: { ticket: Ticket }) {
  const id = ticket.jira_issue_key;
  const { email, canWrite } = useTicketAccess();
  const { data, isLoading } = useGetCommentsQuery(id);
  const comments = useMemo(() => [...(data ?? [])].sort((a, b) => time(b.date) - time(a.date)), [data]);
  const open = canWrite && !isFinished(ticket.status);

  return (
    <section className={styles.section} aria-labelledby="comments-title">
      <h2 id="comments-title" className={styles.sectionTitle}>
        Comments
      </h2>
      {open ? <AddComment ticketId={id} status={ticket.status} author={email} /> : null}
      {isLoading ? <Spinner size="small" srText="Loading comments" /> : null}
      {!isLoading && comments.length === 0 ? <p className={styles.muted}>No comments yet.</p> : null}
      <ol className={styles.comments} aria-label="Comments, newest first">
        {comments.map((c, i) => (
          <li key={`${c.date}-${i}`} className={styles.comment}>
            <div className={styles.commentHead}>
              <span className={styles.commentAuthor}>{c.author}</span>
              <span>{formatTicketDate(c.date)}</span>
              {c.previous_status && c.current_status && c.previous_status !== c.current_status ? (
                <span>
                  {c.previous_status} → {c.current_status}
                </span>
              ) : null}
            </div>
            <p className={styles.commentText}>{c.message}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}

function AddComment({ ticketId, status, author }: { ticketId: string; status: string; author: string }) {
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
    // A plain comment changes no status: previous and current are the ticket's status.
    const result = await addComment({
      id: ticketId,
      comment: { message, author, date: new Date().toISOString(), previous_status: status, current_status: status },
    });
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
          maxLength={MAX_COMMENT}
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
