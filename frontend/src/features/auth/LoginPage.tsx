import { Alert, Button, Divider, Stack } from '@mantine/core';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { selectSignOutMessage, selectSignOutReason, signOutReasonCleared } from '../../api/authSlice';
import { API_BASE_URL } from '../../api/config';
import { signedIn } from '../../api/session';
import { useAppDispatch, useAppSelector } from '../../lib/hooks';
import { useLoginMutation, useSsoExchangeMutation, useSsoStatusQuery, type LoginResponse } from './api';
import { CodeStep, EnrolStep } from './SecondStep';
import { CallError, EmailField, PageLink, PasswordField } from './parts';

const REASON_TEXT = {
  idle: 'You were signed out after 15 minutes without activity.',
  expired: 'Your session has ended. Please sign in again.',
} as const;

/** What the agency's sign-in left in the address: `#sso=<code>&next=<path>` or `#ssoError=<words>`. */
export function readSsoFragment(hash: string): { code?: string; next: string; error?: string } {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const next = params.get('next') ?? '/';
  return {
    code: params.get('sso') ?? undefined,
    // Only a path of this site, as the server keeps it.
    next: next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/',
    error: params.get('ssoError') ?? undefined,
  };
}

/**
 * Sign-in form, and the agency's button when the server offers it. On success the session is stored; the anonymous-only guard
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

  const { data: sso } = useSsoStatusQuery();
  const [exchange, { error: exchangeError }] = useSsoExchangeMutation();
  const location = useLocation();
  const navigate = useNavigate();
  const [fragment] = useState(() => readSsoFragment(location.hash));
  const ssoErrorRef = useRef<HTMLDivElement>(null);
  // The page RequireAuth sent us from, for the agency's sign-in to come back to.
  const from = (location.state as { from?: string } | null)?.from;
  const wanted = from && from.startsWith('/') && !from.startsWith('//') ? from : '/';

  const finish = (data: LoginResponse) => {
    const { accessToken, token, refreshToken, userDetails } = data;
    dispatch(signedIn({ accessToken: accessToken ?? token, refreshToken, userDetails }));
  };

  // The one-time code is spent at once and leaves the address, so neither history nor a
  // reload holds it; the page to open is handed to the anonymous-only guard.
  const exchanged = useRef(false);
  useEffect(() => {
    if (!fragment.code && !fragment.error) return;
    if (fragment.error) {
      void navigate('/login', { replace: true });
      ssoErrorRef.current?.focus();
      return;
    }
    if (exchanged.current || !fragment.code) return;
    exchanged.current = true;
    const code = fragment.code;
    void (async () => {
      await navigate('/login', { replace: true, state: { from: fragment.next } });
      const result = await exchange({ code });
      if (result.data) finish(result.data);
    })();
    // Runs once, for the address the page opened with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await login({ email: email.trim(), password });
    const answer = result.data;
    if (!answer) return;
    if ('mfaRequired' in answer) setStep({ mfaToken: answer.mfaToken, methods: answer.methods });
    else if ('mfaEnrollmentRequired' in answer) setStep({ mfaToken: answer.mfaToken });
    else finish(answer);
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
        {fragment.error && (
          <Alert color="red" variant="light" role="alert" data-testid="sso-error" ref={ssoErrorRef} tabIndex={-1}>
            {fragment.error}
          </Alert>
        )}
        <CallError error={exchangeError} testId="sso-exchange-error" />
        <CallError error={error} testId="login-error" />
        <EmailField value={email} onChange={setEmail} />
        <PasswordField label="Password" autoComplete="current-password" value={password} onChange={setPassword} />
        <Button type="submit" loading={isLoading} disabled={!email || !password} fullWidth>
          Sign in
        </Button>
        <PageLink to="/forgot-password">Forgot your password?</PageLink>
        {sso?.enabled && (
          <>
            <Divider label="or" labelPosition="center" />
            <Button component="a" href={`${API_BASE_URL}/identity/sso/login?next=${encodeURIComponent(wanted)}`} variant="outline" fullWidth>
              {sso.label}
            </Button>
          </>
        )}
      </Stack>
    </form>
  );
}
