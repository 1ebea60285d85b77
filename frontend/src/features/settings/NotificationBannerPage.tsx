import { NotAvailableYet } from '../../components/NotAvailableYet';

export default function NotificationBannerPage() {
  return <NotAvailableYet title="Notification banner" />;
}
