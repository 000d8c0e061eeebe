import { useState, type FormEvent } from 'react';
import { Button, FormControl, Textarea, TextInput } from '@primer/react';
import { MESSAGES } from '@cc/shared/constants.ts';
import type { EntityInput } from '@cc/shared/schemas/entities.ts';
import styles from '../../common/forms.module.css';

export interface EntityFormProps {
  initial: Required<EntityInput>;
  submitLabel: string;
  busy: boolean;
  onSubmit: (value: Required<EntityInput>) => void;
  onCancel: () => void;
}

/** Name (required) and Email domain allowed (multiline) (spec 001 §2.6, §5). */
export function EntityForm({ initial, submitLabel, busy, onSubmit, onCancel }: EntityFormProps) {
  const [name, setName] = useState(initial.name);
  const [domains, setDomains] = useState(initial.email_domain_allowed);
  const [submitted, setSubmitted] = useState(false);
  const nameError = submitted && !name.trim() ? MESSAGES.required : undefined;

  function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (!name.trim()) {
      document.getElementById('entity-name')?.focus();
      return;
    }
    onSubmit({ name: name.trim(), email_domain_allowed: domains });
  }

  return (
    <form className={styles.form} onSubmit={submit} noValidate aria-label="Entity Info">
      <FormControl required id="entity-name">
        <FormControl.Label>Name</FormControl.Label>
        <TextInput block value={name} onChange={(e) => setName(e.target.value)} validationStatus={nameError ? 'error' : undefined} />
        {nameError ? <FormControl.Validation variant="error">{nameError}</FormControl.Validation> : null}
      </FormControl>
      <FormControl id="entity-domains">
        <FormControl.Label>Email domain allowed</FormControl.Label>
        <Textarea block rows={4} value={domains} onChange={(e) => setDomains(e.target.value)} />
        <FormControl.Caption>One domain per line, e.g. example.com</FormControl.Caption>
      </FormControl>
      <div className={styles.buttons}>
        <Button type="submit" variant="primary" loading={busy}>
          {submitLabel}
        </Button>
        <Button onClick={onCancel}>Cancel</Button>
      </div>
    </form>
  );
}
