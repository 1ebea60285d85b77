import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { asApiError } from '../../components/ErrorDisplay';
import { useResetPasswordMutation } from './api';

export const RESET_SENT_TEXT = 'If an account exists, a link has been sent';

/** Asks for a set-password link. The answer never reveals whether the account exists. */
export default function ForgotPasswordPage() {
  const [resetPassword, { isLoading, isSuccess, error }] = useResetPasswordMutation();
  const [email, setEmail] = useState('');

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void resetPassword({ email: email.trim() });
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Forgot password">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          Enter your e-mail address and we will send you a link to set a new password.
        </Text>
        {isSuccess && (
          <Alert color="green" variant="light" role="status">
            {RESET_SENT_TEXT}
          </Alert>
        )}
        {error && (
          <Alert color="red" variant="light" role="alert">
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
        <Button type="submit" loading={isLoading} disabled={!email} fullWidth>
          Send link
        </Button>
        <Text size="sm" ta="center">
          <Anchor component={Link} to="/login">
            Back to sign in
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
