import { Button, Group, Modal, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useIdleTimer } from 'react-idle-timer';
import { logout } from '../api/session';
import { recordActivity } from '../api/storage';
import { useAppDispatch } from '../lib/hooks';
import { ACTIVITY_WRITE_INTERVAL_MS, IDLE_SYNC_INTERVAL_MS, IDLE_TIMEOUT_MS, IDLE_WARNING_MS } from './idle';

/** Mounted while signed in (main layout). */
export function IdleLogout() {
  const dispatch = useAppDispatch();
  const [warned, setWarned] = useState(false);
  const { activate } = useIdleTimer({
    name: 'mentorpay-idle',
    timeout: IDLE_TIMEOUT_MS,
    promptBeforeIdle: IDLE_WARNING_MS,
    crossTab: true,
    syncTimers: IDLE_SYNC_INTERVAL_MS,
    throttle: ACTIVITY_WRITE_INTERVAL_MS,
    onAction: () => recordActivity(),
    onPrompt: () => setWarned(true),
    // Staying in another tab counts here too.
    onActive: () => setWarned(false),
    onIdle: () => dispatch(logout('idle')),
  });
  useEffect(() => recordActivity(), []);
  // Any way out of the warning (the button, Escape, the ×) is the person saying they are there.
  const stay = () => {
    activate();
    recordActivity();
    setWarned(false);
  };
  return (
    <Modal opened={warned} onClose={stay} title="Still there?" centered>
      <Text size="sm">You have been inactive for a while. For your security you will be signed out in 2 minutes.</Text>
      <Group justify="flex-end" mt="md">
        <Button onClick={stay} data-autofocus>
          Stay signed in
        </Button>
      </Group>
    </Modal>
  );
}
