import {
  Alert,
  Button,
  Fieldset,
  Group,
  MultiSelect,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { Link, useBlocker, useNavigate } from 'react-router';
import type { ApiError } from '../../api/errors';
import { confirmCancelChanges, confirmSaveChanges, openConfirm } from '../../components/confirmDialogs';
import { SaveError } from '../../components/EditorActions';
import { asApiError } from '../../components/ErrorDisplay';
import { DraftOffer } from '../../components/DraftOffer';
import { ErrorSummary } from '../../components/ErrorSummary';
import { useFormDraft } from '../../components/useFormDraft';
import { HistoryLink } from '../../components/HistoryLink';
import { PageCard } from '../../components/PageCard';
import { PermissionGate } from '../../components/PermissionGate';
import { useAppDispatch } from '../../lib/hooks';
import {
  participantsApi,
  useCreateParticipantMutation,
  useDeleteParticipantMutation,
  useUpdateParticipantMutation,
  type Participant,
} from './api';
import type { ParticipantLookups } from './lookups';
import { codeOptions, idOptions } from './options';
import {
  bodyFromValues,
  checkParticipant,
  EMPTY_PARTICIPANT_VALUES,
  isDirty,
  PARTICIPANT_FIELDS,
  valuesFromParticipant,
  type ParticipantField,
  type ParticipantFormValues,
} from './participantForm';
import {
  EMPTY_PARTICIPATION,
  nestedParticipationErrors,
  PARTICIPATION_FIELDS,
  participationBody,
  participationStarted,
  type ParticipationField,
} from './participationForm';
import { ParticipationFields } from './ParticipationFields';
import type { ParticipantFormMode } from './ParticipantFormPage';
import { saveProblem, splitFieldErrors } from './saveErrors';
import { clearable } from '../../lib/clearable';

const TITLES: Record<ParticipantFormMode, string> = {
  create: 'New participant',
  edit: 'Edit participant',
  view: 'Participant details',
};

interface Props {
  mode: ParticipantFormMode;
  participant?: Participant;
  lookups: ParticipantLookups;
}

type MultiField = 'workplaceSettingIds' | 'languageIds' | 'educationLevelIds' | 'permitLevelIds';

/** The participant form in its three modes: create, edit, view. */
export function ParticipantEditor({ mode, participant, lookups }: Props) {
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const readOnly = mode === 'view';
  const [initial] = useState<ParticipantFormValues>(() => (participant ? valuesFromParticipant(participant) : EMPTY_PARTICIPANT_VALUES));
  const [values, setValues] = useState(initial);
  const [firstParticipation, setFirstParticipation] = useState(EMPTY_PARTICIPATION);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<ParticipantField, string>>>({});
  const [participationErrors, setParticipationErrors] = useState<Partial<Record<ParticipationField, string>>>({});
  const [problem, setProblem] = useState<string | null>(null);
  // A save refused for its fields: summed up at the top of the form, with links to the fields.
  // (`attempt`: the server's answer, or the problems the browser found before sending.)
  const [refused, setRefused] = useState<{ attempt: unknown; lines: string[] } | null>(null);
  // Someone else saved first: said as every editor says it, with a reload.
  const [conflict, setConflict] = useState<ApiError | null>(null);
  const [createParticipant, creating] = useCreateParticipantMutation();
  const [updateParticipant, updating] = useUpdateParticipantMutation();
  const [deleteParticipant, deleting] = useDeleteParticipantMutation();
  const saving = creating.isLoading || updating.isLoading;

  const dirty = !readOnly && (isDirty(initial, values) || (mode === 'create' && participationStarted(firstParticipation)));
  // Kept in the browser while unsaved (an idle sign-out must not lose it); an edit's draft
  // belongs to the version it started from.
  const draftKey = readOnly ? null : `participant:${participant ? `${participant.id}:v${participant.version}` : 'new'}`;
  const draftValues = useMemo(() => ({ values, firstParticipation }), [values, firstParticipation]);
  const kept = useFormDraft(draftKey, draftValues, dirty);
  // Set once the user has chosen to leave (saved, or discarded the changes).
  const leaving = useRef(false);
  const cancelTarget = mode === 'edit' && participant ? `/participant/${participant.id}/details` : '/participant/list';

  // Leaving with unsaved changes by any other way (menu, Back) asks the same question.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && !leaving.current && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    void confirmCancelChanges().then((discard) => (discard ? blocker.proceed() : blocker.reset()));
  }, [blocker]);

  const set = <F extends ParticipantField>(field: F, value: ParticipantFormValues[F]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setFieldErrors((current) => ({ ...current, [field]: undefined }));
  };

  const leave = (to: string) => {
    leaving.current = true;
    navigate(to);
  };

  const onCancel = async () => {
    if (dirty && !(await confirmCancelChanges())) return;
    leave(cancelTarget);
  };

  const showError = (error: ApiError) => {
    const result = saveProblem(error, PARTICIPANT_FIELDS, 'email');
    if (result.kind === 'fields') {
      setFieldErrors(result.byField);
      setRefused({ attempt: error, lines: result.other });
    } else if (result.kind === 'conflict' && mode === 'edit') {
      setConflict(error);
    } else {
      setProblem(result.detail);
    }
    if (mode === 'create') {
      const nested = splitFieldErrors(nestedParticipationErrors(error.errors), PARTICIPATION_FIELDS);
      setParticipationErrors(nested.byField);
      if (Object.keys(nested.byField).length && result.kind !== 'fields') setRefused({ attempt: error, lines: [] });
    }
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (readOnly || saving) return;
    // What the browser can see is said at once, before any question.
    const found = checkParticipant(values);
    if (Object.keys(found).length > 0) {
      setFieldErrors(found);
      setRefused({ attempt: found, lines: [] });
      return;
    }
    if (!(await confirmSaveChanges())) return;
    setProblem(null);
    setRefused(null);
    setFieldErrors({});
    setParticipationErrors({});
    try {
      if (mode === 'create') {
        const body = bodyFromValues(values);
        const created = await createParticipant(
          participationStarted(firstParticipation) ? { ...body, participations: [participationBody(firstParticipation)] } : body,
        ).unwrap();
        kept.saved();
        notifications.show({ color: 'green', title: 'Participant created', message: `${created.fullName} was created.` });
        leave(`/participant/${created.id}/details`);
      } else if (participant) {
        const saved = await updateParticipant({ id: participant.id, body: bodyFromValues(values, participant.version) }).unwrap();
        kept.saved();
        notifications.show({ color: 'green', title: 'Changes saved', message: `${saved.fullName} was saved.` });
        leave(`/participant/${participant.id}/details`);
      }
    } catch (error) {
      showError(asApiError(error));
    }
  };

  const onReload = () => {
    if (!participant) return;
    setConflict(null);
    // A fresh copy (new version) remounts this form with the saved values.
    dispatch(participantsApi.util.invalidateTags([{ type: 'Participant', id: participant.id }]));
  };

  const onDelete = async () => {
    if (!participant) return;
    const confirmed = await openConfirm({
      title: 'Delete participant',
      text: `Are you sure you want to delete ${participant.fullName}? The participant and its participations leave every list.`,
      confirmLabel: 'Delete',
      cancelLabel: 'Keep',
      danger: true,
    });
    if (!confirmed) return;
    try {
      await deleteParticipant(participant.id).unwrap();
      notifications.show({ color: 'green', title: 'Participant deleted', message: `${participant.fullName} was deleted.` });
      leave('/participant/list');
    } catch {
      // The failed mutation is toasted with the server's detail.
    }
  };

  const multi = (field: MultiField, label: string, items = lookups.workplaceSettings) => (
    <MultiSelect
      label={label}
      data={idOptions(items, values[field])}
      value={values[field]}
      onChange={(value) => set(field, value)}
      error={fieldErrors[field]}
      readOnly={readOnly}
      searchable={!readOnly}
      {...clearable(label, !readOnly)}
      hidePickedOptions
      placeholder={readOnly ? (values[field].length ? undefined : '—') : values[field].length ? undefined : 'None'}
    />
  );

  const actions = readOnly && participant && (
    <Group gap="xs">
      <Button variant="default" component={Link} to="/participant/list">
        Back to list
      </Button>
      <HistoryLink entityType="participant" entityId={participant.id} />
      <PermissionGate permission={'participant:delete'} fallback={null}>
        <Button color="red" variant="light" onClick={onDelete} loading={deleting.isLoading}>
          Delete
        </Button>
      </PermissionGate>
      <PermissionGate permission={'participant:edit'} fallback={null}>
        <Button component={Link} to={`/participant/${participant.id}/edit`}>
          Edit
        </Button>
      </PermissionGate>
    </Group>
  );

  return (
    <PageCard title={participant && mode !== 'create' ? `${TITLES[mode]}: ${participant.fullName}` : TITLES[mode]} actions={actions}>
      <form onSubmit={onSubmit} noValidate aria-label="Participant">
        <Stack gap="md">
          {kept.offer && (
            <DraftOffer
              savedAt={kept.offer.savedAt}
              onRestore={() => {
                const draft = kept.restore();
                if (!draft) return;
                setValues({ ...initial, ...draft.values });
                if (draft.firstParticipation) setFirstParticipation({ ...EMPTY_PARTICIPATION, ...draft.firstParticipation });
              }}
              onDiscard={kept.discard}
            />
          )}
          {refused && <ErrorSummary attempt={refused.attempt} lines={refused.lines} />}
          <SaveError error={conflict} onReload={onReload} />
          <Fieldset legend="Person">
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="xs">
              <TextInput
                label="First name"
                required={!readOnly}
                value={values.firstName}
                onChange={(e) => set('firstName', e.currentTarget.value)}
                error={fieldErrors.firstName}
                readOnly={readOnly}
                data-autofocus
              />
              <TextInput
                label="Last name"
                required={!readOnly}
                value={values.lastName}
                onChange={(e) => set('lastName', e.currentTarget.value)}
                error={fieldErrors.lastName}
                readOnly={readOnly}
              />
              <TextInput
                label="E-mail"
                type="email"
                required={!readOnly}
                value={values.email}
                onChange={(e) => set('email', e.currentTarget.value)}
                error={fieldErrors.email}
                readOnly={readOnly}
              />
              <TextInput
                label="Phone"
                type="tel"
                value={values.phone}
                onChange={(e) => set('phone', e.currentTarget.value)}
                error={fieldErrors.phone}
                readOnly={readOnly}
                placeholder={readOnly ? '—' : undefined}
              />
              <Textarea
                label="Address"
                autosize
                minRows={2}
                value={values.address}
                onChange={(e) => set('address', e.currentTarget.value)}
                error={fieldErrors.address}
                readOnly={readOnly}
                placeholder={readOnly ? '—' : undefined}
              />
              <Stack gap="xs">
                <Select
                  label="Status"
                  required={!readOnly}
                  data={codeOptions(lookups.statuses)}
                  value={values.status}
                  onChange={(value) => set('status', value)}
                  error={fieldErrors.status}
                  readOnly={readOnly}
                />
                <Select
                  label="Role"
                  required={!readOnly}
                  data={codeOptions(lookups.roles)}
                  value={values.roleCode}
                  onChange={(value) => set('roleCode', value)}
                  error={fieldErrors.roleCode}
                  readOnly={readOnly}
                />
              </Stack>
            </SimpleGrid>
          </Fieldset>

          <Fieldset legend="District and region">
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm" verticalSpacing="xs">
              <Select
                label="District type"
                data={codeOptions(lookups.districtTypes)}
                value={values.districtSetType}
                onChange={(value) => {
                  set('districtSetType', value);
                  if (!value) set('districtId', '');
                }}
                error={fieldErrors.districtSetType}
                readOnly={readOnly}
                {...clearable('District type', !readOnly)}
                placeholder={readOnly ? '—' : 'None'}
              />
              <NumberInput
                label="District"
                min={1}
                allowDecimal={false}
                allowNegative={false}
                disabled={!readOnly && !values.districtSetType}
                value={values.districtId}
                onChange={(value) => set('districtId', value === '' ? '' : String(value))}
                error={fieldErrors.districtId}
                readOnly={readOnly}
                placeholder={readOnly ? '—' : values.districtSetType ? 'Number' : 'Pick a type first'}
              />
              <Select
                label="Caucus region"
                data={idOptions(lookups.caucusRegions, values.caucusRegionId ? [values.caucusRegionId] : [])}
                value={values.caucusRegionId}
                onChange={(value) => set('caucusRegionId', value)}
                error={fieldErrors.caucusRegionId}
                readOnly={readOnly}
                {...clearable('Caucus region', !readOnly)}
                searchable={!readOnly}
                placeholder={readOnly ? '—' : 'None'}
              />
            </SimpleGrid>
          </Fieldset>

          <Fieldset legend="Background">
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="xs">
              {multi('workplaceSettingIds', 'Workplace settings', lookups.workplaceSettings)}
              {multi('languageIds', 'Languages', lookups.languages)}
              {multi('educationLevelIds', 'Education levels', lookups.educationLevels)}
              {multi('permitLevelIds', 'Permit levels', lookups.permitLevels)}
            </SimpleGrid>
          </Fieldset>

          {mode === 'create' && (
            <Fieldset legend="First participation">
              <Text size="sm" c="dimmed" mb="xs">
                Optional for Administrators. A Coordinator must place the new participant in a program it coordinates.
              </Text>
              <ParticipationFields
                values={firstParticipation}
                onChange={(next) => {
                  setFirstParticipation(next);
                  setParticipationErrors({});
                }}
                errors={participationErrors}
                programs={lookups.programs}
                roles={lookups.roles}
                required={participationStarted(firstParticipation)}
                optional
              />
            </Fieldset>
          )}

          {problem && (
            <Alert color="red" title="Not saved" role="alert">
              {problem}
            </Alert>
          )}

          {!readOnly && (
            <Group justify="flex-end">
              <Button variant="default" onClick={onCancel} disabled={saving}>
                Cancel
              </Button>
              <Button type="submit" loading={saving} disabled={mode === 'edit' && !dirty}>
                Save Changes
              </Button>
            </Group>
          )}
        </Stack>
      </form>
    </PageCard>
  );
}
