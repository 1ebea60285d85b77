import { ActionIcon, Badge, Button, Card, Group, Select, SimpleGrid, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { FormEvent } from 'react';
import { invalidateActiveBanners } from '../../api/banners';
import { useAppDispatch, useHasPermission } from '../../lib/hooks';
import { askAndSave, EditorActions, SaveError, useLeaveGuard } from '../../components/EditorActions';
import { fieldErrors, rowErrors, unshownRowErrors } from '../../components/fieldErrors';
import { PageCard } from '../../components/PageCard';
import { QueryStatus } from '../../components/QueryStatus';
import { useDraft } from '../../components/useDraft';
import type { Schemas } from '../../api/wire';
import { useGetBannersQuery, useReplaceBannersMutation, type Banner } from './api';
import { bannerState, fromLocalInput, toLocalInput, type BannerState } from './bannerRules';

// A colour for each value of the document's BannerSeverity enum: the type check fails when the server's list changes.
type Severity = Schemas['BannerSeverity'];
const SEVERITY_COLOURS: Record<Severity, string> = { Info: 'blue', Warning: 'yellow', Error: 'red' };
const SEVERITIES = Object.keys(SEVERITY_COLOURS) as Severity[];
const isSeverity = (v: string): v is Severity => v in SEVERITY_COLOURS;
const STATE_COLOURS: Record<BannerState, string> = { Showing: 'green', Scheduled: 'blue', Ended: 'gray', Off: 'gray' };
const SHOWN = new Set(['message', 'severity', 'startsAt', 'endsAt', 'isActive']);

const newBanner = (): Banner => ({ message: '', severity: 'Info', startsAt: null, endsAt: null, isActive: true });

/** The whole list is saved at once, in the order shown; banners removed here are deleted. */
export default function NotificationBannerPage() {
  const canEdit = useHasPermission('setting:edit');
  const dispatch = useAppDispatch();
  const query = useGetBannersQuery();
  const { draft, setDraft, dirty, reset, accept } = useDraft(query.data);
  const [replace, { isLoading: saving, error, reset: clearError }] = useReplaceBannersMutation();
  useLeaveGuard(canEdit && dirty);
  const errors = fieldErrors(error);

  const setRow = (index: number, patch: Partial<Banner>) =>
    setDraft((rows) => rows?.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  const move = (index: number, by: number) =>
    setDraft((rows) => {
      if (!rows) return rows;
      const next = [...rows];
      const [row] = next.splice(index, 1);
      next.splice(index + by, 0, row!);
      return next;
    });

  const save = async () => {
    if (!draft) return;
    const result = await replace(draft);
    if (result.data) {
      accept(result.data);
      dispatch(invalidateActiveBanners());
      notifications.show({ color: 'green', title: 'Saved', message: 'The notification banners were saved.' });
    }
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (canEdit && dirty) void askAndSave(save);
  };
  const unshown = unshownRowErrors(errors, SHOWN);

  return (
    <PageCard
      title="Notification banner"
      actions={
        canEdit && (
          <Button variant="light" onClick={() => setDraft((rows) => [...(rows ?? []), newBanner()])}>
            Add banner
          </Button>
        )
      }
    >
      <Text size="sm" c="dimmed">
        Active banners show at the top of every page for every signed-in user, within their window (times in your local time).
      </Text>
      <QueryStatus isLoading={query.isLoading} error={query.error}>
        {draft && (
          <form onSubmit={onSubmit} noValidate aria-label="Notification banners">
            <Stack gap="md">
              <SaveError error={error} unshown={unshown} />
              {draft.length === 0 && (
                <Text c="dimmed" ta="center" py="lg">
                  No banners. {canEdit ? 'Add one to tell every user something.' : ''}
                </Text>
              )}
              {draft.map((banner, index) => {
                const rowErr = rowErrors(errors, index);
                const state = bannerState(banner);
                const n = index + 1;
                return (
                  <Card key={banner.id ?? `new-${index}`} withBorder padding="sm" component="fieldset" aria-label={`Banner ${n}`} data-testid="banner-row">
                    <Stack gap="xs">
                      <Group justify="space-between">
                        <Group gap="xs">
                          <Text fw={600}>Banner {n}</Text>
                          <Badge color={STATE_COLOURS[state]} variant="light">
                            {state === 'Showing' ? 'Showing now' : state}
                          </Badge>
                          {!banner.id && <Badge variant="outline">New</Badge>}
                        </Group>
                        {canEdit && (
                          <Group gap={4}>
                            <ActionIcon variant="subtle" aria-label={`Move banner ${n} up`} disabled={index === 0} onClick={() => move(index, -1)}>
                              ↑
                            </ActionIcon>
                            <ActionIcon
                              variant="subtle"
                              aria-label={`Move banner ${n} down`}
                              disabled={index === draft.length - 1}
                              onClick={() => move(index, 1)}
                            >
                              ↓
                            </ActionIcon>
                            <Button
                              size="xs"
                              variant="subtle"
                              color="red"
                              onClick={() => setDraft((rows) => rows?.filter((_, i) => i !== index))}
                            >
                              Remove
                            </Button>
                          </Group>
                        )}
                      </Group>
                      <Textarea
                        label="Message"
                        required
                        autosize
                        minRows={2}
                        maxLength={1000}
                        readOnly={!canEdit}
                        value={banner.message}
                        error={rowErr.message}
                        onChange={(e) => setRow(index, { message: e.currentTarget.value })}
                      />
                      <SimpleGrid cols={{ base: 1, sm: 4 }}>
                        <Select
                          label="Severity"
                          data={SEVERITIES}
                          allowDeselect={false}
                          readOnly={!canEdit}
                          value={banner.severity}
                          error={rowErr.severity}
                          leftSection={
                            <span
                              aria-hidden
                              style={{ width: 10, height: 10, borderRadius: 5, background: `var(--mantine-color-${SEVERITY_COLOURS[banner.severity]}-filled)` }}
                            />
                          }
                          onChange={(v) => v && isSeverity(v) && setRow(index, { severity: v })}
                        />
                        <TextInput
                          label="Shown from"
                          type="datetime-local"
                          description="Empty: at once"
                          readOnly={!canEdit}
                          value={toLocalInput(banner.startsAt)}
                          error={rowErr.startsAt}
                          onChange={(e) => setRow(index, { startsAt: fromLocalInput(e.currentTarget.value) })}
                        />
                        <TextInput
                          label="Shown until"
                          type="datetime-local"
                          description="Empty: until switched off"
                          readOnly={!canEdit}
                          value={toLocalInput(banner.endsAt)}
                          error={rowErr.endsAt}
                          onChange={(e) => setRow(index, { endsAt: fromLocalInput(e.currentTarget.value) })}
                        />
                        <Switch
                          label="Active"
                          mt={28}
                          disabled={!canEdit}
                          checked={banner.isActive}
                          error={rowErr.isActive}
                          onChange={(e) => setRow(index, { isActive: e.currentTarget.checked })}
                        />
                      </SimpleGrid>
                    </Stack>
                  </Card>
                );
              })}
              {canEdit && <EditorActions dirty={dirty} saving={saving} onCancel={() => { clearError(); reset(); }} />}
            </Stack>
          </form>
        )}
      </QueryStatus>
    </PageCard>
  );
}
