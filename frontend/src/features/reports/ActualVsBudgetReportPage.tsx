import { budgetByProgram } from './charts';
import { ReportChart } from './ReportChart';
import { ReportView } from './ReportView';

const SERIES = [
  { key: 'budgeted', label: 'Budgeted', color: 'brand.6' },
  { key: 'actual', label: 'Actual', color: 'orange.6' },
];

export default function ActualVsBudgetReportPage() {
  return (
    <ReportView
      reportKey="actual-vs-budget"
      aboveTable={(ctx) => (
        <ReportChart {...ctx} title="Budgeted vs actual per mentor program" series={SERIES} toCategories={budgetByProgram} bars="horizontal" testId="actual-vs-budget-chart" />
      )}
    />
  );
}
