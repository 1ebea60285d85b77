import { formatDate, formatDateTime } from '../../components/dates';
import { formatMoney } from '../../components/money';
import type { ColumnKind } from './api';

// One way to print each kind of report value, on screen: money as $3,349.95, days and
// moments as every screen shows them (components/dates.ts: "Nov 3, 2025", local
// "Nov 3, 2025, 2:05 PM"); the exports print the same. Pure: format.test.ts.

export const NUMERIC_KINDS: ReadonlySet<ColumnKind> = new Set(['money', 'int', 'number', 'percent']);

export function formatValue(kind: ColumnKind, value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  switch (kind) {
    case 'money':
      return formatMoney(value as number);
    case 'int':
      return typeof value === 'number' ? value.toLocaleString('en-US') : String(value);
    case 'number':
      return typeof value === 'number' ? value.toFixed(2) : String(value);
    case 'percent':
      return typeof value === 'number' ? `${value.toFixed(1)}%` : String(value);
    case 'date':
      return formatDate(String(value).slice(0, 10));
    case 'timestamp':
      return formatDateTime(String(value));
    default:
      return String(value);
  }
}
