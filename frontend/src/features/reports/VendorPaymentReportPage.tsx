import { useParams } from 'react-router';
import { NotAvailableYet } from '../../components/NotAvailableYet';

export type VendorPaymentReportMode = 'create' | 'view';

export default function VendorPaymentReportPage({ mode }: { mode: VendorPaymentReportMode }) {
  const { reportHistoryId } = useParams();
  return mode === 'create' ? (
    <NotAvailableYet title="Generate vendor payment report" />
  ) : (
    <NotAvailableYet title="Vendor payment report" description={`Report ${reportHistoryId}`} />
  );
}
