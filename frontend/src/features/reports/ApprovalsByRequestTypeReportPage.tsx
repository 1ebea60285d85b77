import { NotAvailableYet } from '../../components/NotAvailableYet';

export default function ApprovalsByRequestTypeReportPage() {
  return <NotAvailableYet title="Approvals by request type" />;
}
