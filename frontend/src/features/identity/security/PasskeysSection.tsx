import { Alert, Button, Group, PasswordInput, Stack, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type FormEvent } from 'react';
import { asApiError } from '../../../components/ErrorDisplay';
import { formatDateTime } from '../../../components/dates';
import { QueryStatus } from '../../../components/QueryStatus';
import { RecoveryCodes } from '../../../components/totpParts';
import { createPasskey, passkeyFailure, passkeysSupported } from '../../../lib/webauthn';
import { useFinishPasskeyRegistrationMutation, useGetMyPasskeysQuery, useRemovePasskeyMutation, useStartPasskeyRegistrationMutation, type Passkey } from './api';

/** A call's error on `field`, or its message. */
function fieldError(error: unknown, field: string): string | undefined {
  if (!error) return undefined;
  const e = asApiError(error);
  return e.errors?.[field]?.[0] ?? e.detail;
}

/** Removing one passkey, proven by the account's password. */
function RemoveForm({ passkey, onDone }: { passkey: Passkey; onDone: () => void }) {
  const [remove, removed] = useRemovePasskeyMutation();
  const [password, setPassword] = useState('');
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await remove({ id: passkey.id, password });
    if (!('error' in result)) {
      notifications.show({ color: 'green', title: 'Passkey removed', message: `"${passkey.name}" no longer signs you in. Your other sign-ins have ended.` });
      onDone();
    }
  };
  return (
    <form onSubmit={onSubmit} noValidate aria-label={`Remove the passkey ${passkey.name}`}>
      <Stack gap="sm">
        <Text size="sm">Enter your password to remove “{passkey.name}”. Your other sign-ins will end.</Text>
        <PasswordInput label="Password" autoComplete="current-password" required autoFocus value={password} onChange={(e) => setPassword(e.currentTarget.value)} error={fieldError(removed.error, 'password')} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Back
          </Button>
          <Button type="submit" color="red" loading={removed.isLoading} disabled={!password}>
            Remove
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The security dialog's passkeys: the list (name, added, last used), Add with a name, Remove. */
export function PasskeysSection() {
  const passkeys = useGetMyPasskeysQuery();
  const [start] = useStartPasskeyRegistrationMutation();
  const [finish, finished] = useFinishPasskeyRegistrationMutation();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [nameError, setNameError] = useState<string | undefined>();
  const [removing, setRemoving] = useState<Passkey | null>(null);

  const onAdd = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    setNameError(undefined);
    if (!name.trim()) return setNameError('Give the passkey a name, such as the device it is on.');
    setBusy(true);
    try {
      const options = await start();
      if (options.error) return setFailure(asApiError(options.error).detail);
      let credential;
      try {
        credential = await createPasskey(options.data.publicKey as Record<string, unknown>);
      } catch (error) {
        return setFailure(passkeyFailure(error));
      }
      const result = await finish({ name: name.trim(), credential });
      if (result.error) {
        const e = asApiError(result.error);
        if (e.errors?.name) return setNameError(e.errors.name[0]);
        return setFailure(e.detail);
      }
      setName('');
      notifications.show({ color: 'green', title: 'Passkey added', message: `"${result.data.passkey.name}" signs you in from now on. Your other sign-ins have ended.` });
    } finally {
      setBusy(false);
    }
  };

  const codes = finished.data?.recoveryCodes;
  return (
    <Stack gap="sm" component="section" aria-labelledby="passkeys-heading">
      <Title order={3} size="h5" id="passkeys-heading">
        Passkeys
      </Title>
      <Text size="sm">A passkey on this device (or your phone or a security key) can stand in for the code at sign-in: you unlock it with your fingerprint, face or PIN.</Text>
      {codes && (
        <Alert color="green" variant="light" title="Two-step sign-in is on">
          <RecoveryCodes codes={codes} />
        </Alert>
      )}
      <QueryStatus isLoading={passkeys.isLoading} error={passkeys.error}>
        {removing ? (
          <RemoveForm passkey={removing} onDone={() => setRemoving(null)} />
        ) : passkeys.data?.length ? (
          <Table data-testid="passkeys" verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Added</Table.Th>
                <Table.Th>Last used</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {passkeys.data.map((p) => (
                <Table.Tr key={p.id}>
                  <Table.Td>{p.name}</Table.Td>
                  <Table.Td>{formatDateTime(p.createdAt)}</Table.Td>
                  <Table.Td>{p.lastUsedAt ? formatDateTime(p.lastUsedAt) : 'Never'}</Table.Td>
                  <Table.Td>
                    <Button size="xs" color="red" variant="light" onClick={() => setRemoving(p)} aria-label={`Remove ${p.name}`}>
                      Remove
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : (
          <Text size="sm" c="dimmed" data-testid="passkeys">
            No passkeys yet.
          </Text>
        )}
      </QueryStatus>
      {!removing &&
        (passkeysSupported() ? (
          <form onSubmit={onAdd} noValidate aria-label="Add a passkey">
            <Stack gap="xs">
              {failure && (
                <Alert color="red" variant="light" role="alert" data-testid="passkey-error">
                  {failure}
                </Alert>
              )}
              <Group align="flex-end" wrap="wrap">
                <TextInput label="Passkey name" description="Such as the device it is on." maxLength={60} required value={name} onChange={(e) => setName(e.currentTarget.value)} error={nameError} style={{ flex: 1, minWidth: 180 }} />
                <Button type="submit" loading={busy}>
                  Add a passkey
                </Button>
              </Group>
            </Stack>
          </form>
        ) : (
          <Text size="sm" c="dimmed">
            This browser does not offer passkeys.
          </Text>
        ))}
    </Stack>
  );
}
