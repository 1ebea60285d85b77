import { useEffect, useRef } from 'react';
import { Button, Group, Paper, Text } from '@mantine/core';
import { formatCents } from './money';
import { selectionTotal, type Selection } from './bulkAction';

/**
 * What is selected (count and total), a way to take every matching row across pages, and the
 * action. Shown above a table whose rows carry checkboxes.
 */
export function BulkActionBar({
  selection,
  matching,
  onSelectAllMatching,
  selectingAll,
  onClear,
  actionLabel,
  onAction,
  busy,
}: {
  selection: Selection;
  /** Rows matching the filters that the action can take (across every page). */
  matching: number;
  onSelectAllMatching: () => void;
  selectingAll: boolean;
  onClear: () => void;
  actionLabel: string;
  onAction: () => void;
  busy: boolean;
}) {
  const count = selection.size;
  const action = useRef<HTMLButtonElement>(null);
  // "Select all" and "Clear selection" go away once used: the focus moves on to the action.
  const toAction = () => requestAnimationFrame(() => action.current?.focus());
  // While the action runs its button is disabled (its spinner), which drops the focus: it comes
  // back to the button when the action is over.
  const used = useRef(false);
  useEffect(() => {
    if (!busy && used.current) {
      used.current = false;
      action.current?.focus();
    }
  }, [busy]);
  return (
    <Paper withBorder radius="md" px="sm" py={6} bg={count ? 'brand.0' : undefined} aria-label="Bulk action" component="section">
      <Group justify="space-between" gap="sm">
        <Group gap="sm">
          <Text size="sm" data-testid="bulk-summary">
            {count === 0 ? 'No request selected.' : `${count} selected, totalling ${formatCents(selectionTotal(selection))}.`}
          </Text>
          {matching > count && (
            <Button size="xs" variant="subtle" loading={selectingAll} onClick={() => {
                onSelectAllMatching();
                toAction();
              }}>
              Select all {matching} that can be moved
            </Button>
          )}
          {count > 0 && (
            <Button size="xs" variant="subtle" color="gray" onClick={() => {
                onClear();
                toAction();
              }}>
              Clear selection
            </Button>
          )}
        </Group>
        {/* Unavailable but focusable (not `disabled`): after a move empties the selection the
            focus stays here, where the person was, rather than falling to the page's body. */}
        <Button
          ref={action}
          size="sm"
          data-disabled={count === 0 || undefined}
          aria-disabled={count === 0 || undefined}
          loading={busy}
          onClick={() => {
            if (count === 0) return;
            used.current = true;
            onAction();
          }}
        >
          {actionLabel}
          {count ? ` (${count})` : ''}
        </Button>
      </Group>
    </Paper>
  );
}
