import { useReferenceListQuery } from '../../lib/referenceLists';
import { Button, Checkbox, MultiSelect, Select, SimpleGrid, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useHasPermission } from '../../lib/hooks';
import { useGetPayeesQuery, useGetPaymentRequestSummaryQuery } from './api';
import { usePickablePrograms } from './myPrograms';
import { payeeLabel } from './names';
import { idValue, listItems, listValue } from '../../components/urlState';
import type { RequestFilterValues } from './listQuery';
import { statusLabel } from './StatusBadge';
import { clearable } from '../../lib/clearable';

// The filters of GET /payment-requests, shared by the request list (/) and the details
// list (/payment-requests/details). Both keep them in the address bar (useUrlState);
// these inputs only read the state and report patches.

type OnChange = (patch: RequestFilterValues) => void;

/** The mentor program and, within it, the payee; a payee belongs to one program, so changing it clears the payee. */
export function ProgramFilter({ state, onChange }: { state: RequestFilterValues; onChange: OnChange }) {
  // A Coordinator is offered its own programs only.
  const programs = usePickablePrograms();
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm" maw={840}>
      <Select
        label="Mentor program"
        placeholder="All programs"
        data={(programs ?? []).map((p) => ({ value: String(p.id), label: p.name }))}
        value={state.MentorProgramId ?? null}
        onChange={(v) => onChange({ MentorProgramId: v ?? undefined, ParticipationId: undefined })}
        {...clearable('Mentor program')}
        searchable
      />
      <PayeeFilter state={state} onChange={onChange} />
    </SimpleGrid>
  );
}

/** Payees of the chosen program by name; a payee in the address bar without a program is still named. */
function PayeeFilter({ state, onChange }: { state: RequestFilterValues; onChange: OnChange }) {
  const mentorProgramId = idValue(state.MentorProgramId);
  const participationId = idValue(state.ParticipationId);
  const inProgram = useGetPayeesQuery({ mentorProgramId }, { skip: !mentorProgramId });
  const known = inProgram.data?.some((p) => p.participationId === participationId);
  const chosen = useGetPayeesQuery({ participationIds: participationId ? [participationId] : [] }, { skip: !participationId || known });
  const payees = [...(inProgram.data ?? []), ...(known ? [] : (chosen.data ?? []))];
  return (
    <Select
      label="Payee"
      placeholder={mentorProgramId ? 'Any' : 'Choose a mentor program first'}
      disabled={!mentorProgramId && !participationId}
      data={payees.map((p) => ({ value: String(p.participationId), label: payeeLabel(p) }))}
      value={state.ParticipationId ?? null}
      onChange={(v) => onChange({ ParticipationId: v ?? undefined })}
      {...clearable('Payee')}
      searchable
    />
  );
}

/** Status, form type and the three dates. Statuses come from GET /payment-requests/summary, types from /types. */
export function RequestFilters({ state, onChange, compact = false }: { state: RequestFilterValues; onChange: OnChange; compact?: boolean }) {
  const summary = useGetPaymentRequestSummaryQuery(idValue(state.MentorProgramId));
  const types = useReferenceListQuery('/payment-requests/types');
  const anyDate = Boolean(state.ApprovedStart || state.ApprovedEnd || state.PlacementEndDate);
  const [moreOpen, setMoreOpen] = useState(false);
  const canApprove = useHasPermission('request:approve');
  // Compact (Home): the dates wait behind "More filters", so the work list starts higher.
  const showDates = !compact || moreOpen || anyDate;
  const date = (label: string, key: 'ApprovedStart' | 'ApprovedEnd' | 'PlacementEndDate') => (
    <TextInput type="date" label={label} value={state[key] ?? ''} onChange={(e) => onChange({ [key]: e.currentTarget.value || undefined })} />
  );
  return (
    <SimpleGrid cols={compact ? { base: 2, lg: (showDates ? 5 : 3) + (canApprove ? 1 : 0) } : { base: 2, md: 3, lg: canApprove ? 6 : 5 }} spacing="sm">
      <MultiSelect
        label="Status"
        placeholder={state.FormStatus ? undefined : 'Any'}
        data={(summary.data?.statuses ?? []).map((s) => ({ value: s.formStatus, label: statusLabel(s.formStatus) }))}
        value={listItems(state.FormStatus)}
        onChange={(items) => onChange({ FormStatus: listValue(items) })}
        {...clearable('Status')}
      />
      <MultiSelect
        label="Form type"
        placeholder={state.FormType ? undefined : 'Any'}
        // A chosen type's pill shows its code ("F2"), whole in the narrow field; the list names it.
        data={(types.data ?? []).map((t) => ({ value: t.code ?? String(t.id), label: t.code ?? t.name }))}
        renderOption={({ option }) => `${option.label} ${types.data?.find((t) => t.code === option.value)?.name ?? ''}`.trim()}
        value={listItems(state.FormType)}
        onChange={(items) => onChange({ FormType: listValue(items) })}
        {...clearable('Form type')}
      />
      {canApprove && (
        <Checkbox
          mt={30}
          label="Waiting for me"
          checked={state.WaitingForMe === 'true'}
          onChange={(e) => onChange({ WaitingForMe: e.currentTarget.checked ? 'true' : undefined })}
        />
      )}
      {showDates ? (
        <>
          {date('Approved from', 'ApprovedStart')}
          {date('Approved until', 'ApprovedEnd')}
          {date('Placement ends by', 'PlacementEndDate')}
        </>
      ) : (
        <Button variant="subtle" size="sm" mt={24} onClick={() => setMoreOpen(true)} aria-expanded={false}>
          More filters
        </Button>
      )}
    </SimpleGrid>
  );
}
