import { useState, type FormEvent } from 'react';
import { Banner, Button, FormControl, TextInput } from '@primer/react';
import { useLocation } from 'wouter';
import { routeParam } from '../../common/route-param.ts';
import type { PageProps } from '../../app/route-types.ts';
import { errorDetail } from '../../common/api-error.ts';
import { useDocumentTitle, PageLoading } from '../../common/Page.tsx';
import { useAcceptInvitationMutation, useGetInvitationQuery } from './invitationsApi.ts';
import { validateNewPassword, type PasswordErrors } from './validate-password.ts';
import { AuthCard, authFormClass } from '../../common/AuthCard.tsx';

/**
 * Where the invitation e-mail's link leads: the invited user sets a password, which also verifies
 * the e-mail, then signs in. Reachable without a session: the link's token is the credential.
 */
export function InvitationPage({ route, params }: PageProps) {
  useDocumentTitle(route.title);
  const token = routeParam(params.token);
  const [, navigate] = useLocation();
  const { data, error, isLoading } = useGetInvitationQuery(token);
  const [accept, { isLoading: saving }] = useAcceptInvitationMutation();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const errors: PasswordErrors = submitted ? validateNewPassword(password, confirm) : {};

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    setServerError(null);
    const found = validateNewPassword(password, confirm);
    if (found.password || found.confirm) {
      document.getElementById(found.password ? 'invitation-password' : 'invitation-confirm')?.focus();
      return;
    }
    const result = await accept({ token, password });
    if ('error' in result) setServerError(errorDetail(result.error) ?? 'Could not set the password');
    else setDone(true);
  }

  let body;
  if (isLoading) body = <PageLoading />;
  else if (!data) {
    body = (
      <div role="alert">
        <Banner variant="critical" title={errorDetail(error) ?? 'Invitation not found or expired'} layout="compact" />
      </div>
    );
  } else if (done) {
    body = (
      <>
        <div role="status">
          <Banner variant="success" title="Your password is set" description={`You can now sign in as ${data.email}.`} />
        </div>
        <Button variant="primary" block onClick={() => navigate('/', { replace: true })}>
          Go to Sign In
        </Button>
      </>
    );
  } else {
    body = (
      <form className={authFormClass} onSubmit={onSubmit} noValidate aria-label="Set your password">
        {serverError ? (
          <div role="alert">
            <Banner variant="critical" title={serverError} layout="compact" />
          </div>
        ) : null}
        <FormControl id="invitation-email">
          <FormControl.Label>Email</FormControl.Label>
          <TextInput block readOnly value={data.email} autoComplete="username" name="email" />
        </FormControl>
        <FormControl required id="invitation-password">
          <FormControl.Label>Password</FormControl.Label>
          <TextInput
            type="password"
            block
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            validationStatus={errors.password ? 'error' : undefined}
          />
          {errors.password ? <FormControl.Validation variant="error">{errors.password}</FormControl.Validation> : null}
        </FormControl>
        <FormControl required id="invitation-confirm">
          <FormControl.Label>Confirm password</FormControl.Label>
          <TextInput
            type="password"
            block
            autoComplete="new-password"
            value={confirm}
            onChange={(e) => setConfirm(e.target.value)}
            validationStatus={errors.confirm ? 'error' : undefined}
          />
          {errors.confirm ? <FormControl.Validation variant="error">{errors.confirm}</FormControl.Validation> : null}
        </FormControl>
        <Button type="submit" variant="primary" block loading={saving}>
          Set password
        </Button>
      </form>
    );
  }

  return (
    <AuthCard title={route.title}>{body}</AuthCard>
  );
}
