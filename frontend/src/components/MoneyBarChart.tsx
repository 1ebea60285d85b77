import { BarChart } from '@mantine/charts';
import { Text, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';
import { formatCents, formatMoney } from './money';

// The one bar chart of money (@mantine/charts over recharts). Only lazily loaded pages import
// it (reports, budget details), so the chart library never reaches the login page's JS.

export interface MoneySeries {
  /** Key of the amount (in cents) in every category. */
  key: string;
  label: string;
  color: string;
}

export interface MoneyCategory {
  /** Axis label (a program, a form type). */
  label: string;
  /** Amounts in integer cents by series key. */
  cents: Record<string, number>;
}

interface Props {
  /** Accessible name of the figure. */
  label: string;
  series: MoneySeries[];
  categories: MoneyCategory[];
  /** 'horizontal' bars suit long category names (programs); 'vertical' suits short ones. */
  bars?: 'horizontal' | 'vertical';
  /** Shown instead of the chart when there is nothing to draw. */
  empty?: ReactNode;
  /** The figure's text alternative; by default one line per category. */
  textAlternative?: ReactNode;
  testId?: string;
}

const CATEGORY = '__category';
// Axis ticks read at a glance ($25K); the tooltip and the text alternative give the cents.
const compact = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', notation: 'compact', maximumFractionDigits: 1 });
const tick = (value: number) => compact.format(value);

export function MoneyBarChart({ label, series, categories, bars = 'vertical', empty, textAlternative, testId }: Props) {
  if (categories.length === 0) return <>{empty ?? <Text c="dimmed">Nothing to chart.</Text>}</>;
  // Recharts plots numbers: dollars, exact enough for drawing; every printed figure comes from cents.
  const data = categories.map((c) => ({
    [CATEGORY]: c.label,
    ...Object.fromEntries(series.map((s) => [s.key, (c.cents[s.key] ?? 0) / 100])),
  }));
  const horizontal = bars === 'horizontal';
  const longest = Math.max(...categories.map((c) => c.label.length));
  return (
    <figure aria-label={label} data-testid={testId} style={{ margin: 0 }}>
      <BarChart
        h={horizontal ? Math.max(160, categories.length * series.length * 22 + 60) : 300}
        data={data}
        dataKey={CATEGORY}
        orientation={horizontal ? 'vertical' : 'horizontal'}
        series={series.map((s) => ({ name: s.key, label: s.label, color: s.color }))}
        valueFormatter={(value) => formatMoney(value)}
        withLegend
        legendProps={{ verticalAlign: 'top', height: 36 }}
        gridAxis={horizontal ? 'y' : 'x'}
        xAxisProps={horizontal ? { tickFormatter: tick } : undefined}
        yAxisProps={horizontal ? { width: Math.min(220, 12 + longest * 7) } : { width: 70, tickFormatter: tick }}
        tooltipAnimationDuration={0}
        barChartProps={{ accessibilityLayer: true }}
      />
      <VisuallyHidden component="figcaption">
        {textAlternative ?? (
          <ul>
            {categories.map((c) => (
              <li key={c.label} data-category={c.label}>
                {`${c.label}: ${series.map((s) => `${s.label} ${formatCents(c.cents[s.key] ?? 0)}`).join(', ')}`}
              </li>
            ))}
          </ul>
        )}
      </VisuallyHidden>
    </figure>
  );
}
