import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { selectSignOutMessage, selectSignOutReason, signOutReasonCleared } from '../../api/authSlice';
import { signedIn } from '../../api/session';
import { useAppDispatch, useAppSelector } from '../../lib/hooks';
import { asApiError } from '../../components/ErrorDisplay';
import { useLoginMutation } from './api';

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

  const [login, { isLoading, error }] = useLoginMutation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await login({ email: email.trim(), password });
    if (result.data) {
      const { accessToken, token, refreshToken, userDetails } = result.data;
      dispatch(signedIn({ accessToken: accessToken ?? token, refreshToken, userDetails }));
    }
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Sign in">
      <Stack gap="md">
        {notice && !error && (
          <Alert color={serverMessage ? 'orange' : 'blue'} variant="light" data-testid="signout-notice">
            {notice}
          </Alert>
        )}
        {error && (
          <Alert color="red" variant="light" role="alert" data-testid="login-error">
            {asApiError(error).detail}
          </Alert>
        )}
        <TextInput
          label="E-mail"
          type="email"
          autoComplete="username"
          required
          autoFocus
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
        />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
        />
        <Button type="submit" loading={isLoading} disabled={!email || !password} fullWidth>
          Sign in
        </Button>
        <Text size="sm" ta="center">
          <Anchor component={Link} to="/forgot-password">
            Forgot your password?
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
