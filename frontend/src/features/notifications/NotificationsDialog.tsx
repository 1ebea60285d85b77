import { Button, Group, Modal, Radio, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type FormEvent } from 'react';
import { SaveError } from '../../components/EditorActions';
import { QueryStatus } from '../../components/QueryStatus';
import { useGetMyNotificationsQuery, useSetMyNotificationsMutation, type NotificationMode } from './api';

const MODES: { value: NotificationMode; label: string; description: string }[] = [
  { value: 'instant', label: 'At once', description: 'A mail each time a request needs me or one of mine moves.' },
  { value: 'daily', label: 'Once a day', description: 'One mail a day listing what waits for me, if anything does.' },
  { value: 'off', label: 'Never', description: 'No mail; I look in MentorPay myself.' },
];

/** How the signed-in user hears of work by e-mail. */
export function NotificationsDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const query = useGetMyNotificationsQuery(undefined, { skip: !opened });
  const [chosen, setChosen] = useState<NotificationMode | null>(null);
  const [save, { isLoading, error, reset }] = useSetMyNotificationsMutation();
  const mode = chosen ?? query.data?.mode ?? null;
  const close = () => {
    setChosen(null);
    reset();
    onClose();
  };
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!mode) return;
    const result = await save({ mode });
    if (result.data) {
      notifications.show({ color: 'green', title: 'Saved', message: `E-mail: ${MODES.find((m) => m.value === result.data.mode)?.label.toLowerCase()}.` });
      close();
    }
  };

  return (
    <Modal opened={opened} onClose={close} title="Notifications" centered>
      <QueryStatus isLoading={query.isLoading} error={query.error}>
        <form onSubmit={onSubmit} noValidate aria-label="Notifications">
          <Stack gap="md">
            <SaveError error={error} />
            <Radio.Group
              label="E-mail me about payment requests"
              description="When a request waits for you, or one of yours moves."
              value={mode ?? undefined}
              onChange={(v) => setChosen(v as NotificationMode)}
            >
              <Stack gap="sm" mt="xs">
                {MODES.map((m) => (
                  <Radio key={m.value} value={m.value} label={m.label} description={m.description} />
                ))}
              </Stack>
            </Radio.Group>
            <Text size="xs" c="dimmed">
              The daily mail goes out at the hour set in the general settings.
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={isLoading} disabled={!mode}>
                Save
              </Button>
            </Group>
          </Stack>
        </form>
      </QueryStatus>
    </Modal>
  );
}
