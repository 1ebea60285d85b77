import { Alert, Checkbox, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { FormEvent } from 'react';
import { useHasPermission } from '../../lib/hooks';
import { useIdentityRolesQuery } from '../../lib/identityLists';
import { askAndSave, EditorActions, SaveError, useLeaveGuard } from '../../components/EditorActions';
import { fieldErrors } from '../../components/fieldErrors';
import { PageCard } from '../../components/PageCard';
import { QueryStatus } from '../../components/QueryStatus';
import { useDraft } from '../../components/useDraft';
import { useGetSecuritySettingsQuery, useUpdateSecuritySettingsMutation } from './api';

/** Which roles must sign in with a second factor (a passkey or an authenticator app). */
export default function SecurityPolicyPage() {
  const canEdit = useHasPermission('setting:edit');
  const query = useGetSecuritySettingsQuery();
  const roles = useIdentityRolesQuery();
  const { draft, setDraft, dirty, reset, accept } = useDraft(query.data);
  const [update, { isLoading: saving, error, reset: clearError }] = useUpdateSecuritySettingsMutation();
  useLeaveGuard(canEdit && dirty);
  const errors = fieldErrors(error);

  const save = async () => {
    if (!draft) return;
    const result = await update({ mfaRequiredRoles: draft.mfaRequiredRoles });
    if (result.data) {
      accept(result.data);
      const n = result.data.mfaRequiredRoles.length;
      notifications.show({ color: 'green', title: 'Saved', message: n ? `${n === 1 ? 'One role' : `${n} roles`} must use two-step sign-in.` : 'No role must use two-step sign-in.' });
    }
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (canEdit && dirty) void askAndSave(save);
  };
  const required = new Set((draft?.mfaRequiredRoles ?? []).map((r) => r.toLowerCase()));
  const toggle = (name: string, on: boolean) =>
    setDraft((d) => {
      if (!d) return d;
      const others = d.mfaRequiredRoles.filter((r) => r.toLowerCase() !== name.toLowerCase());
      // Kept in the server's order (by name), so ticking and unticking is not a change.
      return { mfaRequiredRoles: on ? [...others, name].sort((a, b) => a.localeCompare(b)) : others };
    });

  return (
    <PageCard title="Security policy">
      <QueryStatus isLoading={query.isLoading || roles.isLoading} error={query.error ?? roles.error}>
        {draft && (
          <form onSubmit={onSubmit} noValidate aria-label="Security policy">
            <Stack gap="md" maw={720}>
              <Alert color="blue" variant="light">
                People with a role ticked here must sign in with a second factor as well as the password: a passkey or a code from an authenticator app. Someone who has none yet is asked to set up an authenticator app at the next sign-in.
              </Alert>
              <SaveError error={error} unshown={Object.entries(errors).filter(([f]) => f !== 'mfaRequiredRoles').map(([f, t]) => `${f}: ${t}`)} />
              <Checkbox.Group label="Roles that must use two-step sign-in" error={errors.mfaRequiredRoles} value={(roles.data ?? []).filter((r) => required.has(r.name.toLowerCase())).map((r) => r.name)}>
                <Stack gap="xs" mt="xs">
                  {(roles.data ?? []).map((role) => (
                    <Checkbox key={role.id} value={role.name} label={role.name} disabled={!canEdit} onChange={(e) => toggle(role.name, e.currentTarget.checked)} />
                  ))}
                </Stack>
              </Checkbox.Group>
              {canEdit ? (
                <EditorActions dirty={dirty} saving={saving} onCancel={() => { clearError(); reset(); }} />
              ) : (
                <Text size="sm" c="dimmed">
                  Changing the policy needs the setting:edit permission.
                </Text>
              )}
            </Stack>
          </form>
        )}
      </QueryStatus>
    </PageCard>
  );
}
