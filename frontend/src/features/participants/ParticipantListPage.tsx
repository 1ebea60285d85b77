import { NotAvailableYet } from '../../components/NotAvailableYet';

export default function ParticipantListPage() {
  return <NotAvailableYet title="Participant Management" />;
}
