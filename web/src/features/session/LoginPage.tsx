import { useState, type FormEvent } from 'react';
import { Banner, Button, FormControl, TextInput } from '@primer/react';
import { AuthCard, authFormClass } from '../../common/AuthCard.tsx';
import { useDocumentTitle } from '../../common/Page.tsx';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { errorDetail } from '../../common/api-error.ts';
import { useLoginMutation } from './sessionApi.ts';
import { noticeDismissed, tokenReceived } from './sessionSlice.ts';
import { signInWithPopup } from './social-sign-in.ts';
import { validateLogin, type LoginErrors } from './validate-login.ts';
import styles from './LoginPage.module.css';

/** Sign-in by e-mail and password, or by the social provider's popup (spec 001 §2.3). */
export function LoginPage() {
  useDocumentTitle('Sign In');
  const dispatch = useAppDispatch();
  const notice = useAppSelector((s) => s.session.notice);
  const [login, { isLoading }] = useLoginMutation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [socialBusy, setSocialBusy] = useState(false);

  // Field messages appear after the first attempt, then follow the typing.
  const errors: LoginErrors = submitted ? validateLogin(email, password) : {};

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    setServerError(null);
    const found = validateLogin(email, password);
    if (found.email || found.password) {
      document.getElementById(found.email ? 'login-email' : 'login-password')?.focus();
      return;
    }
    dispatch(noticeDismissed());
    // On success the session slice takes the token (sessionApi) and the app replaces this page.
    const result = await login({ email: email.trim(), password });
    if ('error' in result) setServerError(errorDetail(result.error) ?? 'Sign-in failed');
  }

  async function onSocial() {
    setServerError(null);
    setSocialBusy(true);
    const result = await signInWithPopup();
    setSocialBusy(false);
    if ('signedIn' in result) {
      dispatch(noticeDismissed());
      dispatch(tokenReceived());
    } else if ('error' in result) {
      setServerError(result.error);
    }
  }

  const message = serverError ?? notice;

  return (
    <AuthCard>
      {message ? (
        <div role="alert">
          <Banner variant={serverError ? 'critical' : 'warning'} title={message} layout="compact" />
        </div>
      ) : null}
      <form className={authFormClass} onSubmit={onSubmit} noValidate aria-label="Sign In">
        <FormControl required id="login-email">
          <FormControl.Label>Email</FormControl.Label>
          <TextInput
            type="email"
            name="email"
            autoComplete="username"
            block
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            validationStatus={errors.email ? 'error' : undefined}
          />
          {errors.email ? <FormControl.Validation variant="error">{errors.email}</FormControl.Validation> : null}
        </FormControl>
        <FormControl required id="login-password">
          <FormControl.Label>Password</FormControl.Label>
          <TextInput
            type="password"
            name="password"
            autoComplete="current-password"
            block
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            validationStatus={errors.password ? 'error' : undefined}
          />
          {errors.password ? <FormControl.Validation variant="error">{errors.password}</FormControl.Validation> : null}
        </FormControl>
        <Button type="submit" variant="primary" block loading={isLoading}>
          Sign In
        </Button>
      </form>
      <p className={styles.or}>Or</p>
      <Button block onClick={onSocial} loading={socialBusy}>
        Sign in with Google
      </Button>
    </AuthCard>
  );
}
