import { Button, Fieldset, Group, Loader, Text } from '@mantine/core';
import { useState } from 'react';
import { useGetOutOfOfficeQuery } from './api';
import { OutOfOfficeDialog } from './OutOfOfficeDialog';
import { windowWords } from './outOfOffice';

/** In the user dialog: the person's out-of-office window, if any, and the dialog to set or remove it for her. */
export function UserOutOfOffice({ userId, name }: { userId: number; name: string }) {
  const query = useGetOutOfOfficeQuery(userId);
  const [open, setOpen] = useState(false);
  return (
    <Fieldset legend="Out of office" variant="filled">
      <Group justify="space-between" wrap="nowrap" align="center">
        {query.isLoading ? (
          <Loader size="xs" aria-label="Loading" />
        ) : (
          <Text size="sm" data-testid="user-out-of-office">
            {query.error ? 'Could not be read.' : query.data ? windowWords(query.data, { subject: name, verb: 'is', object: 'them' }) : 'Not set.'}
          </Text>
        )}
        <Button variant="light" size="xs" onClick={() => setOpen(true)} style={{ flexShrink: 0 }}>
          {query.data ? 'Change…' : 'Set out of office…'}
        </Button>
      </Group>
      <OutOfOfficeDialog whose={userId} person={{ id: userId, name }} opened={open} onClose={() => setOpen(false)} />
    </Fieldset>
  );
}
