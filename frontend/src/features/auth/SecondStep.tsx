import { Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { signedIn } from '../../api/session';
import { useAppDispatch } from '../../lib/hooks';
import { CodeField, QrAndSecret, RecoveryCodes } from '../../components/totpParts';
import { useConfirmTotpAtLoginMutation, useEnrollTotpAtLoginMutation, useLoginMfaMutation, type LoginResponse } from './api';
import { CallError } from './parts';
import { PasskeyButton } from './PasskeyButton';

function finish(dispatch: ReturnType<typeof useAppDispatch>, body: LoginResponse) {
  const { accessToken, token, refreshToken, userDetails } = body;
  dispatch(signedIn({ accessToken: accessToken ?? token, refreshToken, userDetails }));
}

/** The second step of a sign-in: a passkey, a code of the authenticator app, or a recovery code. */
export function CodeStep({ mfaToken, methods, onRestart }: { mfaToken: string; methods: string[]; onRestart: () => void }) {
  const dispatch = useAppDispatch();
  const [send, { isLoading, error, reset }] = useLoginMfaMutation();
  const canTotp = methods.includes('totp');
  const canPasskey = methods.includes('passkey');
  const [recovery, setRecovery] = useState(!canTotp);
  const [value, setValue] = useState('');
  const switchTo = (toRecovery: boolean) => {
    setRecovery(toRecovery);
    setValue('');
    reset();
  };
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await send(recovery ? { mfaToken, recoveryCode: value.trim() } : { mfaToken, code: value.trim() });
    if (result.data) finish(dispatch, result.data);
  };
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Second step">
      <Stack gap="md">
        <Title order={2} size="h4">
          Two-step sign-in
        </Title>
        {canPasskey && <PasskeyButton mfaToken={mfaToken} onSignedIn={(body) => finish(dispatch, body)} primary={!canTotp} />}
        <CallError error={error} testId="mfa-error" />
        {recovery ? (
          <TextInput
            key="recovery"
            label="Recovery code"
            description="One of the ten codes you saved when you set up two-step sign-in."
            autoComplete="off"
            required
            autoFocus={!canPasskey}
            value={value}
            onChange={(e) => setValue(e.currentTarget.value)}
          />
        ) : (
          <CodeField key="totp" value={value} onChange={setValue} />
        )}
        <Button type="submit" loading={isLoading} disabled={!value.trim()} fullWidth>
          Verify
        </Button>
        {canTotp && methods.includes('recovery') && (
          <Text size="sm" ta="center">
            <Anchor component="button" type="button" onClick={() => switchTo(!recovery)}>
              {recovery ? 'Use the authenticator app instead' : 'Use a recovery code instead'}
            </Anchor>
          </Text>
        )}
        <Text size="sm" ta="center">
          <Anchor component="button" type="button" onClick={onRestart}>
            Start over
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}

/** Enrolment that the account's role requires before the sign-in completes. */
export function EnrolStep({ mfaToken, onRestart }: { mfaToken: string; onRestart: () => void }) {
  const dispatch = useAppDispatch();
  // The secret is asked for by a press, once: asking again would replace it.
  const [start, started] = useEnrollTotpAtLoginMutation();
  const enrolment = started.data;
  const [confirm, confirmed] = useConfirmTotpAtLoginMutation();
  const [code, setCode] = useState('');
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    await confirm({ mfaToken, code: code.trim() });
  };
  const done = confirmed.data;
  if (done) {
    return (
      <Stack gap="md">
        <Title order={2} size="h4" tabIndex={-1} ref={(el) => el?.focus()}>
          Two-step sign-in is on
        </Title>
        <RecoveryCodes codes={done.recoveryCodes ?? []} />
        <Button onClick={() => finish(dispatch, done)} fullWidth>
          I have saved them: continue
        </Button>
      </Stack>
    );
  }
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Set up two-step sign-in">
      <Stack gap="md">
        <Title order={2} size="h4">
          Set up two-step sign-in
        </Title>
        <Text size="sm">Your role signs in with a code from an authenticator app as well as the password. Scan the code with the app, then enter the six digits it shows.</Text>
        <CallError error={started.error ?? confirmed.error} testId="mfa-error" />
        {enrolment ? (
          <>
            <QrAndSecret qrSvg={enrolment.qrSvg} secret={enrolment.secret} />
            <CodeField value={code} onChange={setCode} />
            <Button type="submit" loading={confirmed.isLoading} disabled={!code.trim()} fullWidth>
              Turn on
            </Button>
          </>
        ) : (
          <Button autoFocus loading={started.isLoading} onClick={() => void start({ mfaToken })} fullWidth>
            Show the set-up code
          </Button>
        )}
        <Text size="sm" ta="center">
          <Anchor component="button" type="button" onClick={onRestart}>
            Start over
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
