import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useRef, useState } from 'react';
import { minutesOffset } from '../../components/download';
import { asApiError, ErrorDisplay } from '../../components/ErrorDisplay';
import { useLazyGetParticipantEmailsQuery } from './api';
import { emailListText, mailtoBcc } from './participantsReport';

/** Copies `text`; the clipboard API needs a secure context (an intranet over http has none), so
 * the selected text area is the fallback. */
async function copy(text: string, area: HTMLTextAreaElement | null): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall through to the selection
  }
  if (!area) return false;
  area.focus();
  area.select();
  return document.execCommand('copy');
}

/** "E-mail these participants" (report:sendemail): every participant of the current filters with
 * an address, to copy, or to open in the mail client with everyone in Bcc. */
export function EmailParticipants({ filters }: { filters: Record<string, string> }) {
  const [opened, setOpened] = useState(false);
  const [load, result] = useLazyGetParticipantEmailsQuery();
  const [copied, setCopied] = useState<boolean | null>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  const people = result.data ?? [];
  const text = emailListText(people);
  const mailto = mailtoBcc(people);

  const open = () => {
    setCopied(null);
    setOpened(true);
    // The same local-time reading of UpdatedAt as the view.
    void load({ ...filters, MinutesOffset: String(minutesOffset()) });
  };

  return (
    <>
      <Button variant="default" onClick={open}>
        E-mail these participants
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title="E-mail these participants" size="lg">
        {result.isFetching ? (
          <Text size="sm">Gathering the addresses…</Text>
        ) : result.error ? (
          <ErrorDisplay error={asApiError(result.error)} />
        ) : people.length === 0 ? (
          <Text size="sm">No participant matching these filters has an e-mail address.</Text>
        ) : (
          <Stack gap="sm">
            <Text size="sm" data-testid="email-count">
              {people.length === 1 ? '1 participant' : `${people.length} participants`} with an e-mail address.
            </Text>
            <Textarea ref={area} label="Addresses" readOnly autosize minRows={4} maxRows={12} value={text} />
            {!mailto && (
              <Alert color="yellow" variant="light">
                Too many addresses for a mail link: copy the list and paste it into the Bcc field.
              </Alert>
            )}
            <Group justify="flex-end">
              {copied !== null && (
                <Text size="sm" c={copied ? 'green.8' : 'red.7'} role="status">
                  {copied ? 'Copied.' : 'Copying failed: select the list and copy it.'}
                </Text>
              )}
              <Button variant="default" onClick={() => void copy(text, area.current).then(setCopied)}>
                Copy the list
              </Button>
              <Button component="a" href={mailto ?? undefined} disabled={!mailto} data-disabled={!mailto || undefined}>
                Open the mail client (Bcc)
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </>
  );
}
