import { useState, type FormEvent } from 'react';
import { Banner, Dialog, FormControl, TextInput } from '@primer/react';
import { MESSAGES } from '@cc/shared/constants.ts';
import { errorDetail } from '../../common/api-error.ts';
import { useSnackbar } from '../../common/Snackbar.tsx';
import { validateNewPassword, type PasswordErrors } from '../invitations/validate-password.ts';
import { useChangePasswordMutation } from './passwordApi.ts';
import formStyles from '../../common/forms.module.css';

const FORM_ID = 'change-password-form';

/** The signed-in user's own password: the current one, the new one typed twice. Other devices are signed out. */
export function ChangePasswordDialog({ onClose }: { onClose: () => void }) {
  const [change, { isLoading }] = useChangePasswordMutation();
  const { show } = useSnackbar();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const currentError = submitted && !current ? MESSAGES.required : undefined;
  const errors: PasswordErrors = submitted ? validateNewPassword(password, confirm) : {};

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    setServerError(null);
    const found = validateNewPassword(password, confirm);
    if (!current || found.password || found.confirm) return;
    const result = await change({ current_password: current, new_password: password });
    if ('error' in result) {
      setServerError(errorDetail(result.error) ?? 'Could not change the password');
      return;
    }
    const ended = result.data.ended;
    show({ message: ended ? `Password changed; ${ended} other sign-in${ended === 1 ? '' : 's'} ended` : 'Password changed', variant: 'success' });
    onClose();
  }

  return (
    <Dialog
      title="Change password"
      onClose={onClose}
      footerButtons={[
        { content: 'Cancel', onClick: onClose },
        // Outside the form element, tied to it by `form`: a click or Enter in a field submits it.
        { content: 'Change password', buttonType: 'primary', type: 'submit', form: FORM_ID, loading: isLoading, disabled: isLoading },
      ]}
    >
      <form id={FORM_ID} className={formStyles.form} onSubmit={onSubmit} noValidate aria-label="Change password">
        {serverError ? (
          <div role="alert">
            <Banner variant="critical" title={serverError} layout="compact" />
          </div>
        ) : null}
        <PasswordField id="current-password" label="Current password" autoComplete="current-password" value={current} onChange={setCurrent} error={currentError} />
        <PasswordField id="new-password" label="New password" autoComplete="new-password" value={password} onChange={setPassword} error={errors.password} />
        <PasswordField id="confirm-password" label="Confirm new password" autoComplete="new-password" value={confirm} onChange={setConfirm} error={errors.confirm} />
      </form>
    </Dialog>
  );
}

interface PasswordFieldProps {
  id: string;
  label: string;
  autoComplete: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
}

function PasswordField({ id, label, autoComplete, value, onChange, error }: PasswordFieldProps) {
  return (
    <FormControl required id={id}>
      <FormControl.Label>{label}</FormControl.Label>
      <TextInput type="password" block autoComplete={autoComplete} value={value} onChange={(e) => onChange(e.target.value)} validationStatus={error ? 'error' : undefined} />
      {error ? <FormControl.Validation variant="error">{error}</FormControl.Validation> : null}
    </FormControl>
  );
}
