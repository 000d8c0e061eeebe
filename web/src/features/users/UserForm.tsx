import { useMemo, useState, type FormEvent } from 'react';
import { Button, FormControl, Select, TextInput } from '@primer/react';
import { ROLES, ROLE_LABELS, type Role } from '@cc/shared/permissions.ts';
import { useListCustomersQuery } from '../customers/customersApi.ts';
import { useListEntitiesQuery } from '../entities/entitiesApi.ts';
import { TransferList, type TransferCustomer } from './TransferList.tsx';
import type { UserFormErrors } from './user-form.ts';
import styles from '../../common/forms.module.css';

export interface UserFormValue {
  role: string;
  emails: string;
  customers: string[];
}

export interface UserFormProps {
  mode: 'new' | 'update';
  initial: UserFormValue;
  validate: (value: UserFormValue) => UserFormErrors;
  busy: boolean;
  onSubmit: (value: UserFormValue & { role: Role }) => void;
  onCancel: () => void;
}

/** Every customer, grouped by entity name ('No Entity' when none), for the transfer list. */
function useTransferCustomers(): TransferCustomer[] {
  const { data: customers } = useListCustomersQuery();
  const { data: entities } = useListEntitiesQuery();
  return useMemo(
    () =>
      (customers ?? []).map((c) => ({
        id: c.customer_id,
        name: c.customer_name,
        group: entities?.find((e) => e.id === c.entity)?.name ?? 'No Entity',
      })),
    [customers, entities],
  );
}

/** Role, e-mail(s) and customer access (spec 001 §2.7, §5). */
export function UserForm({ mode, initial, validate, busy, onSubmit, onCancel }: UserFormProps) {
  const customers = useTransferCustomers();
  const [value, setValue] = useState(initial);
  const [submitted, setSubmitted] = useState(false);
  const errors = submitted ? validate(value) : {};

  function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    const found = validate(value);
    if (found.role || found.emails || found.customers) {
      document.getElementById(found.role ? 'user-role' : found.emails ? 'user-emails' : 'user-customers')?.focus();
      return;
    }
    onSubmit({ ...value, role: value.role as Role });
  }

  return (
    <form className={styles.form} style={{ maxWidth: '56rem' }} onSubmit={submit} noValidate aria-label={mode === 'new' ? 'New Users' : 'Update User'}>
      <FormControl required id="user-role">
        <FormControl.Label>Role</FormControl.Label>
        <Select value={value.role} onChange={(e) => setValue((v) => ({ ...v, role: e.target.value }))} validationStatus={errors.role ? 'error' : undefined}>
          <Select.Option value="">Choose a role</Select.Option>
          {ROLES.map((r) => (
            <Select.Option key={r} value={r}>
              {ROLE_LABELS[r]}
            </Select.Option>
          ))}
        </Select>
        {errors.role ? <FormControl.Validation variant="error">{errors.role}</FormControl.Validation> : null}
      </FormControl>
      <FormControl required id="user-emails">
        <FormControl.Label>{mode === 'new' ? 'Emails' : 'Email'}</FormControl.Label>
        <TextInput
          block
          type={mode === 'new' ? 'text' : 'email'}
          autoComplete="off"
          value={value.emails}
          onChange={(e) => setValue((v) => ({ ...v, emails: e.target.value }))}
          validationStatus={errors.emails ? 'error' : undefined}
        />
        {errors.emails ? (
          <FormControl.Validation variant="error">{errors.emails}</FormControl.Validation>
        ) : mode === 'new' ? (
          <FormControl.Caption>Several e-mails separated by commas</FormControl.Caption>
        ) : null}
      </FormControl>
      <div id="user-customers" tabIndex={-1}>
        <TransferList
          customers={customers}
          granted={value.customers}
          onGrantedChange={(ids) => setValue((v) => ({ ...v, customers: ids }))}
          error={errors.customers}
        />
      </div>
      <div className={styles.buttons}>
        <Button type="submit" variant="primary" loading={busy}>
          {mode === 'new' ? 'Invite' : 'Update'}
        </Button>
        <Button onClick={onCancel}>Cancel</Button>
      </div>
    </form>
  );
}
