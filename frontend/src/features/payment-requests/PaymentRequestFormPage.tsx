import { useParams } from 'react-router';
import { NotAvailableYet } from '../../components/NotAvailableYet';

export type PaymentRequestFormMode = 'create' | 'edit' | 'view' | 'approve';
const TITLES: Record<PaymentRequestFormMode, string> = {
  create: 'New payment request',
  edit: 'Edit payment request',
  view: 'Payment request',
  approve: 'Approve payment request',
};

export default function PaymentRequestFormPage({ mode }: { mode: PaymentRequestFormMode }) {
  const { formType, paymentRequestId } = useParams();
  const subject = [formType, paymentRequestId && `#${paymentRequestId}`].filter(Boolean).join(' ');
  return <NotAvailableYet title={TITLES[mode]} description={subject || undefined} />;
}
