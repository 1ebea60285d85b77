import { Alert, Anchor, PasswordInput, Text, TextInput } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { asApiError } from '../../components/ErrorDisplay';

// Pieces every public page (sign in, forgot, set password) draws alike.

/** A failed call's message above the form. */
export function CallError({ error, testId }: { error: unknown; testId?: string }) {
  if (!error) return null;
  return (
    <Alert color="red" variant="light" role="alert" data-testid={testId}>
      {asApiError(error).detail}
    </Alert>
  );
}

/** The e-mail a person signs in with (the browser offers the saved one). */
export function EmailField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return <TextInput label="E-mail" type="email" autoComplete="username" required autoFocus value={value} onChange={(e) => onChange(e.currentTarget.value)} />;
}

/** A password, the one signed in with or a new one (the browser offers to save or suggest it). */
export function PasswordField({
  label,
  autoComplete,
  autoFocus,
  value,
  onChange,
  error,
}: {
  label: string;
  autoComplete: 'current-password' | 'new-password';
  autoFocus?: boolean;
  value: string;
  onChange: (value: string) => void;
  error?: string;
}) {
  return (
    <PasswordInput
      label={label}
      autoComplete={autoComplete}
      required
      autoFocus={autoFocus}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={error}
    />
  );
}

/** A centred link to another public page below the form. */
export function PageLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Text size="sm" ta="center">
      <Anchor component={Link} to={to}>
        {children}
      </Anchor>
    </Text>
  );
}
