import { NotAvailableYet } from '../../components/NotAvailableYet';

export default function ParticipantsReportPage() {
  return <NotAvailableYet title="Participants report" />;
}
