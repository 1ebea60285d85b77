import { useReferenceListQuery } from '../../lib/referenceLists';
import { Alert, Button, Checkbox, Group, List, Select, SimpleGrid, Stack, Textarea } from '@mantine/core';
import { MoneyField } from '../../components/MoneyInput';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { asApiError } from '../../components/ErrorDisplay';
import { fieldErrors } from '../../components/fieldErrors';
import { PageCard } from '../../components/PageCard';
import { useApprovePaymentRequestMutation, useValidateApprovalMutation, type ApproveBody, type PaymentRequest, type ValidationResult } from './api';
import type { RefItem } from '../../api/wire';

const options = (items: RefItem[] | undefined) =>
  (items ?? []).filter((i) => i.isActive).map((i) => ({ value: String(i.id), label: i.code ? `${i.code} ${i.name}` : i.name }));

/**
 * Approve mode: the approver fills amount, code, fund and account; "Check" asks
 * approve/validate for errors (which block) and warnings (which need acknowledging).
 */
export function ApprovePanel({ request }: { request: PaymentRequest }) {
  const navigate = useNavigate();
  const codes = useReferenceListQuery({ path: '/approval-codes', params: { PaymentRequestType: request.formType } });
  const funds = useReferenceListQuery('/funds');
  const accounts = useReferenceListQuery('/expense-accounts');
  const [amount, setAmount] = useState<number | ''>(request.requestedAmount);
  const [codeId, setCodeId] = useState<string | null>(request.approvalCodeId ? String(request.approvalCodeId) : null);
  const [fundId, setFundId] = useState<string | null>(request.fundId ? String(request.fundId) : null);
  const [accountId, setAccountId] = useState<string | null>(request.expenseAccountId ? String(request.expenseAccountId) : null);
  const [comment, setComment] = useState('');
  const [acknowledge, setAcknowledge] = useState(false);
  const [checked, setChecked] = useState<ValidationResult | null>(null);
  const [validate, validating] = useValidateApprovalMutation();
  const [approve, approving] = useApprovePaymentRequestMutation();
  const canApprove = request.availableActions.includes('approve');

  const complete = amount !== '' && codeId && fundId && accountId;
  const body = (): ApproveBody => ({
    approvedAmount: amount === '' ? 0 : amount,
    approvalCodeId: Number(codeId),
    fundId: Number(fundId),
    expenseAccountId: Number(accountId),
  });
  // Any change makes the last check stale.
  const changed = <T,>(set: (v: T) => void) => (v: T) => {
    set(v);
    setChecked(null);
    setAcknowledge(false);
  };

  const check = async () => {
    const result = await validate({ formType: request.formType, id: request.id, body: body() });
    if ('data' in result && result.data) setChecked(result.data);
    else if ('error' in result) {
      // validate answers 200 with its lists; anything else (403, 409) is shown as one error.
      const e = asApiError(result.error);
      setChecked({ errors: [{ code: `http${e.status}`, message: e.detail || e.title }], warnings: [] });
    }
  };
  const doApprove = async () => {
    const result = await approve({ formType: request.formType, id: request.id, body: { ...body(), comment: comment.trim() || null, acknowledgeWarnings: acknowledge } });
    if ('data' in result && result.data) {
      notifications.show({ color: 'green', message: `${request.formType} #${request.id} was approved.`, autoClose: 5000 });
      navigate(`/payment-request/${request.formType}/${request.id}/details`, { replace: true });
    }
  };
  const approveError = approving.error ? asApiError(approving.error) : null;
  const needsAck = (checked?.warnings.length ?? 0) > 0;

  return (
    <PageCard title="Approval" level={2}>
      {!canApprove && (
        <Alert color="orange" mb="md">
          You cannot approve this request now (its status, or you created or submitted it).
        </Alert>
      )}
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <MoneyField
            label="Approved amount"
            required
            value={amount}
            onChange={changed((v: number | '') => setAmount(v))}
            error={fieldErrors(approveError ?? undefined).approvedAmount}
          />
          <Select label="Approval code" required searchable data={options(codes.data)} value={codeId} onChange={changed(setCodeId)} />
          <Select label="Fund" required searchable data={options(funds.data)} value={fundId} onChange={changed(setFundId)} />
          <Select label="Expense account" required searchable data={options(accounts.data)} value={accountId} onChange={changed(setAccountId)} />
        </SimpleGrid>
        <Textarea label="Comment" autosize minRows={2} value={comment} onChange={(e) => setComment(e.currentTarget.value)} />
        {checked && (
          <Stack gap="xs" aria-label="Check result">
            {checked.errors.length === 0 && checked.warnings.length === 0 && (
              <Alert color="green" title="No problems found" />
            )}
            {checked.errors.length > 0 && (
              <Alert color="red" title="Errors (approval is blocked)" role="alert">
                <List size="sm">
                  {checked.errors.map((e, i) => (
                    <List.Item key={i}>{e.message}</List.Item>
                  ))}
                </List>
              </Alert>
            )}
            {needsAck && (
              <Alert color="yellow" title="Warnings">
                <List size="sm">
                  {checked.warnings.map((w, i) => (
                    <List.Item key={i}>{w.message}</List.Item>
                  ))}
                </List>
                <Checkbox mt="sm" label="I have read the warnings and approve anyway" checked={acknowledge} onChange={(e) => setAcknowledge(e.currentTarget.checked)} />
              </Alert>
            )}
          </Stack>
        )}
        {approveError && (
          <Alert color="red" role="alert" title={`${approveError.status || ''} ${approveError.title}`.trim()}>
            {approveError.detail}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" disabled={!complete || !canApprove} loading={validating.isLoading} onClick={check}>
            Check
          </Button>
          <Button
            color="green"
            disabled={!complete || !canApprove || !checked || checked.errors.length > 0 || (needsAck && !acknowledge)}
            loading={approving.isLoading}
            onClick={doApprove}
          >
            Approve
          </Button>
        </Group>
      </Stack>
    </PageCard>
  );
}
