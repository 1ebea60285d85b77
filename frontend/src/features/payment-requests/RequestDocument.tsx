import { useReferenceListQuery } from '../../lib/referenceLists';
import { DetailsTable } from './DetailsTable';
import { Alert, Box, Divider, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { formatDate, formatDateTime } from '../../components/dates';
import { formatMoney } from '../../components/money';
import { lastApproval, revisionReason } from './activityWords';
import { useGetPayeesQuery, useGetPaymentRequestActivityQuery, type PaymentRequest } from './api';
import type { RefItem } from '../../api/wire';
import { detailsView } from './detailsView';
import { rulesOf } from './formRules';
import { formTypeName } from './names';
import { ReceiptList } from './Receipts';
import { useFormLists } from './useFormRules';
import { codedName } from '../../lib/labels';

const coded = (items: RefItem[] | undefined, id: number | null | undefined) => {
  if (id === null) return '—';
  const item = items?.find((i) => i.id === id);
  return item ? codedName(item) : `#${id}`;
};

/** Label over value, as on a printed form. */
function Fact({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Box data-testid={testId}>
      <Text component="dt" size="xs" c="dimmed" fw={500}>
        {label}
      </Text>
      <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Box>
  );
}

/**
 * A request sent back for revision says why at the very top, to everyone who opens it
 * (the reason is the newest "sent back for revision" entry of its activity log).
 */
export function RevisionAlert({ request }: { request: PaymentRequest }) {
  const log = useGetPaymentRequestActivityQuery({ formType: request.formType, id: request.id }, { skip: request.formStatus !== 'RevisionRequested' });
  if (request.formStatus !== 'RevisionRequested') return null;
  const entry = revisionReason(log.data);
  const canFix = request.availableActions.includes('edit');
  return (
    <Alert color="orange" variant="light" role="alert" title="Returned for revision" data-testid="revision-alert">
      <Text size="sm" fw={500}>
        {entry?.comment ?? (log.isLoading ? 'Loading the reason…' : 'No reason was recorded.')}
      </Text>
      {entry && (
        <Text size="xs" c="dimmed" mt={4}>
          {entry.actorName ?? 'Someone'}, {formatDateTime(entry.createdAt)}
        </Text>
      )}
      {canFix && (
        <Text size="sm" mt="xs">
          Edit the request to correct it, then submit it again.
        </Text>
      )}
    </Alert>
  );
}

/** View mode reads as a document: labels and values, never disabled inputs. */
export function RequestDocument({ request }: { request: PaymentRequest }) {
  const types = useReferenceListQuery('/payment-requests/types');
  const programs = useReferenceListQuery('/mentor-programs');
  const payees = useGetPayeesQuery({ participationIds: [request.participationId] });
  const approved = request.approvedAmount != null;
  const funds = useReferenceListQuery('/funds', { skip: !approved });
  const accounts = useReferenceListQuery('/expense-accounts', { skip: !approved });
  const codes = useReferenceListQuery({ path: '/approval-codes', params: { PaymentRequestType: request.formType } }, { skip: !approved });
  const log = useGetPaymentRequestActivityQuery({ formType: request.formType, id: request.id }, { skip: !approved });
  const approval = lastApproval(log.data);
  const rules = rulesOf(types.data, request.formType);
  const lists = useFormLists(rules);
  const view = detailsView(request.formType, request.details, lists, rules);
  const payee = payees.data?.find((p) => p.participationId === request.participationId);

  return (
    <Stack gap="md" data-testid="request-document">
      <SimpleGrid component="dl" cols={{ base: 2, md: 4 }} spacing="md" verticalSpacing="sm" m={0}>
        <Fact label="Form">
          {request.formType} – {formTypeName(types.data, request.formType)}
        </Fact>
        <Fact label="Payee">{payee ? `${payee.fullName}${payee.isDeleted ? ' (deleted)' : ''}` : `#${request.participationId}`}</Fact>
        <Fact label="Mentor program">{coded(programs.data, request.mentorProgramId)}</Fact>
        {request.placementEndDate && <Fact label="Placement end">{formatDate(request.placementEndDate)}</Fact>}
      </SimpleGrid>
      {request.description && (
        <Box component="dl" m={0}>
          <Fact label="Description">{request.description}</Fact>
        </Box>
      )}
      {approved && (
        <Box component="section" aria-label="Approval" data-testid="approval-facts">
          <Divider label="Approval" labelPosition="left" mb="xs" />
          <SimpleGrid component="dl" cols={{ base: 2, md: 4 }} spacing="md" verticalSpacing="sm" m={0}>
            <Fact label="Approved amount">{formatMoney(request.approvedAmount)}</Fact>
            <Fact label="Approval code">{coded(codes.data, request.approvalCodeId)}</Fact>
            <Fact label="Fund">{coded(funds.data, request.fundId)}</Fact>
            <Fact label="Expense account">{coded(accounts.data, request.expenseAccountId)}</Fact>
            <Fact label="Approved by">{approval?.actorName ?? '—'}</Fact>
            <Fact label="Approved on">{formatDateTime(request.approvedAt ?? approval?.createdAt)}</Fact>
            {approval?.comment && <Fact label="Approver's comment">{approval.comment}</Fact>}
          </SimpleGrid>
        </Box>
      )}
      <Box component="section" aria-label="Details">
        <Divider label={`${formTypeName(types.data, request.formType)} details`} labelPosition="left" mb="xs" />
        {view.lines.length > 0 && (
          <SimpleGrid component="dl" cols={{ base: 2, md: 4 }} spacing="md" verticalSpacing="sm" m={0}>
            {view.lines.map((l) => (
              <Fact key={l.label} label={l.label}>
                {l.value}
              </Fact>
            ))}
          </SimpleGrid>
        )}
        {view.table && (
          <>
            <Title order={2} size="h6" mt="sm" mb={4}>
              {view.table.label}
            </Title>
            <DetailsTable table={view.table} label={view.table.label} striped />
          </>
        )}
      </Box>
      {rules?.receipts && <ReceiptList requestId={request.id} files={request.files ?? []} />}
    </Stack>
  );
}
