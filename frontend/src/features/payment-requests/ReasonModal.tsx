import { Button, Group, Modal, Stack, Textarea } from '@mantine/core';
import { useState } from 'react';

/** Send for revision needs a reason (the server refuses an empty one too). */
export function ReasonModal({ opened, onClose, onSend, busy }: { opened: boolean; onClose: () => void; onSend: (reason: string) => void; busy: boolean }) {
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const empty = reason.trim() === '';
  return (
    <Modal opened={opened} onClose={onClose} title="Send for revision">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          if (!empty) onSend(reason.trim());
        }}
      >
        <Stack>
          <Textarea
            label="Reason"
            // The asterisk only: the browser's own bubble would hide our message.
            withAsterisk
            autosize
            minRows={3}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            error={touched && empty ? 'A reason is required' : undefined}
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Keep as is
            </Button>
            <Button type="submit" color="orange" loading={busy}>
              Send for revision
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
