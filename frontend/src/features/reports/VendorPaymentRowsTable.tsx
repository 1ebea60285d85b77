import { Anchor, Text } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { Link } from 'react-router';
import { DataTable } from '../../components/DataTable';
import { formatMoney } from '../../components/money';
import type { VendorPaymentRow } from './VendorPaymentApi';
import { formatDateTime } from '../../components/dates';
import { requestRef } from '../../lib/labels';

const SIZES = [25, 50, 100, 500] as const;

// Fixed server order (oldest approval first): no column sorts.
const columns: ColumnDef<VendorPaymentRow, unknown>[] = [
  {
    id: 'payee',
    header: 'Payee',
    enableSorting: false,
    cell: ({ row }) => (
      <div>
        <Text size="sm" fw={500}>
          {row.original.payee}
        </Text>
        <Text size="xs" c="dimmed">
          {row.original.payeeAddress ?? '—'}
        </Text>
      </div>
    ),
  },
  {
    id: 'request',
    header: 'Request',
    enableSorting: false,
    cell: ({ row }) => (
      <Anchor component={Link} to={`/payment-request/${row.original.formType}/${row.original.requestId}/details`} size="sm">
        {requestRef(row.original.formType, row.original.requestId)}
      </Anchor>
    ),
  },
  { id: 'approvedAt', header: 'Approved on', enableSorting: false, cell: ({ row }) => formatDateTime(row.original.approvedAt) },
  { id: 'approvalCode', header: 'Approval code', enableSorting: false, cell: ({ row }) => row.original.approvalCode ?? '—' },
  {
    id: 'account',
    header: 'Fund / account',
    enableSorting: false,
    cell: ({ row }) => (
      <div>
        <Text size="sm">{row.original.fund ?? '—'}</Text>
        <Text size="xs" c="dimmed">
          {row.original.expenseAccount ?? '—'}
        </Text>
      </div>
    ),
  },
  {
    id: 'amount',
    header: () => <Text ta="right" fw={700} size="sm">Amount</Text>,
    enableSorting: false,
    cell: ({ row }) => <Text ta="right" size="sm">{formatMoney(row.original.amount)}</Text>,
  },
];

interface Props {
  label: string;
  rows: VendorPaymentRow[];
  page: number;
  size: number;
  totalCount: number;
  onPage: (page: number) => void;
  onSize: (size: number) => void;
  loading: boolean;
  fetching: boolean;
  empty: string;
}

/** The rows of a vendor payment report, one server page at a time. */
export function VendorPaymentRowsTable({ label, rows, page, size, totalCount, onPage, onSize, loading, fetching, empty }: Props) {
  return (
    <DataTable
      label={label}
      columns={columns}
      rows={rows}
      rowKey={(r) => r.requestId}
      sort={{ sortDescending: false }}
      onSort={() => undefined}
      paging={{ page, size, totalCount, sizes: SIZES }}
      onPage={onPage}
      onSize={onSize}
      loading={loading}
      fetching={fetching}
      empty={<Text c="dimmed">{empty}</Text>}
    />
  );
}
