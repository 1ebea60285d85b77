import { Alert, Button } from '@mantine/core';
import { useState } from 'react';
import { asApiError } from '../../components/ErrorDisplay';
import { passkeyFailure, passkeysSupported, signWithPasskey } from '../../lib/webauthn';
import { useFinishPasskeyLoginMutation, useStartPasskeyLoginMutation, type LoginResponse } from './api';

/** The second step with a passkey: the server's challenge, the browser's prompt, the answer. */
export function PasskeyButton({ mfaToken, onSignedIn, primary }: { mfaToken: string; onSignedIn: (body: LoginResponse) => void; primary: boolean }) {
  const [start] = useStartPasskeyLoginMutation();
  const [finish] = useFinishPasskeyLoginMutation();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const onClick = async () => {
    setBusy(true);
    setFailure(null);
    try {
      const options = await start({ mfaToken });
      if (options.error) return setFailure(asApiError(options.error).detail);
      let credential;
      try {
        credential = await signWithPasskey(options.data.publicKey as Record<string, unknown>);
      } catch (error) {
        return setFailure(passkeyFailure(error));
      }
      const result = await finish({ mfaToken, credential });
      if (result.error) return setFailure(asApiError(result.error).detail);
      onSignedIn(result.data);
    } finally {
      setBusy(false);
    }
  };
  if (!passkeysSupported()) return null;
  return (
    <>
      {failure && (
        <Alert color="red" variant="light" role="alert" data-testid="passkey-error">
          {failure}
        </Alert>
      )}
      <Button variant={primary ? 'filled' : 'light'} loading={busy} onClick={() => void onClick()} fullWidth autoFocus={primary}>
        Use a passkey
      </Button>
    </>
  );
}
