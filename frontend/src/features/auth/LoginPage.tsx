import { Alert, Button, Stack } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { selectSignOutMessage, selectSignOutReason, signOutReasonCleared } from '../../api/authSlice';
import { signedIn } from '../../api/session';
import { useAppDispatch, useAppSelector } from '../../lib/hooks';
import { useLoginMutation } from './api';
import { CodeStep, EnrolStep } from './SecondStep';
import { CallError, EmailField, PageLink, PasswordField } from './parts';

const REASON_TEXT = {
  idle: 'You were signed out after 15 minutes without activity.',
  expired: 'Your session has ended. Please sign in again.',
} as const;

/**
 * Sign-in form. On success the session is stored; the anonymous-only guard
 * then sends the user on to the page they wanted (or Home).
 */
export default function LoginPage() {
  const dispatch = useAppDispatch();
  const reason = useAppSelector(selectSignOutReason);
  const serverMessage = useAppSelector(selectSignOutMessage);
  // Why the last session ended is told once, then forgotten; the server's own
  // words (e.g. the coordinator sign-in block message) win over ours.
  const [notice] = useState(serverMessage ?? (reason === 'idle' || reason === 'expired' ? REASON_TEXT[reason] : null));
  useEffect(() => {
    if (reason || serverMessage) dispatch(signOutReasonCleared());
  }, [reason, serverMessage, dispatch]);

  const [login, { isLoading, error, reset }] = useLoginMutation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  // The step a correct password led to, when the account holds (or must set up) a second factor.
  const [step, setStep] = useState<{ mfaToken: string; methods?: string[] } | null>(null);
  const restart = () => {
    setStep(null);
    setPassword('');
    reset();
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await login({ email: email.trim(), password });
    const answer = result.data;
    if (!answer) return;
    if ('mfaRequired' in answer) setStep({ mfaToken: answer.mfaToken, methods: answer.methods });
    else if ('mfaEnrollmentRequired' in answer) setStep({ mfaToken: answer.mfaToken });
    else {
      const { accessToken, token, refreshToken, userDetails } = answer;
      dispatch(signedIn({ accessToken: accessToken ?? token, refreshToken, userDetails }));
    }
  };

  if (step?.methods) return <CodeStep mfaToken={step.mfaToken} methods={step.methods} onRestart={restart} />;
  if (step) return <EnrolStep mfaToken={step.mfaToken} onRestart={restart} />;

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Sign in">
      <Stack gap="md">
        {notice && !error && (
          <Alert color={serverMessage ? 'orange' : 'blue'} variant="light" data-testid="signout-notice">
            {notice}
          </Alert>
        )}
        <CallError error={error} testId="login-error" />
        <EmailField value={email} onChange={setEmail} />
        <PasswordField label="Password" autoComplete="current-password" value={password} onChange={setPassword} />
        <Button type="submit" loading={isLoading} disabled={!email || !password} fullWidth>
          Sign in
        </Button>
        <PageLink to="/forgot-password">Forgot your password?</PageLink>
      </Stack>
    </form>
  );
}
