import { Alert, Button, Fieldset, Group, List, Loader, Select, SimpleGrid, Stack, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { askAndCancel, askAndSave, SaveError } from '../../components/EditorActions';
import { asApiError } from '../../components/ErrorDisplay';
import { ErrorSummary } from '../../components/ErrorSummary';
import { fieldErrors } from '../../components/fieldErrors';
import { MoneyField } from '../../components/MoneyInput';
import { MountedModal } from '../../components/MountedModal';
import { PageCard } from '../../components/PageCard';
import { QueryStatus } from '../../components/QueryStatus';
import { RowActions, RowButton } from '../../components/RowActions';
import { TableScroll } from '../../components/TableScroll';
import { useIdentityRolesQuery } from '../../lib/identityLists';
import { useHasPermission } from '../../lib/hooks';
import { useReferenceListQuery } from '../../lib/referenceLists';
import { useGetApprovalRulesQuery, useSaveApprovalRuleMutation, useTryApprovalRuleMutation, type ApprovalRule, type ApprovalStep } from './api';
import {
  addStep,
  chainWords,
  emptyAmounts,
  MAX_STEPS,
  moveStep,
  removeStep,
  stepErrorLines,
  stepErrors,
  stepLine,
  toDrafts,
  toSteps,
  unshownStepErrors,
  type StepDraft,
} from './approvalRules';

/** The wait after the last change before a tried amount is asked (typing asks once). */
const TRY_DELAY_MS = 350;

/** Focus an element of the editor once React has drawn it (after a row moved, came or went). */
const focusSoon = (id: string) => requestAnimationFrame(() => document.getElementById(id)?.focus());

/** "Try an amount": the steps, as edited, that a request of that amount would go through (the server says which). */
function TryAmount({ formType, drafts }: { formType: ApprovalRule['formType']; drafts: StepDraft[] }) {
  const [amount, setAmount] = useState<number | ''>('');
  const [tryRule] = useTryApprovalRuleMutation();
  const [answer, setAnswer] = useState<{ key: string; steps?: ApprovalStep[]; problems?: string[] } | null>(null);
  const ready = amount !== '' && emptyAmounts(drafts).length === 0;
  const steps = toSteps(drafts);
  const key = JSON.stringify([amount, steps]);
  const current = answer?.key === key ? answer : null;

  useEffect(() => {
    if (!ready) return;
    const timer = setTimeout(async () => {
      const result = await tryRule({ formType, steps, amount: amount as number });
      if (result.data) setAnswer({ key, steps: result.data.steps });
      else {
        const e = asApiError(result.error);
        const lines = stepErrorLines(fieldErrors(e));
        setAnswer({ key, problems: lines.length ? lines : [e.detail || e.title] });
      }
    }, TRY_DELAY_MS);
    return () => clearTimeout(timer);
    // `steps` is rebuilt each render; `key` names its content.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, ready, formType, tryRule]);

  return (
    <Fieldset legend="Try an amount" variant="filled">
      <Stack gap="xs">
        <MoneyField
          label="Requested amount"
          description="The steps above that a request of this amount would go through. Nothing is saved."
          value={amount}
          onChange={setAmount}
          // Enter here tries the amount; it must not save the rule.
          onKeyDown={(e) => e.key === 'Enter' && e.preventDefault()}
          maw={240}
        />
        <div aria-live="polite" data-testid="try-result">
          {ready && !current && (
            <Group gap="xs">
              <Loader size="xs" aria-hidden />
              <Text size="sm" c="dimmed">
                Checking…
              </Text>
            </Group>
          )}
          {current?.steps && <Text size="sm">{chainWords(amount as number, current.steps)}</Text>}
          {current?.problems && (
            <Alert color="orange" variant="light" p="xs" title="These steps cannot be tried yet">
              <List size="sm">
                {current.problems.map((line) => (
                  <List.Item key={line}>{line}</List.Item>
                ))}
              </List>
            </Alert>
          )}
        </div>
      </Stack>
    </Fieldset>
  );
}

/** One step's row: name, role, from amount, and its move and remove buttons. */
function StepFields({
  draft,
  index,
  count,
  roles,
  errors,
  onChange,
  onMove,
  onRemove,
}: {
  draft: StepDraft;
  index: number;
  count: number;
  roles: { value: string; label: string }[];
  errors: Record<string, string>;
  onChange: (patch: Partial<StepDraft>) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const n = index + 1;
  // The visible label is the field's; the hidden words say which step, to a screen reader and in the error summary.
  const label = (text: string) => (
    <>
      <VisuallyHidden>Step {n} </VisuallyHidden>
      {text}
    </>
  );
  const data = draft.role && !roles.some((r) => r.value === draft.role) ? [{ value: draft.role, label: draft.role }, ...roles] : roles;
  return (
    <Fieldset legend={`Step ${n}`} data-testid="step-row">
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        <TextInput id={`step-${draft.id}-name`} label={label('Name')} required maxLength={100} value={draft.name} error={errors.name} onChange={(e) => onChange({ name: e.currentTarget.value })} />
        <Select label={label('Role')} required searchable data={data} value={draft.role} error={errors.role} onChange={(role) => onChange({ role })} comboboxProps={{ withinPortal: true }} />
        <MoneyField
          label={label('From amount')}
          required
          description={index === 0 ? 'The first step takes every request: 0.00.' : 'Requests of at least this amount.'}
          // Below the box, so the three boxes of a step stay on one line.
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          value={draft.fromAmount}
          error={errors.fromAmount}
          onChange={(fromAmount) => onChange({ fromAmount })}
        />
      </SimpleGrid>
      <Group gap="xs" mt="xs" justify="flex-end">
        <Button id={`step-${draft.id}-up`} size="xs" variant="subtle" disabled={index === 0} onClick={() => onMove(-1)} aria-label={`Move up step ${n}`}>
          Move up
        </Button>
        <Button id={`step-${draft.id}-down`} size="xs" variant="subtle" disabled={index === count - 1} onClick={() => onMove(1)} aria-label={`Move down step ${n}`}>
          Move down
        </Button>
        <Button size="xs" variant="subtle" color="red" disabled={count === 1} onClick={onRemove} aria-label={`Remove step ${n}`}>
          Remove
        </Button>
      </Group>
    </Fieldset>
  );
}

/** The editor of one form's rule, in a dialog: 1 to 5 steps, saved whole. */
function RuleEditor({ rule, formName, roles, onClose }: { rule: ApprovalRule; formName: string; roles: { value: string; label: string }[]; onClose: () => void }) {
  const initial = useMemo(() => toDrafts(rule.steps), [rule]);
  const [drafts, setDrafts] = useState(initial);
  const [save, { isLoading, error, reset }] = useSaveApprovalRuleMutation();
  // Empty amounts are said here, before anything is sent; `attempt` moves the summary's focus.
  const [local, setLocal] = useState<{ attempt: number; errors: Record<string, string> }>({ attempt: 0, errors: {} });
  const dirty = JSON.stringify(drafts.map(({ id: _id, ...d }) => d)) !== JSON.stringify(rule.steps);
  const errors = { ...fieldErrors(error), ...local.errors };

  // A row that moves or goes takes its errors' indices with it: the old errors no longer fit.
  const restructure = (next: StepDraft[]) => {
    reset();
    setLocal((l) => ({ ...l, errors: {} }));
    setDrafts(next);
  };
  const patch = (index: number, p: Partial<StepDraft>) => setDrafts((ds) => ds.map((d, i) => (i === index ? { ...d, ...p } : d)));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const empty = emptyAmounts(drafts);
    if (empty.length > 0) {
      reset();
      setLocal((l) => ({ attempt: l.attempt + 1, errors: Object.fromEntries(empty.map((i) => [`steps[${i}].fromAmount`, 'Enter an amount'])) }));
      return;
    }
    setLocal((l) => ({ ...l, errors: {} }));
    void askAndSave(async () => {
      const result = await save({ formType: rule.formType, steps: toSteps(drafts) });
      if (result.data) {
        notifications.show({ color: 'green', title: 'Saved', message: `The approval rule of ${formName} was saved.` });
        onClose();
      }
    });
  };
  const close = () => void askAndCancel(dirty, onClose);

  return (
    <MountedModal onClose={close} title={`Approval rule: ${formName}`} size="xl" centered>
      <form onSubmit={onSubmit} noValidate aria-label={`Approval rule of ${formName}`}>
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            A request goes through every step whose amount it reaches, in this order, when it is submitted. Requests already submitted
            keep their steps.
          </Text>
          {local.attempt > 0 && Object.keys(local.errors).length > 0 && !error && <ErrorSummary attempt={local.attempt} />}
          <SaveError error={error} unshown={unshownStepErrors(fieldErrors(error))} />
          {drafts.map((draft, index) => (
            <StepFields
              key={draft.id}
              draft={draft}
              index={index}
              count={drafts.length}
              roles={roles}
              errors={stepErrors(errors, index)}
              onChange={(p) => patch(index, p)}
              onMove={(by) => {
                restructure(moveStep(drafts, index, by));
                // The focus stays on the button pressed, or on its twin when it is now disabled.
                const to = index + by;
                const edge = (by === -1 && to === 0) || (by === 1 && to === drafts.length - 1);
                focusSoon(`step-${draft.id}-${by === -1 ? (edge ? 'down' : 'up') : edge ? 'up' : 'down'}`);
              }}
              onRemove={() => {
                const next = removeStep(drafts, index);
                restructure(next);
                focusSoon(`step-${next[Math.max(0, index - 1)]!.id}-name`);
              }}
            />
          ))}
          <Group justify="space-between">
            <Button
              variant="light"
              disabled={drafts.length >= MAX_STEPS}
              onClick={() => {
                const next = addStep(drafts);
                restructure(next);
                focusSoon(`step-${next[next.length - 1]!.id}-name`);
              }}
            >
              Add a step
            </Button>
            <Text size="xs" c="dimmed">
              {drafts.length} of at most {MAX_STEPS} steps
            </Text>
          </Group>
          <TryAmount formType={rule.formType} drafts={drafts} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {dirty ? 'Cancel Changes' : 'Close'}
            </Button>
            <Button type="submit" loading={isLoading} disabled={!dirty}>
              Save Changes
            </Button>
          </Group>
        </Stack>
      </form>
    </MountedModal>
  );
}

/** Settings > Approval rules: who approves each form's requests, step by step, from which amount. */
export default function ApprovalRulesPage() {
  const canEdit = useHasPermission('setting:edit');
  const canReadRoles = useHasPermission('role:read');
  const rules = useGetApprovalRulesQuery();
  const types = useReferenceListQuery('/payment-requests/types');
  const roleList = useIdentityRolesQuery(undefined, { skip: !canEdit || !canReadRoles });
  const [editing, setEditing] = useState<ApprovalRule | null>(null);
  const formName = (code: string) => {
    const name = types.data?.find((t) => t.code === code)?.name;
    return name ? `${code} ${name}` : code;
  };
  // Only roles that may approve can take a step (the server refuses the others).
  const roles = (roleList.data ?? []).filter((r) => r.permissions.includes('request:approve')).map((r) => ({ value: r.name, label: r.name }));

  return (
    <PageCard title="Approval rules">
      <Text size="sm" c="dimmed">
        The steps a payment request goes through before it is approved, for each form. A step applies when the requested amount at
        submission is at least its amount; the last step approves the request.
      </Text>
      <QueryStatus isLoading={rules.isLoading} error={rules.error}>
        <TableScroll label="Approval rules per form" minWidth={640}>
          <Table striped withTableBorder aria-label="Approval rules per form" data-testid="approval-rules">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Form</Table.Th>
                <Table.Th>Steps</Table.Th>
                {canEdit && (
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                )}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(rules.data ?? []).map((rule) => (
                <Table.Tr key={rule.formType} data-form-type={rule.formType}>
                  <Table.Th scope="row">{formName(rule.formType)}</Table.Th>
                  <Table.Td>
                    <List type="ordered" size="sm" spacing={2}>
                      {rule.steps.map((step) => (
                        <List.Item key={step.name}>{stepLine(step)}</List.Item>
                      ))}
                    </List>
                  </Table.Td>
                  {canEdit && (
                    <RowActions justify="flex-end">
                      <RowButton rowName={formName(rule.formType)} onClick={() => setEditing(rule)}>
                        Edit
                      </RowButton>
                    </RowActions>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </TableScroll>
        {!canEdit && (
          <Text size="sm" c="dimmed">
            You can view these rules; changing them needs the setting:edit permission.
          </Text>
        )}
      </QueryStatus>
      {editing && <RuleEditor rule={editing} formName={formName(editing.formType)} roles={roles} onClose={() => setEditing(null)} />}
    </PageCard>
  );
}
