import { Alert, Button, Group, List, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useBlocker } from 'react-router';
import { isStale, type ApiError } from '../api/errors';
import { confirmCancelChanges, confirmSaveChanges } from './confirmDialogs';
import { asApiError, ErrorDisplay } from './ErrorDisplay';
import { ErrorSummary } from './ErrorSummary';

/** Save asks 'Are you sure you want to save the changes?'; Cancel asks only when there is something to lose. */
export async function askAndSave(save: () => Promise<unknown>) {
  if (await confirmSaveChanges()) await save();
}

export async function askAndCancel(dirty: boolean, cancel: () => void) {
  if (!dirty || (await confirmCancelChanges())) cancel();
}

/** Save Changes / Cancel Changes buttons of an editor; Save is the form's submit button (Enter saves). */
export function EditorActions({ dirty, saving, onCancel }: { dirty: boolean; saving: boolean; onCancel: () => void }) {
  return (
    <Group justify="flex-end" gap="sm">
      <Button variant="default" disabled={!dirty || saving} onClick={() => askAndCancel(dirty, onCancel)}>
        Cancel Changes
      </Button>
      <Button type="submit" disabled={!dirty} loading={saving}>
        Save Changes
      </Button>
    </Group>
  );
}

/** A dialog's Cancel and its form's submit button, named `submit`. */
export function DialogActions({ submit, saving, onCancel }: { submit: string; saving: boolean; onCancel: () => void }) {
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" loading={saving}>
        {submit}
      </Button>
    </Group>
  );
}

/**
 * Leaving the page with unsaved edits asks the Cancel Changes question first
 * (in-app navigation only; a reload is the browser's business).
 */
export function useLeaveGuard(dirty: boolean) {
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    void confirmCancelChanges().then((leave) => (leave ? blocker.proceed() : blocker.reset()));
  }, [blocker]);
}

/**
 * A failed save, said clearly: a stale version (someone else saved first) offers to reload
 * theirs; another conflict (a name taken, a closed year) is said in the server's words, since
 * no reload mends it; field errors are summed up with links to the fields (`ErrorSummary`);
 * anything else shows the server's text.
 */
export function SaveError({
  error,
  onReload,
  unshown = [],
}: {
  error: unknown;
  onReload?: () => void;
  /** Field errors that no input on the page displays. */
  unshown?: string[];
}) {
  if (!error) return null;
  const e: ApiError = asApiError(error);
  if (isStale(e)) {
    return (
      <Alert color="orange" variant="light" role="alert" title="Changed by someone else" data-testid="conflict">
        <Text size="sm">{e.detail}</Text>
        <Text size="sm" mt={4}>
          Your changes were not saved. Reload to see the current values, then make your changes again.
        </Text>
        {onReload && (
          <Button size="xs" mt="sm" color="orange" onClick={onReload}>
            Reload current values
          </Button>
        )}
      </Alert>
    );
  }
  if (e.status === 409) return <ErrorDisplay error={e} title="This cannot be done now" />;
  // With field errors the summary links to the fields; the detail would repeat them.
  if (e.errors && Object.keys(e.errors).length > 0) return <ErrorSummary attempt={error} lines={unshown} />;
  return (
    <Alert color="red" variant="light" role="alert" title={e.title}>
      <Text size="sm">{e.detail}</Text>
      {unshown.length > 0 && (
        <List size="sm">
          {unshown.map((line) => (
            <List.Item key={line}>{line}</List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}
