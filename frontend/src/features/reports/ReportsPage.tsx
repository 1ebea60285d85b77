import { NotAvailableYet } from '../../components/NotAvailableYet';

export default function ReportsPage() {
  return <NotAvailableYet title="Reports" />;
}
