import { Button, Group, Modal, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useIdleTimer } from 'react-idle-timer';
import { selectIsSignedIn } from '../api/authSlice';
import { logout } from '../api/session';
import { getLastActivity, recordActivity } from '../api/storage';
import { useAppDispatch } from '../lib/hooks';
import type { AppDispatch, RootState } from './store';

/** 15 minutes idle logs out (also when a page loads after that long); activity written at most every 30 s; tabs synced every 1 s. */
export const IDLE_TIMEOUT_MS = 15 * 60 * 1000;
export const ACTIVITY_WRITE_INTERVAL_MS = 30 * 1000;
export const IDLE_SYNC_INTERVAL_MS = 1000;
/**
 * The sign-out is announced this long before it happens, with a way to stay (WCAG 2.2.1: a
 * time limit the person can extend, with at least 20 seconds to do so).
 */
export const IDLE_WARNING_MS = 2 * 60 * 1000;

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

/**
 * On page load (before the first render): a session whose last recorded
 * activity is older than the idle limit has ended, even if every tab was closed.
 */
export function logoutIfIdleTooLong(dispatch: AppDispatch, getState: () => RootState, now = Date.now()): void {
  const last = getLastActivity();
  if (selectIsSignedIn(getState()) && last !== null && now - last > IDLE_TIMEOUT_MS) {
    dispatch(logout('idle'));
  }
}
