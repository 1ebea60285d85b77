import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type FormEvent } from 'react';
import { asApiError } from '../../../components/ErrorDisplay';
import { QueryStatus } from '../../../components/QueryStatus';
import { useConfirmTotpMutation, useGetMyFactorsQuery, useRemoveTotpMutation, useStartTotpMutation } from './api';
import { CodeField, QrAndSecret, RecoveryCodes } from '../../../components/totpParts';
import { PasskeysSection } from './PasskeysSection';

/** A call's field error on `code`, or its message. */
function codeError(error: unknown): string | undefined {
  if (!error) return undefined;
  const e = asApiError(error);
  return e.errors?.code?.[0] ?? e.detail;
}

/** The user menu's "Two-step sign-in": set up or remove an authenticator app, add or remove passkeys. */
export function TwoStepDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const factors = useGetMyFactorsQuery(undefined, { skip: !opened });
  const [start, started] = useStartTotpMutation();
  const [confirm, confirmed] = useConfirmTotpMutation();
  const [remove, removed] = useRemoveTotpMutation();
  const [code, setCode] = useState('');
  const [removing, setRemoving] = useState(false);
  const close = () => {
    setCode('');
    setRemoving(false);
    started.reset();
    confirmed.reset();
    removed.reset();
    onClose();
  };
  const onConfirm = async (event: FormEvent) => {
    event.preventDefault();
    await confirm({ code: code.trim() });
  };
  const onRemove = async (event: FormEvent) => {
    event.preventDefault();
    const result = await remove({ code: code.trim() });
    if (!('error' in result)) {
      notifications.show({ color: 'green', title: 'Two-step sign-in is off', message: 'Your password alone signs you in again.' });
      close();
    }
  };

  let body;
  if (confirmed.data) {
    body = (
      <Stack gap="md">
        <Alert color="green" variant="light" title="Two-step sign-in is on">
          Your other sign-ins have ended.
        </Alert>
        <RecoveryCodes codes={confirmed.data.recoveryCodes} />
        <Group justify="flex-end">
          <Button onClick={close} data-autofocus>
            Done
          </Button>
        </Group>
      </Stack>
    );
  } else if (started.data) {
    body = (
      <form onSubmit={onConfirm} noValidate aria-label="Set up an authenticator app">
        <Stack gap="md">
          <Text size="sm">Scan the code with an authenticator app (or type the key), then enter the six digits it shows.</Text>
          <QrAndSecret qrSvg={started.data.qrSvg} secret={started.data.secret} />
          <CodeField value={code} onChange={setCode} error={codeError(confirmed.error)} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={confirmed.isLoading} disabled={!code.trim()}>
              Turn on
            </Button>
          </Group>
        </Stack>
      </form>
    );
  } else if (factors.data?.totp && removing) {
    body = (
      <form onSubmit={onRemove} noValidate aria-label="Remove the authenticator app">
        <Stack gap="md">
          <Text size="sm">Enter a current code from the app to turn two-step sign-in off. Your other sign-ins will end.</Text>
          <CodeField value={code} onChange={setCode} error={codeError(removed.error)} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRemoving(false)}>
              Back
            </Button>
            <Button type="submit" color="red" loading={removed.isLoading} disabled={!code.trim()}>
              Remove
            </Button>
          </Group>
        </Stack>
      </form>
    );
  } else if (factors.data?.totp) {
    body = (
      <Stack gap="md">
        <Text size="sm" data-testid="two-step-state">
          On: an authenticator app. {factors.data.recoveryCodesLeft} recovery codes left.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Close
          </Button>
          <Button color="red" variant="light" onClick={() => setRemoving(true)} data-autofocus>
            Remove the authenticator app…
          </Button>
        </Group>
      </Stack>
    );
  } else {
    body = (
      <Stack gap="md">
        <Text size="sm" data-testid="two-step-state">
          {factors.data?.passkeys
            ? `On: ${factors.data.passkeys === 1 ? 'a passkey' : `${factors.data.passkeys} passkeys`}. ${factors.data.recoveryCodesLeft} recovery codes left. You can add an authenticator app as well.`
            : 'Off. With two-step sign-in, a stolen password is not enough: MentorPay also asks for a passkey or a code from an app on your phone.'}
        </Text>
        {factors.data?.required && !factors.data.passkeys && (
          <Alert color="orange" variant="light">
            Your role must use two-step sign-in: you will be asked to set it up at your next sign-in.
          </Alert>
        )}
        {started.error ? <Alert color="red" role="alert">{asApiError(started.error).detail}</Alert> : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Close
          </Button>
          <Button onClick={() => void start()} loading={started.isLoading} data-autofocus>
            Set up an authenticator app
          </Button>
        </Group>
      </Stack>
    );
  }

  return (
    <Modal opened={opened} onClose={close} title="Two-step sign-in" centered size="lg">
      <QueryStatus isLoading={factors.isLoading} error={factors.error}>
        <Stack gap="xl">
          {body}
          {!started.data && !confirmed.data && !removing && <PasskeysSection />}
        </Stack>
      </QueryStatus>
    </Modal>
  );
}
