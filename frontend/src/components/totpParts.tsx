import { Button, Code, CopyButton, Group, Image, List, Stack, Text, TextInput } from '@mantine/core';
import type { Ref } from 'react';

// Pieces of the authenticator-app set-up that the sign-in page (enrolment a role requires)
// and the user menu's "Two-step sign-in" draw alike.

/** The QR code the server drew, and the same secret as text for people who cannot scan. */
export function QrAndSecret({ qrSvg, secret }: { qrSvg: string; secret: string }) {
  const grouped = secret.replace(/(.{4})/g, '$1 ').trim();
  return (
    <Stack gap="xs" align="center">
      <Image
        src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(qrSvg)}`}
        alt="QR code to scan with your authenticator app"
        w={200}
        h={200}
        data-testid="totp-qr"
      />
      <Text size="sm">Cannot scan it? Type this key into the app instead:</Text>
      <Code data-testid="totp-secret" aria-label="Set-up key">
        {grouped}
      </Code>
    </Stack>
  );
}

/** Six digits from the authenticator app (the browser and phones offer one-time codes). */
export function CodeField({
  value,
  onChange,
  error,
  inputRef,
  label = 'Code from your authenticator app',
}: {
  value: string;
  onChange: (value: string) => void;
  error?: string;
  inputRef?: Ref<HTMLInputElement>;
  label?: string;
}) {
  return (
    <TextInput
      ref={inputRef}
      label={label}
      description="Six digits; a new one every 30 seconds."
      autoComplete="one-time-code"
      inputMode="numeric"
      maxLength={7}
      required
      autoFocus
      value={value}
      error={error}
      onChange={(e) => onChange(e.currentTarget.value)}
    />
  );
}

/** The ten recovery codes, shown once, with a way to copy them. */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <Stack gap="xs">
      <Text size="sm">
        Keep these recovery codes somewhere safe. Each one signs you in once if you lose your phone. They are shown only now.
      </Text>
      <List data-testid="recovery-codes" spacing={2} ff="monospace" aria-label="Recovery codes">
        {codes.map((c) => (
          <List.Item key={c}>{c}</List.Item>
        ))}
      </List>
      <Group>
        <CopyButton value={codes.join('\n')}>
          {({ copied, copy }) => (
            <Button variant="default" size="xs" onClick={copy}>
              {copied ? 'Copied' : 'Copy the codes'}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}
