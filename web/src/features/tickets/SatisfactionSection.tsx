import { useState } from 'react';
import { Button, Dialog, FormControl, Label, Radio, RadioGroup, Textarea } from '@primer/react';
import { errorDetail } from '../../common/api-error.ts';
import { useSnackbar } from '../../common/Snackbar.tsx';
import { LIMITS, SATISFACTION_SCALE } from '@cc/shared/tickets/rules.ts';
import { formatTicketDate } from './ticket-dates.ts';
import { satisfactionVariant, TICKET_MESSAGES } from './ticket-rules.ts';
import { SatisfactionLabel } from './TicketLabels.tsx';
import type { TicketDetail } from '@cc/shared/schemas/tickets.ts';
import { useSetSatisfactionMutation } from './ticketsApi.ts';
import { useTicketAccess } from './useTicketAccess.ts';
import styles from './tickets.module.css';

/**
 * Customer satisfaction of a Closed ticket (spec 000 §4): the score and its comment, or 'To be
 * provided' with Provide Feedback (given once, never by an admin).
 */
export function SatisfactionSection({ ticket }: { ticket: TicketDetail }) {
  const { admin, canWrite } = useTicketAccess();
  const [giving, setGiving] = useState(false);
  const score = ticket.customer_satisfaction_score;
  const given = typeof score === 'number' && score > 0;
  const comment = ticket.customer_satisfaction_comment;
  return (
    <section className={styles.section} aria-labelledby="satisfaction-title">
      <div className={styles.sectionHead}>
        <h2 id="satisfaction-title" className={styles.sectionTitle}>
          Customer Satisfaction
        </h2>
        {!given ? (
          <Button size="small" disabled={admin || !canWrite} onClick={() => setGiving(true)}>
            Provide Feedback
          </Button>
        ) : null}
      </div>
      <div>
        <SatisfactionLabel score={score} status="Closed" />
      </div>
      {given && comment?.message ? (
        <div className={styles.comment}>
          <div className={styles.commentHead}>
            <span className={styles.commentAuthor}>{comment.author}</span>
            <span>{formatTicketDate(comment.date)}</span>
          </div>
          <p className={styles.commentText}>{comment.message}</p>
        </div>
      ) : null}
      {giving ? <FeedbackDialog ticketId={ticket.id} onClose={() => setGiving(false)} /> : null}
    </section>
  );
}

const SCORES = [1, 2, 3, 4, 5] as const;

function FeedbackDialog({ ticketId, onClose }: { ticketId: string; onClose: () => void }) {
  const { email } = useTicketAccess();
  const { show } = useSnackbar();
  const [score, setScore] = useState(0);
  const [message, setMessage] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [setSatisfaction, { isLoading }] = useSetSatisfactionMutation();
  const scoreError = submitted && !score ? TICKET_MESSAGES.selectScore : null;
  const messageError = submitted && !message.trim() ? TICKET_MESSAGES.required : null;

  async function submit() {
    setSubmitted(true);
    if (!score || !message.trim()) return;
    const result = await setSatisfaction({ id: ticketId, score, message, author: email });
    if ('error' in result) {
      setServerError(errorDetail(result.error) ?? 'The feedback was not saved');
      return;
    }
    show({ message: TICKET_MESSAGES.satisfactionSaved, variant: 'success' });
    onClose();
  }

  return (
    <Dialog
      title="Provide Feedback"
      onClose={() => !isLoading && onClose()}
      footerButtons={[
        { content: 'Cancel', onClick: onClose, disabled: isLoading },
        { content: 'Save', buttonType: 'primary', onClick: () => void submit(), loading: isLoading },
      ]}
    >
      <div className={styles.form}>
        <RadioGroup name="satisfaction-score" required onChange={(value) => setScore(Number(value ?? 0))}>
          <RadioGroup.Label>Satisfaction score</RadioGroup.Label>
          {SCORES.map((s) => (
            <FormControl key={s}>
              <Radio value={String(s)} checked={score === s} />
              <FormControl.Label>
                <Label variant={satisfactionVariant(s)}>{s}</Label> {SATISFACTION_SCALE[s]}
              </FormControl.Label>
            </FormControl>
          ))}
          {scoreError ? <RadioGroup.Validation variant="error">{scoreError}</RadioGroup.Validation> : null}
        </RadioGroup>
        <FormControl required id="satisfaction-comment">
          <FormControl.Label>Comment</FormControl.Label>
          <Textarea block rows={4} value={message} maxLength={LIMITS.comment} onChange={(e) => setMessage(e.target.value)} />
          {messageError ? <FormControl.Validation variant="error">{messageError}</FormControl.Validation> : null}
        </FormControl>
        {serverError ? (
          <p role="alert" className={styles.problems}>
            {serverError}
          </p>
        ) : null}
      </div>
    </Dialog>
  );
}
