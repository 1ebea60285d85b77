import { NotAvailableYet } from '../../components/NotAvailableYet';

export default function BlockLoginPage() {
  return <NotAvailableYet title="Block login" />;
}
