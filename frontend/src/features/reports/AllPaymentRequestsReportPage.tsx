import { NotAvailableYet } from '../../components/NotAvailableYet';

export default function AllPaymentRequestsReportPage() {
  return <NotAvailableYet title="All payment requests" />;
}
