import { Badge, Table, Text } from '@mantine/core';
import { formatDateTime } from '../../components/dates';
import { formatMoney } from '../../components/money';
import { PageCard } from '../../components/PageCard';
import { TableHead } from '../../components/TableHead';
import { TableScroll } from '../../components/TableScroll';
import type { PaymentRequest, StepState } from './api';
import { stateWords, whoWords } from './stepWords';

const COLOURS: Record<StepState, string> = { done: 'green', current: 'blue', waiting: 'gray' };

/**
 * The steps the request goes through, as copied at its submission: each one's role, state, who
 * took it (and for whom, when a stand-in did), when, and the amount it approved. Nothing for a
 * draft never submitted, nor for a request approved before chains.
 */
export function ApprovalSteps({ request }: { request: PaymentRequest }) {
  const steps = request.approval?.steps;
  if (!steps?.length) return null;
  return (
    <PageCard title="Approval steps" level={2}>
      <TableScroll label="Approval steps" minWidth={640}>
        <Table aria-label="Approval steps" striped data-testid="approval-steps">
          <TableHead columns={['Step', 'Role', 'State', 'Who', 'When', 'Amount']} />
          <Table.Tbody>
            {steps.map((step, index) => (
              <Table.Tr key={`${index}-${step.name}`} data-state={step.state} aria-current={step.state === 'current' ? 'step' : undefined}>
                <Table.Th scope="row" fw={500}>
                  {index + 1}. {step.name}
                </Table.Th>
                <Table.Td>{step.role}</Table.Td>
                <Table.Td>
                  <Badge color={COLOURS[step.state]} variant="light" tt="none">
                    {stateWords(step.state)}
                  </Badge>
                </Table.Td>
                <Table.Td>{whoWords(step) || <Text span c="dimmed">—</Text>}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{step.at ? formatDateTime(step.at) : ''}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{step.approvedAmount == null ? '' : formatMoney(step.approvedAmount)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableScroll>
    </PageCard>
  );
}
