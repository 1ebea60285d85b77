import { Fieldset, NumberInput, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type FormEvent } from 'react';
import { useHasPermission } from '../../lib/hooks';
import { askAndSave, EditorActions, SaveError, useLeaveGuard } from '../../components/EditorActions';
import { fieldErrors, unshownErrors } from '../../components/fieldErrors';
import { centsToInput, parseMoneyInput, toCents } from '../../components/money';
import { MoneyInput } from '../../components/MoneyInput';
import { PageCard } from '../../components/PageCard';
import { QueryStatus } from '../../components/QueryStatus';
import { useDraft } from '../../components/useDraft';
import { useGetGeneralSettingsQuery, useUpdateGeneralSettingsMutation, type GeneralSettings } from './api';

const FIELDS = [
  'organisationName',
  'supportEmail',
  'mileageRate',
  'mealRates.breakfast',
  'mealRates.lunch',
  'mealRates.dinner',
  'accessTokenTtlSeconds',
  'refreshTokenTtlSeconds',
  'digestHour',
  'timeZone',
  'unattachedReceiptQuotaMb',
  'reminderDays',
  'escalationDays',
  'dateFormat',
];

const HOURS = Array.from({ length: 24 }, (_, h) => ({ value: String(h), label: `${String(h).padStart(2, '0')}:00` }));
// The browser's own list of time zone names (the server checks the name against its database).
const ZONES = ['UTC', ...Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC')];

// The server's closed set (settings::date_format), each said in words.
const DATE_FORMATS = [
  { value: 'MM/DD/YYYY', label: 'MM/DD/YYYY (month first, as in the United States)' },
  { value: 'DD/MM/YYYY', label: 'DD/MM/YYYY (day first)' },
  { value: 'YYYY-MM-DD', label: 'YYYY-MM-DD (year first)' },
];

const duration = (seconds: number | string) => {
  const s = Number(seconds);
  if (!Number.isFinite(s) || s <= 0) return '';
  if (s % 3600 === 0) return `${s / 3600} hour${s === 3600 ? '' : 's'}`;
  if (s % 60 === 0) return `${s / 60} minute${s === 60 ? '' : 's'}`;
  return `${s} seconds`;
};


export default function GeneralSettingsPage() {
  const canEdit = useHasPermission('setting:edit');
  const query = useGetGeneralSettingsQuery();
  const { draft, setDraft, dirty, reset, accept } = useDraft(query.data);
  const [update, { isLoading: saving, error, reset: clearError }] = useUpdateGeneralSettingsMutation();
  useLeaveGuard(canEdit && dirty);
  const errors = fieldErrors(error);

  const set = (patch: Partial<GeneralSettings>) => setDraft((d) => (d ? { ...d, ...patch } : d));
  const setMeal = (meal: keyof GeneralSettings['mealRates'], value: number | string) =>
    setDraft((d) => (d ? { ...d, mealRates: { ...d.mealRates, [meal]: value as number } } : d));
  // Rates as typed: a refused text (0.725, -1) stays on screen with its reason and is never
  // rounded into the draft; the draft only takes amounts that parse exactly.
  const [texts, setTexts] = useState<Record<string, string>>({});
  const rate = (key: string, current: number, apply: (v: number) => void) => ({
    value: texts[key] ?? centsToInput(toCents(current)),
    onChange: (text: string) => {
      setTexts((t) => ({ ...t, [key]: text }));
      const parsed = parseMoneyInput(text);
      if (parsed.error === undefined) apply(parsed.cents / 100);
    },
  });
  const refused = Object.values(texts).some((t) => parseMoneyInput(t).error !== undefined);

  const save = async () => {
    if (!draft) return;
    const result = await update(draft);
    if (result.data) {
      setTexts({});
      accept(result.data);
      notifications.show({ color: 'green', title: 'Saved', message: 'The general settings were saved.' });
    }
  };
  const reload = async () => {
    clearError();
    setTexts({});
    const fresh = await query.refetch();
    if (fresh.data) accept(fresh.data);
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (refused) {
      document.querySelector<HTMLElement>('form[aria-label="General settings"] [aria-invalid="true"]')?.focus();
      return;
    }
    if (canEdit && dirty) void askAndSave(save);
  };

  return (
    <PageCard title="General settings">
      <QueryStatus isLoading={query.isLoading} error={query.error}>
        {draft && (
          <form onSubmit={onSubmit} noValidate aria-label="General settings">
            <Stack gap="md" maw={720}>
              <SaveError error={error} onReload={reload} unshown={unshownErrors(errors, (f) => FIELDS.includes(f))} />
              <Fieldset legend="Organisation" disabled={!canEdit}>
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  <TextInput
                    label="Organisation name"
                    required
                    value={draft.organisationName}
                    error={errors.organisationName}
                    onChange={(e) => set({ organisationName: e.currentTarget.value })}
                  />
                  <TextInput
                    label="Support e-mail"
                    type="email"
                    required
                    value={draft.supportEmail}
                    error={errors.supportEmail}
                    onChange={(e) => set({ supportEmail: e.currentTarget.value })}
                  />
                </SimpleGrid>
              </Fieldset>
              <Fieldset legend="Rates" disabled={!canEdit}>
                <SimpleGrid cols={{ base: 1, sm: 4 }}>
                  <MoneyInput
                    label="Mileage rate (per mile)"
                    error={errors.mileageRate}
                    {...rate('mileageRate', draft.mileageRate, (v) => set({ mileageRate: v }))}
                  />
                  <MoneyInput
                    label="Breakfast"
                    error={errors['mealRates.breakfast']}
                    {...rate('breakfast', draft.mealRates.breakfast, (v) => setMeal('breakfast', v))}
                  />
                  <MoneyInput
                    label="Lunch"
                    error={errors['mealRates.lunch']}
                    {...rate('lunch', draft.mealRates.lunch, (v) => setMeal('lunch', v))}
                  />
                  <MoneyInput
                    label="Dinner"
                    error={errors['mealRates.dinner']}
                    {...rate('dinner', draft.mealRates.dinner, (v) => setMeal('dinner', v))}
                  />
                </SimpleGrid>
                <Text size="xs" c="dimmed" mt="xs">
                  Travel (F3) requests are paid at the mileage rate; meal (F12) requests at the meal rates.
                </Text>
              </Fieldset>
              <Fieldset legend="Sessions" disabled={!canEdit}>
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  <NumberInput
                    label="Access token lifetime (seconds)"
                    description={duration(draft.accessTokenTtlSeconds) || '30 to 86400'}
                    min={30}
                    max={86400}
                    allowDecimal={false}
                    value={draft.accessTokenTtlSeconds}
                    error={errors.accessTokenTtlSeconds}
                    onChange={(v) => set({ accessTokenTtlSeconds: v as number })}
                  />
                  <NumberInput
                    label="Sign-in lifetime (refresh token, seconds)"
                    description={duration(draft.refreshTokenTtlSeconds) || '60 to 2592000'}
                    min={60}
                    max={2592000}
                    allowDecimal={false}
                    value={draft.refreshTokenTtlSeconds}
                    error={errors.refreshTokenTtlSeconds}
                    onChange={(v) => set({ refreshTokenTtlSeconds: v as number })}
                  />
                </SimpleGrid>
                <Text size="xs" c="dimmed" mt="xs">
                  New lifetimes apply to tokens issued from now on.
                </Text>
              </Fieldset>
              <Fieldset legend="Daily e-mail digest" disabled={!canEdit}>
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  <Select
                    label="Sent at"
                    data={HOURS}
                    value={String(draft.digestHour)}
                    allowDeselect={false}
                    error={errors.digestHour}
                    onChange={(v) => v !== null && set({ digestHour: Number(v) })}
                  />
                  <Select
                    label="Time zone"
                    data={ZONES.includes(draft.timeZone) ? ZONES : [draft.timeZone, ...ZONES]}
                    value={draft.timeZone}
                    searchable
                    allowDeselect={false}
                    limit={50}
                    error={errors.timeZone}
                    onChange={(v) => v !== null && set({ timeZone: v })}
                  />
                </SimpleGrid>
                <Text size="xs" c="dimmed" mt="xs">
                  Users who chose a daily digest get one mail a day at this hour, listing what waits for them.
                </Text>
              </Fieldset>
              <Fieldset legend="Approval reminders" disabled={!canEdit}>
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  <NumberInput
                    label="Remind approvers after (days)"
                    description="1 to 60. A step waiting longer than this reminds its approvers once a day."
                    min={1}
                    max={60}
                    allowDecimal={false}
                    value={draft.reminderDays}
                    error={errors.reminderDays}
                    onChange={(v) => set({ reminderDays: v as number })}
                  />
                  <NumberInput
                    label="Tell the Administrators after (days)"
                    description="1 to 120, more than the reminder days. Sent once per step still waiting."
                    min={1}
                    max={120}
                    allowDecimal={false}
                    value={draft.escalationDays}
                    error={errors.escalationDays}
                    onChange={(v) => set({ escalationDays: v as number })}
                  />
                </SimpleGrid>
                <Text size="xs" c="dimmed" mt="xs">
                  Whole days since the step became current. Mails follow each person&apos;s notification choice (a daily digest holds them).
                </Text>
              </Fieldset>
              <Fieldset legend="Imported files" disabled={!canEdit}>
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  <Select
                    label="Date format"
                    description="How the office writes a day in the spreadsheets it imports"
                    data={DATE_FORMATS}
                    value={draft.dateFormat}
                    allowDeselect={false}
                    error={errors.dateFormat}
                    onChange={(v) => v !== null && set({ dateFormat: v as GeneralSettings['dateFormat'] })}
                  />
                </SimpleGrid>
                <Text size="xs" c="dimmed" mt="xs">
                  The participant import reads dates in this format; YYYY-MM-DD is always read as well. The import template says which.
                </Text>
              </Fieldset>
              <Fieldset legend="Receipts" disabled={!canEdit}>
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  <NumberInput
                    label="Receipts not yet attached, per person (MB)"
                    description="1 to 10240"
                    min={1}
                    max={10240}
                    allowDecimal={false}
                    value={draft.unattachedReceiptQuotaMb}
                    error={errors.unattachedReceiptQuotaMb}
                    onChange={(v) => set({ unattachedReceiptQuotaMb: v as number })}
                  />
                </SimpleGrid>
                <Text size="xs" c="dimmed" mt="xs">
                  Uploaded receipts count until they are attached to a request; an upload past this is refused.
                </Text>
              </Fieldset>
              {canEdit ? (
                <EditorActions dirty={dirty} saving={saving} onCancel={() => { clearError(); setTexts({}); reset(); }} />
              ) : (
                <Text size="sm" c="dimmed">
                  You can view these settings; changing them needs the setting:edit permission.
                </Text>
              )}
            </Stack>
          </form>
        )}
      </QueryStatus>
    </PageCard>
  );
}
