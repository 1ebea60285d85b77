import { Alert, Button, Center, Loader, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { skipToken } from '@reduxjs/toolkit/query';
import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { asApiError } from '../../components/ErrorDisplay';
import { useSetPasswordMutation, useValidateResetTokenQuery } from './api';
import { PageLink, PasswordField } from './parts';

/** Passwords need 12+ characters (the server checks it too). */
export const MIN_PASSWORD_LENGTH = 12;

/** Opened from the e-mailed link `/set-password?email=…&token=…`. */
export default function SetPasswordPage() {
  const [params] = useSearchParams();
  const email = params.get('email') ?? '';
  const token = params.get('token') ?? '';
  const validation = useValidateResetTokenQuery(email && token ? { email, token } : skipToken);
  const [setPassword, { isLoading, error }] = useSetPasswordMutation();
  const navigate = useNavigate();
  const [password, setPasswordValue] = useState('');
  const [confirm, setConfirm] = useState('');
  const [touched, setTouched] = useState(false);

  if (!email || !token || validation.isError) {
    return (
      <Stack gap="md">
        <Alert color="red" variant="light" role="alert" title="Invalid link">
          This link is invalid or has expired. Ask for a new one.
        </Alert>
        <PageLink to="/forgot-password">Send a new link</PageLink>
      </Stack>
    );
  }
  if (validation.isLoading) {
    return (
      <Center p="lg">
        <Loader aria-label="Checking the link" />
      </Center>
    );
  }

  const tooShort = password.length < MIN_PASSWORD_LENGTH;
  const mismatch = password !== confirm;
  const serverError = error ? asApiError(error) : null;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (tooShort || mismatch) return;
    const result = await setPassword({ email, token, password });
    if (!result.error) {
      notifications.show({ color: 'green', title: 'Password set', message: 'You can now sign in with your new password.' });
      navigate('/login', { replace: true });
    }
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Set password">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          Choose a password for {email}. Use at least {MIN_PASSWORD_LENGTH} characters.
        </Text>
        {serverError && (
          <Alert color="red" variant="light" role="alert">
            {serverError.errors?.password?.join(' ') ?? serverError.detail}
          </Alert>
        )}
        <PasswordField
          label="New password"
          autoComplete="new-password"
          autoFocus
          value={password}
          onChange={setPasswordValue}
          error={touched && tooShort ? `Use at least ${MIN_PASSWORD_LENGTH} characters.` : undefined}
        />
        <PasswordField
          label="Confirm password"
          autoComplete="new-password"
          value={confirm}
          onChange={setConfirm}
          error={touched && mismatch ? 'The passwords do not match.' : undefined}
        />
        <Button type="submit" loading={isLoading} fullWidth>
          Set password
        </Button>
      </Stack>
    </form>
  );
}
