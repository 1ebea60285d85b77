import { NotAvailableYet } from '../../components/NotAvailableYet';

export default function VendorPaymentListPage() {
  return <NotAvailableYet title="Vendor payments" />;
}
