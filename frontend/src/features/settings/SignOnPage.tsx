import { ActionIcon, Button, Group, MultiSelect, Radio, Stack, Switch, Text, TextInput, Textarea, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type FormEvent } from 'react';
import { askAndSave, EditorActions, SaveError, useLeaveGuard } from '../../components/EditorActions';
import { fieldErrors, unshownErrors } from '../../components/fieldErrors';
import { PageCard } from '../../components/PageCard';
import { QueryStatus } from '../../components/QueryStatus';
import { useDraft } from '../../components/useDraft';
import { useIdentityRolesQuery } from '../../lib/identityLists';
import { useHasPermission } from '../../lib/hooks';
import { useGetSsoSettingsQuery, useUpdateSsoSettingsMutation, type SsoSettings } from './api';
import { clearable } from '../../lib/clearable';

/** The e-mails of the text area, one a line (commas too). */
function emails(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((e) => e.trim())
    .filter(Boolean);
}

/** How sign-in with the agency's directory becomes a MentorPay sign-in. */
export default function SignOnPage() {
  const canEdit = useHasPermission('setting:edit');
  const query = useGetSsoSettingsQuery();
  const roles = useIdentityRolesQuery();
  const { draft, setDraft, dirty, reset, accept } = useDraft(query.data);
  const [update, { isLoading: saving, error, reset: clearError }] = useUpdateSsoSettingsMutation();
  useLeaveGuard(canEdit && dirty);
  const errors = fieldErrors(error);
  const roleNames = (roles.data ?? []).map((r) => r.name);
  // The list as typed (a trailing new line kept), until saved or cancelled.
  const [accountsText, setAccountsText] = useState<string | null>(null);
  const change = (patch: Partial<SsoSettings>) => setDraft((d) => (d ? { ...d, ...patch } : d));

  const save = async () => {
    if (!draft) return;
    const result = await update(draft);
    if (result.data) {
      accept(result.data);
      setAccountsText(null);
      notifications.show({ color: 'green', title: 'Saved', message: 'The sign-on settings are saved.' });
    }
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (canEdit && dirty) void askAndSave(save);
  };
  const shown = (f: string) =>
    ['createAccounts', 'defaultRoles', 'passwordSignIn', 'passwordAccounts'].includes(f) || f.startsWith('groupRoles');

  return (
    <PageCard title="Sign-on">
      <QueryStatus isLoading={query.isLoading} error={query.error}>
        {draft && (
          <form onSubmit={onSubmit} noValidate aria-label="Sign-on">
            <Stack gap="lg" maw={820}>
              <Text size="sm">
                People who sign in with the agency&apos;s directory (OpenID Connect or LDAP) become MentorPay users as set here.
              </Text>
              <SaveError error={error} unshown={unshownErrors(errors, shown)} />
              <Switch
                label="Create an account at the first directory sign-in"
                description="Otherwise only people who already have a MentorPay account may sign in. A new account is linked to the participant with the same e-mail."
                checked={draft.createAccounts}
                disabled={!canEdit}
                onChange={(e) => change({ createAccounts: e.currentTarget.checked })}
              />
              <MultiSelect
                label="Roles of a new account"
                description="Used while no group is mapped below."
                data={roleNames}
                value={draft.defaultRoles}
                disabled={!canEdit}
                {...clearable('Roles of a new account')}
                error={errors.defaultRoles}
                onChange={(defaultRoles) => change({ defaultRoles })}
              />
              <Stack gap="xs" component="section" aria-labelledby="group-roles-title">
                <Title order={2} size="h5" id="group-roles-title">
                  Directory groups and their roles
                </Title>
                <Text size="sm" c="dimmed">
                  When a group is listed, every directory sign-in sets the person&apos;s roles from her groups, in this order; someone in no listed group is refused.
                </Text>
                {draft.groupRoles.map((row, i) => (
                  <Group key={i} align="flex-end" wrap="wrap" data-testid="group-role-row">
                    <TextInput
                      label={`Group ${i + 1}`}
                      description="Its name, or its distinguished name for LDAP"
                      value={row.group}
                      disabled={!canEdit}
                      required
                      error={errors[`groupRoles[${i}].group`]}
                      onChange={(e) => {
                        const group = e.currentTarget.value;
                        change({ groupRoles: draft.groupRoles.map((r, j) => (j === i ? { ...r, group } : r)) });
                      }}
                      miw={240}
                      autoFocus={i === draft.groupRoles.length - 1 && row.group === ''}
                    />
                    <MultiSelect
                      label={`Roles of group ${i + 1}`}
                      required
                      data={roleNames}
                      value={row.roles}
                      disabled={!canEdit}
                      error={errors[`groupRoles[${i}].roles`]}
                      onChange={(names) =>
                        change({ groupRoles: draft.groupRoles.map((r, j) => (j === i ? { ...r, roles: names } : r)) })
                      }
                      miw={240}
                    />
                    {canEdit && (
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        size="lg"
                        aria-label={`Remove group ${i + 1}`}
                        onClick={() => change({ groupRoles: draft.groupRoles.filter((_, j) => j !== i) })}
                      >
                        ×
                      </ActionIcon>
                    )}
                  </Group>
                ))}
                {canEdit && (
                  <Group>
                    <Button variant="light" onClick={() => change({ groupRoles: [...draft.groupRoles, { group: '', roles: [] }] })}>
                      Add a group
                    </Button>
                  </Group>
                )}
              </Stack>
              <Radio.Group
                label="Sign-in with a MentorPay password"
                value={draft.passwordSignIn}
                onChange={(v) => change({ passwordSignIn: v === 'listed' ? 'listed' : 'everyone' })}
                error={errors.passwordSignIn}
              >
                <Stack gap="xs" mt="xs">
                  <Radio value="everyone" label="Everyone may sign in with a password" disabled={!canEdit} />
                  <Radio value="listed" label="Only the accounts listed below (break-glass Administrators)" disabled={!canEdit} />
                </Stack>
              </Radio.Group>
              <Textarea
                label="Accounts that keep password sign-in"
                description="One e-mail a line. Everyone else signs in with the agency button and gets no password reset mail."
                autosize
                minRows={2}
                disabled={!canEdit}
                value={accountsText ?? draft.passwordAccounts.join('\n')}
                error={errors.passwordAccounts ?? Object.entries(errors).find(([f]) => f.startsWith('passwordAccounts['))?.[1]}
                onChange={(e) => {
                  const text = e.currentTarget.value;
                  setAccountsText(text);
                  change({ passwordAccounts: emails(text) });
                }}
              />
              {canEdit ? (
                <EditorActions dirty={dirty} saving={saving} onCancel={() => { clearError(); setAccountsText(null); reset(); }} />
              ) : (
                <Text size="sm" c="dimmed">
                  Changing these settings needs the setting:edit permission.
                </Text>
              )}
            </Stack>
          </form>
        )}
      </QueryStatus>
    </PageCard>
  );
}
