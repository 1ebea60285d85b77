import { NotAvailableYet } from '../../components/NotAvailableYet';

export default function HistoricalBonusesReportPage() {
  return <NotAvailableYet title="Historical bonuses" />;
}
