import dayjs from 'dayjs';
import { formatMoney } from '../../components/money';
import type { ColumnKind } from './api';

// One way to print each kind of report value, on screen: money as $3,349.95, dates as
// YYYY-MM-DD and timestamps as local YYYY-MM-DD HH:mm (the exports print the same).

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
      return String(value).slice(0, 10);
    case 'timestamp': {
      const d = dayjs(String(value));
      return d.isValid() ? d.format('YYYY-MM-DD HH:mm') : String(value);
    }
    default:
      return String(value);
  }
}
