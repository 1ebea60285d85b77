import { useReferenceListQuery } from '../../lib/referenceLists';
import { Alert, Button, Checkbox, Group, List, Loader, Select, Stack, Text, Textarea } from '@mantine/core';
import { MoneyField } from '../../components/MoneyInput';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { asApiError } from '../../components/ErrorDisplay';
import { fieldErrors } from '../../components/fieldErrors';
import { PageCard } from '../../components/PageCard';
import {
  useApprovePaymentRequestMutation,
  usePaymentRequestActionMutation,
  useValidateApprovalMutation,
  type ApprovalValidation,
  type ApproveBody,
  type PaymentRequest,
  type ValidationResult,
} from './api';
import type { RefItem } from '../../api/wire';
import { approveBlocked, checkKey, CHECK_DELAY_MS } from './approvalCheck';
import { currentStep, finalWords, startingAmount, stepHeading } from './stepWords';
import { ReasonModal } from './ReasonModal';
import { codedName, requestRef } from '../../lib/labels';

const options = (items: RefItem[] | undefined) =>
  (items ?? []).filter((i) => i.isActive).map((i) => ({ value: String(i.id), label: codedName(i) }));

/** The last check's answer, with the fields it was asked for; `refused`: the 403's words (the step is not the caller's). */
interface Checked {
  key: string;
  /** validate's answer, or a refusal as one error (without a step). */
  result: ValidationResult & Partial<Pick<ApprovalValidation, 'step' | 'final'>>;
  refused?: string;
}

/**
 * Approve mode's decision: amount, code, fund and account, checked by approve/validate as they
 * change (errors block, warnings need acknowledging, both shown beside the buttons), then
 * Approve, or Send back with a reason. Meant to sit beside the request, in view while it is read.
 */
export function ApprovePanel({ request }: { request: PaymentRequest }) {
  const navigate = useNavigate();
  const codes = useReferenceListQuery({ path: '/approval-codes', params: { PaymentRequestType: request.formType } });
  const funds = useReferenceListQuery('/funds');
  const accounts = useReferenceListQuery('/expense-accounts');
  // A later step starts from what the step before approved (it may lower it, never raise it).
  const [amount, setAmount] = useState<number | ''>(startingAmount(request.approval?.steps, request.requestedAmount));
  const [codeId, setCodeId] = useState<string | null>(request.approvalCodeId ? String(request.approvalCodeId) : null);
  const [fundId, setFundId] = useState<string | null>(request.fundId ? String(request.fundId) : null);
  const [accountId, setAccountId] = useState<string | null>(request.expenseAccountId ? String(request.expenseAccountId) : null);
  const [comment, setComment] = useState('');
  const [acknowledge, setAcknowledge] = useState(false);
  const [checked, setChecked] = useState<Checked | null>(null);
  const [reasonOpen, setReasonOpen] = useState(false);
  const [validate] = useValidateApprovalMutation();
  const [approve, approving] = useApprovePaymentRequestMutation();
  const [act, acting] = usePaymentRequestActionMutation();
  const canApprove = request.availableActions.includes('approve');
  const canSendBack = request.availableActions.includes('sendForRevision');
  // Someone the step is not for is checked too: the server's refusal says whose step it is.
  const checkable = canApprove || request.formStatus === 'Submitted';

  const body: ApproveBody | null =
    amount !== '' && codeId && fundId && accountId
      ? { approvedAmount: amount, approvalCodeId: Number(codeId), fundId: Number(fundId), expenseAccountId: Number(accountId) }
      : null;
  const key = checkKey(body);
  // The answer shown is the one for the fields as they are now; an older one is stale.
  const current = checked && checked.key === key ? checked.result : null;

  // The check runs by itself a moment after the fields settle.
  useEffect(() => {
    if (!body || !checkable) return;
    const timer = setTimeout(async () => {
      const result = await validate({ formType: request.formType, id: request.id, body });
      if ('data' in result && result.data) setChecked({ key, result: result.data });
      else if ('error' in result) {
        // validate answers 200 with its lists; anything else (403, 409) is shown as one error.
        const e = asApiError(result.error);
        const message = e.detail || e.title;
        setChecked({ key, result: { errors: [{ code: `http${e.status}`, message }], warnings: [] }, refused: e.status === 403 ? message : undefined });
      }
    }, CHECK_DELAY_MS);
    return () => clearTimeout(timer);
    // `body` is rebuilt each render; `key` names its content.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, checkable, request.formType, request.id, validate]);

  // A change of the fields asks for a new acknowledgement.
  const changed = <T,>(set: (v: T) => void) => (v: T) => {
    set(v);
    setAcknowledge(false);
  };

  const doApprove = async () => {
    if (!body) return;
    // The step checked is the step meant: if another approver took it meanwhile, the server answers 409.
    const result = await approve({
      formType: request.formType,
      id: request.id,
      body: { ...body, comment: comment.trim() || null, acknowledgeWarnings: acknowledge, step: current?.step?.index },
    });
    if ('data' in result && result.data) {
      // A step before the last leaves the request submitted, waiting for the next step.
      const message =
        result.data.formStatus === 'Submitted' && step
          ? `${stepHeading(step)} was approved; ${requestRef(request.formType, request.id)} now waits for step ${step.index + 2}.`
          : `${requestRef(request.formType, request.id)} was approved.`;
      notifications.show({ color: 'green', message, autoClose: 5000 });
      navigate(`/payment-request/${request.formType}/${request.id}/details`, { replace: true });
    }
  };
  const sendBack = async (reason: string) => {
    const result = await act({ formType: request.formType, id: request.id, action: 'send-for-revision', body: { reason } });
    if ('data' in result) {
      setReasonOpen(false);
      notifications.show({ color: 'green', message: 'The request was sent back for revision.', autoClose: 5000 });
      navigate(`/payment-request/${request.formType}/${request.id}/details`, { replace: true });
    }
  };
  const approveError = approving.error ? asApiError(approving.error) : null;
  const warnings = current?.warnings ?? [];
  const blocked = approveBlocked({ canApprove, complete: body !== null, checked: current, acknowledged: acknowledge });
  const checking = body !== null && checkable && !current;
  const refused = checked && checked.key === key ? checked.refused : undefined;
  // The step as validate names it; until its answer, as the request's chain does.
  const step = current?.step ?? currentStep(request.approval?.steps);
  const final = current?.final ?? (step ? step.index === step.count - 1 : undefined);

  return (
    <PageCard title="Approval" level={2}>
      {step && (
        <Stack gap={2} data-testid="approval-step">
          <Text fw={600}>{stepHeading(step)}</Text>
          <Text size="sm" c="dimmed">
            For the role {step.role}. {final !== undefined && finalWords(step, final)}
          </Text>
        </Stack>
      )}
      {refused ? (
        <Alert color="orange" role="alert" title="This step is not yours to take" data-testid="step-refused">
          {refused}
        </Alert>
      ) : (
        !canApprove && (
          <Alert color="orange" data-testid="cannot-approve">
            {request.closedYear
              ? `You cannot approve this request: the fiscal year ${request.closedYear.name} is closed.`
              : 'You cannot approve this request now: its status, a step that is not yours (the check says whose), or you created or submitted it.'}
          </Alert>
        )
      )}
      <Stack gap="xs">
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
        <Textarea label="Comment" autosize minRows={1} maxRows={4} value={comment} onChange={(e) => setComment(e.currentTarget.value)} />
        <Stack gap={6} role="status" aria-label="Check result" data-testid="approval-check">
          {!body && canApprove && (
            <Text size="sm" c="dimmed">
              Fill in the amount, code, fund and account: they are checked as you go.
            </Text>
          )}
          {checking && (
            <Group gap="xs">
              <Loader size="xs" aria-hidden />
              <Text size="sm" c="dimmed">
                Checking…
              </Text>
            </Group>
          )}
          {current && current.errors.length === 0 && warnings.length === 0 && (
            <Text size="sm" c="green.9" fw={500}>
              No problems found
            </Text>
          )}
          {current && !refused && current.errors.length > 0 && (
            <Alert color="red" title="Errors (approval is blocked)" role="alert" p="xs">
              <List size="sm">
                {current.errors.map((e, i) => (
                  <List.Item key={i}>{e.message}</List.Item>
                ))}
              </List>
            </Alert>
          )}
          {warnings.length > 0 && (
            <Alert color="yellow" title="Warnings" p="xs">
              <List size="sm">
                {warnings.map((w, i) => (
                  <List.Item key={i}>{w.message}</List.Item>
                ))}
              </List>
              <Checkbox mt="xs" label="I have read the warnings and approve anyway" checked={acknowledge} onChange={(e) => setAcknowledge(e.currentTarget.checked)} />
            </Alert>
          )}
        </Stack>
        {approveError && (
          <Alert color="red" role="alert" title={approveError.title} p="xs">
            {approveError.detail}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          {canSendBack && (
            <Button color="orange" variant="light" onClick={() => setReasonOpen(true)}>
              Send back…
            </Button>
          )}
          <Button color="green" disabled={blocked} loading={approving.isLoading} onClick={doApprove}>
            Approve
          </Button>
        </Group>
      </Stack>
      <ReasonModal opened={reasonOpen} busy={acting.isLoading} onClose={() => setReasonOpen(false)} onSend={(reason) => void sendBack(reason)} />
    </PageCard>
  );
}
