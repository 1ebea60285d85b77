import { useParams } from 'react-router';
import { NotAvailableYet } from '../../components/NotAvailableYet';

export default function BudgetDetailsPage() {
  const { fiscalYearId } = useParams();
  return <NotAvailableYet title="Budget details" description={`Fiscal year ${fiscalYearId}`} />;
}
