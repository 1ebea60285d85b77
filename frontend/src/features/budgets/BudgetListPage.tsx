import { NotAvailableYet } from '../../components/NotAvailableYet';

export default function BudgetListPage() {
  return <NotAvailableYet title="Budgets" />;
}
