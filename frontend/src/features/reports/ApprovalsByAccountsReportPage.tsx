import { NotAvailableYet } from '../../components/NotAvailableYet';

export default function ApprovalsByAccountsReportPage() {
  return <NotAvailableYet title="Approvals by accounts" />;
}
