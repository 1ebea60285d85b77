import { NotAvailableYet } from '../../components/NotAvailableYet';

export default function PaymentRequestDetailsListPage() {
  return <NotAvailableYet title="Payment request details" />;
}
