import { Alert, Stack, Switch, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { FormEvent } from 'react';
import { useHasPermission } from '../../lib/hooks';
import { askAndSave, EditorActions, SaveError, useLeaveGuard } from '../../components/EditorActions';
import { fieldErrors, unshownErrors } from '../../components/fieldErrors';
import { PageCard } from '../../components/PageCard';
import { QueryStatus } from '../../components/QueryStatus';
import { useDraft } from '../../components/useDraft';
import { useGetLoginBlockQuery, useSetLoginBlockMutation } from './api';

/** Blocks Coordinator sign-in (and their token refresh) with a message they are shown; Administrators are unaffected. */
export default function BlockLoginPage() {
  const canEdit = useHasPermission('setting:edit');
  const query = useGetLoginBlockQuery();
  const { draft, setDraft, dirty, reset, accept } = useDraft(query.data);
  const [setBlock, { isLoading: saving, error, reset: clearError }] = useSetLoginBlockMutation();
  useLeaveGuard(canEdit && dirty);
  const errors = fieldErrors(error);

  const save = async () => {
    if (!draft) return;
    const result = await setBlock({ isBlocked: draft.isBlocked, message: draft.message?.trim() ? draft.message : null });
    if (result.data) {
      accept(result.data);
      notifications.show({
        color: 'green',
        title: 'Saved',
        message: result.data.isBlocked ? 'Coordinator sign-in is blocked.' : 'Coordinators can sign in.',
      });
    }
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (canEdit && dirty) void askAndSave(save);
  };

  return (
    <PageCard title="Block login">
      <QueryStatus isLoading={query.isLoading} error={query.error}>
        {draft && query.data && (
          <form onSubmit={onSubmit} noValidate aria-label="Block login">
            <Stack gap="md" maw={720}>
              <Alert
                color={query.data.isBlocked ? 'red' : 'green'}
                variant="light"
                data-testid="block-status"
                title={query.data.isBlocked ? 'Coordinator sign-in is blocked' : 'Coordinators can sign in'}
              >
                {query.data.isBlocked
                  ? 'Coordinators are refused at sign-in and when their session renews, and see the message below.'
                  : 'Blocking stops Coordinators from signing in (for example at fiscal year end) and ends the sign-ins they have open. Administrators are never blocked.'}
              </Alert>
              <SaveError error={error} unshown={unshownErrors(errors, (f) => f === 'message' || f === 'isBlocked')} />
              <Switch
                label="Block Coordinator sign-in"
                checked={draft.isBlocked}
                disabled={!canEdit}
                error={errors.isBlocked}
                onChange={(e) => {
                  const isBlocked = e.currentTarget.checked;
                  setDraft((d) => (d ? { ...d, isBlocked } : d));
                }}
              />
              <Textarea
                label="Message shown to Coordinators"
                description="Required while sign-in is blocked (at most 1000 characters)."
                autosize
                minRows={3}
                maxLength={1000}
                required={draft.isBlocked}
                disabled={!canEdit}
                value={draft.message ?? ''}
                error={errors.message}
                onChange={(e) => {
                  // Empty is null, as the server stores it, so clearing the text is not a change.
                  const message = e.currentTarget.value || null;
                  setDraft((d) => (d ? { ...d, message } : d));
                }}
              />
              {canEdit ? (
                <EditorActions dirty={dirty} saving={saving} onCancel={() => { clearError(); reset(); }} />
              ) : (
                <Text size="sm" c="dimmed">
                  Changing the block needs the setting:edit permission.
                </Text>
              )}
            </Stack>
          </form>
        )}
      </QueryStatus>
    </PageCard>
  );
}
