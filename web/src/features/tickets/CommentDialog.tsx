import { useState, type ReactNode } from 'react';
import { Dialog, FormControl, Textarea } from '@primer/react';
import { LIMITS } from '@cc/shared/tickets/rules.ts';
import { TICKET_MESSAGES } from './ticket-rules.ts';

export interface CommentDialogProps {
  title: string;
  /** What is about to change, e.g. "Status: Open → In Progress". */
  children?: ReactNode;
  submitLabel: string;
  onSubmit: (comment: string) => Promise<boolean>;
  onClose: () => void;
}

/**
 * A dialog that asks for a comment before a change goes through (spec 000 §4: a status or priority
 * change requires one, 'This field is required'). `onSubmit` answers whether to close.
 */
export function CommentDialog({ title, children, submitLabel, onSubmit, onClose }: CommentDialogProps) {
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit() {
    if (!comment.trim()) {
      setError(TICKET_MESSAGES.required);
      document.getElementById('change-comment')?.focus();
      return;
    }
    setBusy(true);
    const done = await onSubmit(comment);
    setBusy(false);
    if (done) onClose();
  }

  return (
    <Dialog
      title={title}
      onClose={() => !busy && onClose()}
      footerButtons={[
        { content: 'Cancel', onClick: onClose, disabled: busy },
        { content: submitLabel, buttonType: 'primary', onClick: () => void submit(), loading: busy },
      ]}
    >
      {children}
      <FormControl required id="change-comment">
        <FormControl.Label>Comment</FormControl.Label>
        <Textarea
          block
          rows={5}
          value={comment}
          maxLength={LIMITS.comment}
          onChange={(e) => {
            setComment(e.target.value);
            if (e.target.value.trim()) setError(null);
          }}
          validationStatus={error ? 'error' : undefined}
        />
        {error ? <FormControl.Validation variant="error">{error}</FormControl.Validation> : null}
      </FormControl>
    </Dialog>
  );
}
