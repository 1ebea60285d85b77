import { Text } from '@mantine/core';
import { MoneyBarChart } from '../../components/MoneyBarChart';
import { formatCents } from '../../components/money';
import type { ProgramBar } from './budgetGrid';

const SERIES = [
  { key: 'budgeted', label: 'Budgeted', color: 'brand.6' },
  { key: 'approved', label: 'Approved', color: 'orange.6' },
];

/**
 * Budgeted vs approved per mentor program, horizontal bars (the shared chart). The text
 * alternative names each pair and says when a program is over budget; the grid above holds
 * the same numbers.
 */
export function BudgetChart({ bars, programName }: { bars: ProgramBar[]; programName: (id: number) => string }) {
  const categories = bars.map((b) => ({ label: programName(b.mentorProgramId), cents: { budgeted: b.budgeted, approved: b.approved } }));
  return (
    <MoneyBarChart
      label="Budgeted vs approved per mentor program"
      testId="budget-chart"
      bars="horizontal"
      series={SERIES}
      categories={categories}
      empty={<Text c="dimmed">No budget lines yet.</Text>}
      textAlternative={
        <ul>
          {bars.map((b, i) => (
            <li key={b.mentorProgramId} data-program={categories[i].label}>
              {`${categories[i].label}: budgeted ${formatCents(b.budgeted)}, approved ${formatCents(b.approved)}`}
              {b.approved > b.budgeted ? ' (over budget)' : ''}
            </li>
          ))}
        </ul>
      }
    />
  );
}
