import { Group, Stack, Text } from '@mantine/core';
import { formatCents } from '../../components/money';
import type { ProgramBar } from './budgetGrid';

const BAR = 14;
const GAP = 4;
const ROW = BAR * 2 + GAP + 18;
const LABEL_W = 200;
const WIDTH = 760;
const PLOT_W = WIDTH - LABEL_W - 110;
const COLOURS = { budgeted: 'var(--mantine-color-brand-6)', approved: 'var(--mantine-color-orange-6)' };

/**
 * Budgeted vs approved per mentor program: plain SVG, horizontal bars scaled
 * to the largest amount. Screen readers get each pair in the bars' titles and
 * the figure's label; the grid above holds the same numbers.
 */
export function BudgetChart({ bars, programName }: { bars: ProgramBar[]; programName: (id: number) => string }) {
  if (bars.length === 0) return <Text c="dimmed">No budget lines yet.</Text>;
  const max = Math.max(1, ...bars.flatMap((b) => [b.budgeted, b.approved]));
  const height = bars.length * ROW + 8;
  const w = (cents: number) => Math.max(cents > 0 ? 2 : 0, (cents / max) * PLOT_W);
  return (
    <Stack gap="xs">
      <Group gap="lg">
        {(['budgeted', 'approved'] as const).map((k) => (
          <Group gap={6} key={k}>
            <svg width="12" height="12" aria-hidden>
              <rect width="12" height="12" rx="2" fill={COLOURS[k]} />
            </svg>
            <Text size="sm">{k === 'budgeted' ? 'Budgeted' : 'Approved'}</Text>
          </Group>
        ))}
      </Group>
      <svg
        role="img"
        aria-label="Budgeted vs approved per mentor program"
        data-testid="budget-chart"
        viewBox={`0 0 ${WIDTH} ${height}`}
        width="100%"
        style={{ maxWidth: WIDTH, fontFamily: 'inherit', fontSize: 12 }}
      >
        {bars.map((b, i) => {
          const y = i * ROW + 4;
          const name = programName(b.mentorProgramId);
          const over = b.approved > b.budgeted;
          return (
            <g key={b.mentorProgramId} data-program={name}>
              <title>{`${name}: budgeted ${formatCents(b.budgeted)}, approved ${formatCents(b.approved)}`}</title>
              <text x={LABEL_W - 8} y={y + BAR + GAP / 2 + 4} textAnchor="end" fill="var(--mantine-color-text)">
                {name.length > 28 ? `${name.slice(0, 27)}…` : name}
              </text>
              <rect x={LABEL_W} y={y} width={w(b.budgeted)} height={BAR} rx={2} fill={COLOURS.budgeted} />
              <text x={LABEL_W + w(b.budgeted) + 6} y={y + BAR - 3} fill="var(--mantine-color-dimmed)">
                {formatCents(b.budgeted)}
              </text>
              <rect x={LABEL_W} y={y + BAR + GAP} width={w(b.approved)} height={BAR} rx={2} fill={over ? 'var(--mantine-color-red-7)' : COLOURS.approved} />
              <text x={LABEL_W + w(b.approved) + 6} y={y + 2 * BAR + GAP - 3} fill={over ? 'var(--mantine-color-red-7)' : 'var(--mantine-color-dimmed)'}>
                {formatCents(b.approved)}
                {over ? ' (over budget)' : ''}
              </text>
            </g>
          );
        })}
      </svg>
    </Stack>
  );
}
