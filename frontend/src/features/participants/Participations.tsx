import { useFiscalYearsQuery, useReferenceListQuery } from '../../lib/referenceLists';
import { ScrollWhenNarrow } from '../../components/TableScroll';
import { UnseenHeader } from '../../components/TableHead';
import { Alert, Button, Card, Group, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type FormEvent } from 'react';
import { useHasPermission } from '../../lib/hooks';
import { openConfirm } from '../../components/confirmDialogs';
import { RowActions, RowButton } from '../../components/RowActions';
import { DialogActions } from '../../components/EditorActions';
import { asApiError } from '../../components/ErrorDisplay';
import { ErrorSummary } from '../../components/ErrorSummary';
import type { ApiError } from '../../api/errors';
import { useCreateParticipationMutation, useDeleteParticipationMutation, useUpdateParticipationMutation, type Participant, type Participation } from './api';
import type { ParticipantLookups } from './lookups';
import { nameByCode, nameById } from './options';
import {
  EMPTY_PARTICIPATION,
  PARTICIPATION_FIELDS,
  participationBody,
  participationValues,
  type ParticipationField,
  type ParticipationValues,
} from './participationForm';
import { ParticipationFields } from './ParticipationFields';
import { splitFieldErrors } from './saveErrors';

interface EditorState {
  /** undefined: a new participation. */
  participation?: Participation;
  values: ParticipationValues;
}

/** The participant's participations (program × fiscal year, role, college, dates). */
export function Participations({ participant, lookups }: { participant: Participant; lookups: ParticipantLookups }) {
  const canEdit = useHasPermission('participant:edit');
  const colleges = useReferenceListQuery('/colleges');
  const years = useFiscalYearsQuery();
  const [editor, setEditor] = useState<EditorState | null>(null);
  const [errors, setErrors] = useState<Partial<Record<ParticipationField, string>>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [refused, setRefused] = useState<{ attempt: ApiError; lines: string[] } | null>(null);
  const [create, creating] = useCreateParticipationMutation();
  const [update, updating] = useUpdateParticipationMutation();
  const [remove] = useDeleteParticipationMutation();
  const rows = participant.participations ?? [];

  const open = (participation?: Participation) => {
    setErrors({});
    setProblem(null);
    setRefused(null);
    setEditor({ participation, values: participation ? participationValues(participation) : EMPTY_PARTICIPATION });
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!editor) return;
    setErrors({});
    setProblem(null);
    setRefused(null);
    const body = participationBody(editor.values);
    try {
      if (editor.participation) {
        await update({ participantId: participant.id, id: editor.participation.id, body }).unwrap();
      } else {
        await create({ participantId: participant.id, body }).unwrap();
      }
      notifications.show({ color: 'green', title: 'Participation saved', message: `${nameById(lookups.programs, body.mentorProgramId)} was saved.` });
      setEditor(null);
    } catch (caught) {
      const error = asApiError(caught);
      const { byField, other } = splitFieldErrors(error.errors, PARTICIPATION_FIELDS);
      setErrors(byField);
      if (Object.keys(byField).length) setRefused({ attempt: error, lines: other });
      else setProblem(error.detail);
    }
  };

  const onDelete = async (participation: Participation) => {
    const program = nameById(lookups.programs, participation.mentorProgramId);
    const confirmed = await openConfirm({
      title: 'Delete participation',
      text: `Are you sure you want to delete the participation in ${program}?`,
      confirmLabel: 'Delete',
      cancelLabel: 'Keep',
      danger: true,
    });
    if (!confirmed) return;
    try {
      await remove({ participantId: participant.id, id: participation.id }).unwrap();
      notifications.show({ color: 'green', title: 'Participation deleted', message: `The participation in ${program} was deleted.` });
    } catch {
      // Toasted with the server's detail.
    }
  };

  const yearName = (id: number) => years.data?.find((y) => y.id === id)?.name ?? `#${id}`;

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label="Participations">
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={2} size="h4">
            Participations
          </Title>
          {canEdit && <Button onClick={() => open()}>Add participation</Button>}
        </Group>
        {rows.length === 0 ? (
          <Text c="dimmed" size="sm">
            No participations yet.
          </Text>
        ) : (
          <ScrollWhenNarrow label="Participations" minWidth={680}>
          <Table striped aria-label="Participations">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Mentor program</Table.Th>
                <Table.Th>Fiscal year</Table.Th>
                <Table.Th>Role</Table.Th>
                <Table.Th>College</Table.Th>
                <Table.Th>Start</Table.Th>
                <Table.Th>End</Table.Th>
                {canEdit && <UnseenHeader>Actions</UnseenHeader>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((p) => (
                <Table.Tr key={p.id}>
                  <Table.Td>{nameById(lookups.programs, p.mentorProgramId)}</Table.Td>
                  <Table.Td>{yearName(p.fiscalYearId)}</Table.Td>
                  <Table.Td>{nameByCode(lookups.roles, p.roleCode)}</Table.Td>
                  <Table.Td>{nameById(colleges.data, p.collegeId)}</Table.Td>
                  <Table.Td>{p.startDate}</Table.Td>
                  <Table.Td>{p.endDate ?? ''}</Table.Td>
                  {canEdit && (
                    <RowActions justify="flex-end">
                      <RowButton onClick={() => open(p)}>Edit</RowButton>
                      <RowButton color="red" onClick={() => onDelete(p)}>Delete</RowButton>
                    </RowActions>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          </ScrollWhenNarrow>
        )}
      </Stack>

      <Modal
        opened={editor !== null}
        onClose={() => setEditor(null)}
        title={editor?.participation ? 'Edit participation' : 'Add participation'}
        size="lg"
        centered
      >
        {editor && (
          <form onSubmit={onSubmit} noValidate aria-label="Participation">
            <Stack gap="md">
              {refused && <ErrorSummary attempt={refused.attempt} lines={refused.lines} />}
              <ParticipationFields
                values={editor.values}
                onChange={(values) => setEditor({ ...editor, values })}
                errors={errors}
                programs={lookups.programs}
                roles={lookups.roles}
              />
              {problem && (
                <Alert color="red" title="Not saved" role="alert">
                  {problem}
                </Alert>
              )}
              <DialogActions submit="Save participation" saving={creating.isLoading || updating.isLoading} onCancel={() => setEditor(null)} />
            </Stack>
          </form>
        )}
      </Modal>
    </Card>
  );
}
