import { useParams } from 'react-router';
import { VendorPaymentGenerateForm } from './VendorPaymentGenerateForm';
import { VendorPaymentReportView } from './VendorPaymentReportView';

export type VendorPaymentReportMode = 'create' | 'view';

/** The vendor payment report form, in create mode (generate) or view mode (a history entry). */
export default function VendorPaymentReportPage({ mode }: { mode: VendorPaymentReportMode }) {
  const { reportHistoryId } = useParams();
  return mode === 'create' ? <VendorPaymentGenerateForm /> : <VendorPaymentReportView id={Number(reportHistoryId)} />;
}
