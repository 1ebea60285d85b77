import { NotAvailableYet } from '../../components/NotAvailableYet';

export default function AllApprovalsReportPage() {
  return <NotAvailableYet title="All approvals" />;
}
