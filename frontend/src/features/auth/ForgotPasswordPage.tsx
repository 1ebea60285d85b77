import { Alert, Button, Stack, Text } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useResetPasswordMutation } from './api';
import { CallError, EmailField, PageLink } from './parts';

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
        <CallError error={error} />
        <EmailField value={email} onChange={setEmail} />
        <Button type="submit" loading={isLoading} disabled={!email} fullWidth>
          Send link
        </Button>
        <PageLink to="/login">Back to sign in</PageLink>
      </Stack>
    </form>
  );
}
