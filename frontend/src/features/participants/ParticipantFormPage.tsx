import { useParams } from 'react-router';
import { NotAvailableYet } from '../../components/NotAvailableYet';

export type ParticipantFormMode = 'create' | 'edit' | 'view';
const TITLES: Record<ParticipantFormMode, string> = {
  create: 'New participant',
  edit: 'Edit participant',
  view: 'Participant details',
};

export default function ParticipantFormPage({ mode }: { mode: ParticipantFormMode }) {
  const { participantId } = useParams();
  return <NotAvailableYet title={TITLES[mode]} description={participantId ? `Participant ${participantId}` : undefined} />;
}
