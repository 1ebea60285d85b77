import { useReferenceListQuery } from '../../lib/referenceLists';
import { Alert, Anchor, Button, Grid, Group, Loader, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useHasPermission } from '../../lib/hooks';
import { askAndCancel, askAndSave, SaveError, useLeaveGuard } from '../../components/EditorActions';
import { DownloadButton } from '../../components/DownloadButton';
import { apiUrl, minutesOffset } from '../../components/download';
import { asApiError, ErrorDisplay } from '../../components/ErrorDisplay';
import { fieldErrors } from '../../components/fieldErrors';
import { DraftOffer } from '../../components/DraftOffer';
import { ErrorSummary } from '../../components/ErrorSummary';
import { useFormDraft } from '../../components/useFormDraft';
import { openConfirm } from '../../components/confirmDialogs';
import { formatDate } from '../../components/dates';
import { formatMoney } from '../../components/money';
import { showSaveError } from '../../components/MoneyInput';
import { HistoryLink } from '../../components/HistoryLink';
import { PageCard } from '../../components/PageCard';
import { ActivityLog } from './ActivityLog';
import { ApprovalSteps } from './ApprovalSteps';
import { useCreatePaymentRequestMutation, useDeletePaymentRequestMutation, useGetPaymentRequestQuery, useGetPaymentRequestRatesQuery, useGetPayeesQuery, usePaymentRequestActionMutation, useUpdatePaymentRequestMutation, useValidateSubmitMutation, type PaymentRequest } from './api';
import { ApprovePanel } from './ApprovePanel';
import { DecisionColumn } from './DecisionColumn';
import { ReasonModal } from './ReasonModal';
import { rateSetting, type FormRules, type Rates } from './formRules';
import { bodyOf, emptyValues, valuesOf, type RequestValues } from './forms';
import { checkRequest, inWords, shownAtInput, type FieldErrors } from './requestChecks';
import { FORM_SPECS } from './genericForms';
import { ReceiptList, ReceiptsEditor } from './Receipts';
import { usePickablePrograms } from './myPrograms';
import { RequestDocument, RevisionAlert } from './RequestDocument';
import { RequestFields } from './RequestFields';
import { StatusBadge } from './StatusBadge';
import { useFormLists, useFormRules } from './useFormRules';
import { requestRef } from '../../lib/labels';

export type PaymentRequestFormMode = 'create' | 'edit' | 'view' | 'approve';
const TITLES: Record<PaymentRequestFormMode, string> = {
  create: 'New payment request',
  edit: 'Edit payment request',
  view: 'Payment request',
  approve: 'Approve payment request',
};

function useLookups(mode: PaymentRequestFormMode, formType: string, rules: FormRules, mentorProgramId: string | null, stored?: PaymentRequest) {
  const canRead = useHasPermission('request:read');
  const editing = mode === 'create' || mode === 'edit';
  const programs = useReferenceListQuery('/mentor-programs');
  // New requests go only to the caller's own programs (a Coordinator's scope).
  const pickable = usePickablePrograms();
  const payees = useGetPayeesQuery(
    { mentorProgramId: mentorProgramId ? Number(mentorProgramId) : undefined, formType, formId: stored?.id },
    { skip: !mentorProgramId },
  );
  const lists = useFormLists(rules);
  const setting = rateSetting(rules.amount);
  const rates = useGetPaymentRequestRatesQuery(undefined, { skip: setting === null || !canRead });
  // Saving applies the rates in force now; without them, a stored request shows the rate its
  // amount was computed with (recorded in its details under the setting's name).
  const recorded = setting && stored ? ({ [setting]: (stored.details as Record<string, unknown>)[setting] } as Rates) : undefined;
  return {
    programs: editing ? pickable : programs.data,
    payees: payees.data,
    lists,
    rates: rates.data ?? recorded,
  };
}

/** On a request's page: its workflow's actions, and its packet to print or file. */
function ViewActions({ request }: { request: PaymentRequest }) {
  return (
    <Group align="flex-start" gap="xs">
      <Actions request={request} />
      <DownloadButton
        label="Print packet"
        url={() => apiUrl(`/payment-requests/${request.formType}/${request.id}/packet`, { MinutesOffset: minutesOffset() })}
        fallbackName={`request-${request.formType}-${request.id}.pdf`}
      />
      <HistoryLink entityType="payment_request" entityId={request.id} />
    </Group>
  );
}

/** The buttons of what the caller may do now, straight from `availableActions`. */
function Actions({ request }: { request: PaymentRequest }) {
  const navigate = useNavigate();
  const [act, acting] = usePaymentRequestActionMutation();
  const [remove, removing] = useDeletePaymentRequestMutation();
  const [validateSubmit, checking] = useValidateSubmitMutation();
  const [reasonOpen, setReasonOpen] = useState(false);
  const has = (a: string) => request.availableActions.includes(a as never);
  const key = { formType: request.formType, id: request.id };
  const run = async (action: string, done: string, body?: unknown) => {
    const result = await act({ ...key, action, body });
    if ('data' in result) notifications.show({ color: 'green', message: done, autoClose: 5000 });
    return 'data' in result;
  };
  // The server's warnings (a submission after the form's window) are said before the
  // request goes in; submitting anyway is the submitter's choice, the approver sees them too.
  const submit = async () => {
    const check = await validateSubmit(key);
    if (!('data' in check) || !check.data) return; // the error is already shown
    const warnings = check.data.warnings;
    if (warnings.length > 0) {
      const sure = await openConfirm({
        title: 'Submit after the submission window?',
        text: `${warnings.map((w) => w.message).join(' ')} The approver will see this warning.`,
        confirmLabel: 'Submit anyway',
        cancelLabel: 'Do not submit',
      });
      if (!sure) return;
    }
    await run('submit', 'The request was submitted.');
  };
  const base = `/payment-request/${request.formType}/${request.id}`;
  // Sent back for revision, the next step is to correct it: Edit leads, Submit follows.
  const returned = request.formStatus === 'RevisionRequested';
  return (
    <Group gap="xs">
      {has('edit') && (
        <Button component={Link} to={`${base}/edit`} variant={returned ? 'filled' : 'light'}>
          Edit
        </Button>
      )}
      {has('submit') && (
        <Button variant={returned ? 'light' : 'filled'} loading={acting.isLoading || checking.isLoading} onClick={() => void submit()}>
          Submit
        </Button>
      )}
      {has('moveToDraft') && (
        <Button variant="default" loading={acting.isLoading} onClick={() => run('move-to-draft', 'The request is a draft again.')}>
          Move to draft
        </Button>
      )}
      {has('sendForRevision') && (
        <Button color="orange" variant="light" onClick={() => setReasonOpen(true)}>
          Send for revision
        </Button>
      )}
      {has('approve') && (
        <Button component={Link} to={`${base}/approve`} color="green">
          Approve…
        </Button>
      )}
      {has('moveBackToSubmitted') && (
        <Button variant="default" loading={acting.isLoading} onClick={() => run('move-back-to-submitted', 'The request is submitted again.')}>
          Move back to submitted
        </Button>
      )}
      {has('moveToReadyForProcessing') && (
        <Button
          color="teal"
          loading={acting.isLoading}
          onClick={() => run('move-to-ready-for-processing', 'The request is ready for processing.')}
        >
          Move to ready for processing
        </Button>
      )}
      {has('delete') && (
        <Button
          color="red"
          variant="light"
          loading={removing.isLoading}
          onClick={async () => {
            const sure = await openConfirm({
              title: 'Delete request',
              text: `Delete draft ${requestRef(request.formType, request.id)}? It leaves every list.`,
              confirmLabel: 'Delete',
              cancelLabel: 'Keep it',
              danger: true,
            });
            if (!sure) return;
            const result = await remove(key);
            if (!('error' in result)) {
              notifications.show({ color: 'green', message: 'The draft was deleted.', autoClose: 5000 });
              navigate('/', { replace: true });
            }
          }}
        >
          Delete
        </Button>
      )}
      <ReasonModal
        opened={reasonOpen}
        busy={acting.isLoading}
        onClose={() => setReasonOpen(false)}
        onSend={async (reason) => {
          if (await run('send-for-revision', 'The request was sent back for revision.', { reason })) setReasonOpen(false);
        }}
      />
    </Group>
  );
}

/** The receipt ids the details hold in `field`. */
const idsIn = (details: RequestValues['details'], field: string): string[] => (Array.isArray(details[field]) ? (details[field] as string[]) : []);

function RequestForm({ mode, formType, rules, stored }: { mode: PaymentRequestFormMode; formType: string; rules: FormRules; stored?: PaymentRequest }) {
  const navigate = useNavigate();
  const initial = useMemo(() => (stored ? valuesOf(stored, rules) : emptyValues(formType, rules)), [stored, formType, rules]);
  const [values, setValues] = useState<RequestValues>(initial);
  const lookups = useLookups(mode, formType, rules, values.mentorProgramId, stored);
  // A newer server copy (after an action) replaces the values, adjusted while rendering.
  const [shownInitial, setShownInitial] = useState(initial);
  if (shownInitial !== initial) {
    setShownInitial(initial);
    setValues(initial);
  }
  const [create, creating] = useCreatePaymentRequestMutation();
  const [update, updating] = useUpdatePaymentRequestMutation();
  const [leaveTo, setLeaveTo] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const editing = mode === 'create' || mode === 'edit';
  const receipts = rules.receipts;
  const receiptField = receipts?.field;
  const onFileIds = useCallback(
    (update: (ids: string[]) => string[]) =>
      setValues((v) => (receiptField ? { ...v, details: { ...v.details, [receiptField]: update(idsIn(v.details, receiptField)) } } : v)),
    [receiptField],
  );
  const dirty = editing && !leaveTo && JSON.stringify(values) !== JSON.stringify(initial);
  useLeaveGuard(dirty);
  // Navigate only once the guard knows nothing is left unsaved.
  useEffect(() => {
    if (leaveTo) navigate(leaveTo, { replace: true });
  }, [leaveTo, navigate]);

  // Kept in the browser while unsaved (an idle sign-out must not lose it); an edit's draft
  // belongs to the version it started from.
  const draftKey = editing ? `request:${formType}:${stored ? `${stored.id}:v${stored.version}` : 'new'}` : null;
  const draft = useFormDraft(draftKey, values, dirty);

  const formRef = useRef<HTMLFormElement>(null);
  // What the browser found before sending: every problem at once, and no confirmation.
  const [refused, setRefused] = useState<{ errors: FieldErrors } | null>(null);
  const saveError = mode === 'create' ? creating.error : updating.error;
  const errors = refused ? refused.errors : inWords(formType, fieldErrors(saveError ? asApiError(saveError) : undefined));
  const unshown = Object.entries(errors)
    .filter(([key]) => !shownAtInput(formType, rules, key))
    .map(([, message]) => message);
  const detailsUrl = (r: PaymentRequest) => `/payment-request/${r.formType}/${r.id}/details`;

  const save = async () => {
    const result =
      mode === 'create'
        ? await create({ formType, body: bodyOf(formType, values, rules) })
        : await update({ formType, id: stored!.id, body: bodyOf(formType, values, rules, stored!.version) });
    if ('data' in result && result.data) {
      draft.saved();
      notifications.show({ color: 'green', message: `${requestRef(result.data.formType, result.data.id)} was saved.`, autoClose: 5000 });
      setLeaveTo(detailsUrl(result.data));
    } else showSaveError(formRef.current);
  };
  const submit = () => {
    // A refused amount's text is said at its field; the rest of the form is checked with it.
    const typed = formRef.current?.querySelector('[data-refused="true"]');
    const found = checkRequest(formType, values, rules);
    if (typed || Object.keys(found).length > 0) {
      setRefused({ errors: found });
      return;
    }
    setRefused(null);
    // A file still uploading would be left out of the save.
    if (editing && !uploading) void askAndSave(save);
  };
  const cancel = () => askAndCancel(dirty, () => setLeaveTo(stored ? detailsUrl(stored) : '/'));

  return (
    <form
      ref={formRef}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <Stack gap="md">
        {draft.offer && (
          <DraftOffer
            savedAt={draft.offer.savedAt}
            onRestore={() => {
              const kept = draft.restore();
              if (kept) setValues(kept);
            }}
            onDiscard={draft.discard}
          />
        )}
        {refused ? (
          <ErrorSummary attempt={refused} lines={unshown} />
        ) : (
          saveError && <SaveError error={saveError} unshown={unshown} onReload={() => window.location.reload()} />
        )}
        <RequestFields formType={formType} rules={rules} values={values} onChange={setValues} errors={errors} readOnly={!editing} lookups={lookups} />
        {receipts &&
          (editing ? (
            <ReceiptsEditor
              rules={receipts}
              requestId={stored?.id}
              stored={stored?.files ?? []}
              fileIds={idsIn(values.details, receipts.field)}
              onFileIds={onFileIds}
              errors={errors}
              onBusyChange={setUploading}
            />
          ) : (
            stored && <ReceiptList requestId={stored.id} files={stored.files ?? []} />
          ))}
        {editing && (
          <Group justify="flex-end">
            {uploading && (
              <Text size="sm" c="dimmed">
                Saving waits for the uploads to finish.
              </Text>
            )}
            <Button variant="default" onClick={cancel}>
              Cancel
            </Button>
            <Button type="submit" disabled={uploading} loading={creating.isLoading || updating.isLoading}>
              Save
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}

function Facts({ request }: { request: PaymentRequest }) {
  return (
    <Group gap="lg">
      <StatusBadge status={request.formStatus} />
      <Text size="sm">Requested: {formatMoney(request.requestedAmount)}</Text>
      {request.approvedAmount != null && <Text size="sm">Approved: {formatMoney(request.approvedAmount)}</Text>}
      {request.submittedOn && <Text size="sm">Submitted on {formatDate(request.submittedOn)}</Text>}
      {request.vendorPaymentReportId != null && (
        <Text size="sm">
          Paid in{' '}
          <Anchor component={Link} to={`/reports/vendor-payment/${request.vendorPaymentReportId}/details`} data-testid="paid-in-report">
            vendor payment report #{request.vendorPaymentReportId}
          </Anchor>
        </Text>
      )}
    </Group>
  );
}

/** Why a request of a closed fiscal year offers fewer actions, in the server's words. */
function ClosedYearAlert({ request }: { request: PaymentRequest }) {
  if (!request.closedYear) return null;
  return (
    <Alert color="gray" variant="light" title={`The fiscal year ${request.closedYear.name} is closed`} data-testid="request-closed-year">
      {request.closedYear.message}
    </Alert>
  );
}

/**
 * Approve mode: the request on the left, the decision beside it, sticky, so amount, code, fund,
 * account, the check's warnings and Approve / Send back stay in view while the request is read
 * (in a narrow window the decision folds above the request: DecisionColumn).
 */
function ApproveLayout({ title, request }: { title: string; request: PaymentRequest }) {
  return (
    <Stack gap="lg">
      <RevisionAlert request={request} />
      <ClosedYearAlert request={request} />
      <Grid gutter="lg" align="flex-start">
        <Grid.Col span={{ base: 12, md: 7 }} order={{ base: 2, md: 1 }}>
          <Stack gap="lg">
            <PageCard title={title}>
              <Stack gap="md">
                <Facts request={request} />
                <RequestDocument request={request} />
              </Stack>
            </PageCard>
            <ApprovalSteps request={request} />
            <ActivityLog request={request} />
          </Stack>
        </Grid.Col>
        <DecisionColumn label="Approve or send back">
          <ApprovePanel request={request} />
        </DecisionColumn>
      </Grid>
    </Stack>
  );
}

export default function PaymentRequestFormPage({ mode }: { mode: PaymentRequestFormMode }) {
  const { formType = '', paymentRequestId } = useParams();
  const id = Number(paymentRequestId);
  const needsRequest = mode !== 'create';
  const { rules, types, loading } = useFormRules(formType);
  // A form is known when the server serves it and the UI has its layout.
  const known = rules !== undefined && FORM_SPECS[formType] !== undefined;
  const query = useGetPaymentRequestQuery({ formType, id }, { skip: !needsRequest || !known });
  const title = needsRequest ? `${TITLES[mode]} ${requestRef(formType, paymentRequestId ?? id)}` : `${TITLES[mode]} (${formType})`;

  if (loading) {
    return (
      <PageCard title={title}>
        <Loader aria-label="Loading" />
      </PageCard>
    );
  }
  if (!known) {
    const codes = (types ?? []).map((t) => t.code);
    return (
      <PageCard title="Unknown form">
        <Alert color="red" role="alert" title={`There is no form "${formType}"`}>
          Payment request forms are {codes.length ? `${codes[0]} to ${codes[codes.length - 1]}` : 'listed on the home page'}.{' '}
          <Link to="/">Back to the request list</Link>
        </Alert>
      </PageCard>
    );
  }
  if (needsRequest && query.isLoading) {
    return (
      <PageCard title={title}>
        <Loader aria-label="Loading" />
      </PageCard>
    );
  }
  if (needsRequest && (query.error || !query.data)) {
    return (
      <PageCard title={title}>
        <ErrorDisplay error={asApiError(query.error)} />
      </PageCard>
    );
  }
  const request = query.data;
  if (mode === 'approve' && request) return <ApproveLayout title={title} request={request} />;
  return (
    <Stack gap="lg">
      {request && <RevisionAlert request={request} />}
      {request && <ClosedYearAlert request={request} />}
      <PageCard title={title} actions={mode === 'view' && request ? <ViewActions request={request} /> : undefined}>
        <Stack gap="md">
          {request && <Facts request={request} />}
          {mode === 'edit' && request && !request.availableActions.includes('edit') && (
            <Alert color="orange">
              {request.closedYear ? `This request cannot be edited: the fiscal year ${request.closedYear.name} is closed.` : 'This request cannot be edited in its current status.'}
            </Alert>
          )}
          {request && (mode === 'view' || mode === 'approve') ? (
            <RequestDocument request={request} />
          ) : (
            <RequestForm key={`${mode}-${request?.id ?? 'new'}`} mode={mode} formType={formType} rules={rules} stored={request} />
          )}
        </Stack>
      </PageCard>
      {request && mode === 'view' && <ApprovalSteps request={request} />}
      {request && mode === 'view' && <ActivityLog request={request} />}
    </Stack>
  );
}
