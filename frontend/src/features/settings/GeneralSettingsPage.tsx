import { NotAvailableYet } from '../../components/NotAvailableYet';

export default function GeneralSettingsPage() {
  return <NotAvailableYet title="General settings" />;
}
