import { Center, Loader, Stack } from '@mantine/core';
import { useParams } from 'react-router';
import { asApiError, ErrorDisplay } from '../../components/ErrorDisplay';
import { useGetParticipantQuery } from './api';
import { useParticipantLookups } from './lookups';
import { ParticipantEditor } from './ParticipantEditor';
import { ParticipantLogin } from './ParticipantLogin';
import { Participations } from './Participations';

export type ParticipantFormMode = 'create' | 'edit' | 'view';

export default function ParticipantFormPage({ mode }: { mode: ParticipantFormMode }) {
  const { participantId } = useParams();
  const id = Number(participantId);
  const lookups = useParticipantLookups({ caucusRegions: true });
  const validId = mode === 'create' || (Number.isSafeInteger(id) && id > 0);
  const participant = useGetParticipantQuery(id, { skip: mode === 'create' || !validId });

  if (!validId) return <ErrorDisplay title="Not Found" message="There is no participant at this address." />;
  if (participant.error) {
    const error = asApiError(participant.error);
    return error.status === 404 ? (
      <ErrorDisplay error={error} title="Not Found" message="This participant does not exist or has been deleted." />
    ) : (
      <ErrorDisplay error={error} />
    );
  }
  if (mode !== 'create' && !participant.data) {
    return (
      <Center h={240}>
        <Loader aria-label="Loading" />
      </Center>
    );
  }

  const data = participant.data;
  return (
    <Stack gap="lg">
      {/* Keyed by version: a reload after a conflict starts the form from the saved values. */}
      <ParticipantEditor key={data ? `${data.id}-${data.version}` : 'new'} mode={mode} participant={data} lookups={lookups} />
      {mode === 'view' && data && (
        <>
          <Participations participant={data} lookups={lookups} />
          <ParticipantLogin participant={data} />
        </>
      )}
    </Stack>
  );
}
