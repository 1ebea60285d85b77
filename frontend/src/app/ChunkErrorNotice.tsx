import { Button, Group, Modal, Text } from '@mantine/core';
import { useSyncExternalStore } from 'react';
import { CHUNK_LOAD_ERROR_EVENT } from './lazyPage';

// The app's handler of failed page loads. Installed before the router is
// created, because the router starts loading the first page immediately.
let failed = false;
const subscribers = new Set<() => void>();

export function installChunkErrorHandler(): void {
  window.addEventListener(CHUNK_LOAD_ERROR_EVENT, (event) => {
    event.preventDefault();
    console.error('Page load failed', (event as CustomEvent<{ error: unknown }>).detail?.error);
    failed = true;
    subscribers.forEach((notify) => notify());
  });
}

function subscribe(notify: () => void) {
  subscribers.add(notify);
  return () => subscribers.delete(notify);
}

/** "New version / failed to load — Reload" message. */
export function ChunkErrorNotice() {
  const open = useSyncExternalStore(subscribe, () => failed);
  return (
    <Modal opened={open} onClose={() => undefined} withCloseButton={false} centered title="Please reload">
      <Text size="sm">
        A new version of MentorPay is available, or part of the page failed to load. Reload to continue.
      </Text>
      <Group justify="flex-end" mt="lg">
        <Button onClick={() => window.location.reload()}>Reload</Button>
      </Group>
    </Modal>
  );
}
