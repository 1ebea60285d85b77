import { Alert, Button, Group, Text } from '@mantine/core';
import { formatDateTime } from './dates';

/**
 * "You have an unsaved draft from …": values of this form kept in the browser (an idle sign-out,
 * a closed tab), offered back. Either answer takes the offer away, so the focus goes to the
 * page's heading rather than falling to the page's body.
 */
export function DraftOffer({ savedAt, onRestore, onDiscard }: { savedAt: number; onRestore: () => void; onDiscard: () => void }) {
  const answer = (act: () => void) => () => {
    act();
    requestAnimationFrame(() => document.querySelector<HTMLElement>('main h1[tabindex]')?.focus());
  };
  return (
    <Alert color="blue" variant="light" title="Unsaved draft" data-testid="draft-offer" role="region" aria-label="Unsaved draft">
      <Text size="sm">You have an unsaved draft from {formatDateTime(new Date(savedAt).toISOString())}.</Text>
      <Group gap="xs" mt="sm">
        <Button size="xs" onClick={answer(onRestore)}>
          Restore
        </Button>
        <Button size="xs" variant="default" onClick={answer(onDiscard)}>
          Discard
        </Button>
      </Group>
    </Alert>
  );
}
