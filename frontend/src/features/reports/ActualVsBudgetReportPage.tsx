import { NotAvailableYet } from '../../components/NotAvailableYet';

export default function ActualVsBudgetReportPage() {
  return <NotAvailableYet title="Actual vs. budget" />;
}
