import { NotAvailableYet } from '../../components/NotAvailableYet';

export default function MentorProgramReimbursementsReportPage() {
  return <NotAvailableYet title="Mentor program reimbursements" />;
}
