import { Anchor, Button, Group, List, Loader, Modal, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import type { FiscalYear } from '../../api/wire';
import { SaveError } from '../../components/EditorActions';
import { asApiError, ErrorDisplay } from '../../components/ErrorDisplay';
import { fieldErrors, unshownErrors } from '../../components/fieldErrors';
import { useGetClosePreviewQuery, useSetFiscalYearClosedMutation } from './api';

/**
 * Closing (or reopening) a fiscal year, confirmed with a reason. While a year is closed nothing
 * more is charged to it: no approval, no request, no budget change. Before closing, it shows what
 * is still open in the year (counts by status, each a link to those requests) and what closing
 * does to each. The caller keeps it mounted
 * and opens it, so that closing it gives the focus back to the button that opened it; the form
 * inside starts afresh at each opening.
 */
export function FiscalYearCloseModal({ year, opened, onClose }: { year: FiscalYear; opened: boolean; onClose: () => void }) {
  const title = `${year.closedAt ? 'Reopen' : 'Close'} ${year.name}`;
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <ReasonForm year={year} title={title} onClose={onClose} />
    </Modal>
  );
}

function ReasonForm({ year, title, onClose }: { year: FiscalYear; title: string; onClose: () => void }) {
  const closing = !year.closedAt;
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const [setClosed, { isLoading, error }] = useSetFiscalYearClosedMutation();
  const errors = fieldErrors(error);
  const empty = reason.trim() === '';

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (empty) return;
    const result = await setClosed({ id: year.id, close: closing, reason: reason.trim() });
    if (result.data) {
      notifications.show({
        color: 'green',
        title: closing ? 'Fiscal year closed' : 'Fiscal year reopened',
        message: closing ? `Nothing more can be charged to ${year.name}.` : `${year.name} can be charged again.`,
      });
      onClose();
    }
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label={title}>
      <Stack gap="md">
        <Text size="sm">
          {closing
            ? `Once closed, no request can be created, submitted, edited, approved or moved back in ${year.name}, and its budget cannot be changed. Reports, exports and vendor payments of released requests keep working.`
            : `Reopening lets requests and budget changes be charged to ${year.name} again.`}
        </Text>
        {closing && <StillOpen year={year} />}
        <SaveError error={error} unshown={unshownErrors(errors, (f) => f === 'reason')} />
        <Textarea
          label="Reason"
          description="Kept with the year and in the audit trail"
          // The asterisk only: the browser's own bubble would hide our message.
          withAsterisk
          autosize
          minRows={2}
          maxLength={1000}
          data-autofocus
          value={reason}
          error={(touched && empty ? 'A reason is required' : undefined) ?? errors.reason}
          onChange={(e) => setReason(e.currentTarget.value)}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Keep it {closing ? 'open' : 'closed'}
          </Button>
          <Button type="submit" color={closing ? 'red' : undefined} loading={isLoading}>
            {closing ? 'Close fiscal year' : 'Reopen fiscal year'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The requests of `year` not yet paid, by status, each count a link to that list. */
function StillOpen({ year }: { year: FiscalYear }) {
  const preview = useGetClosePreviewQuery(year.id, { refetchOnMountOrArgChange: true });
  if (preview.error) return <ErrorDisplay error={asApiError(preview.error)} title="What is still open could not be counted" />;
  if (!preview.data) {
    return (
      <Group gap="xs" role="status">
        <Loader size="xs" />
        <Text size="sm">Counting the requests still open in {year.name}…</Text>
      </Group>
    );
  }
  const { open, summary } = preview.data;
  return (
    <Stack gap="xs" data-testid="close-still-open" component="section" aria-label={`Still open in ${year.name}`}>
      <Text size="sm" fw={500}>
        {summary}
      </Text>
      {open.length > 0 && (
        <List size="sm" spacing="xs">
          {open.map((o) => (
            <List.Item key={o.formStatus}>
              <Anchor component={Link} to={`/?FiscalYearId=${year.id}&FormStatus=${o.formStatus}`}>
                {o.label}: {o.count} {o.count === 1 ? 'request' : 'requests'}
              </Anchor>
              . {o.afterClose}
            </List.Item>
          ))}
        </List>
      )}
    </Stack>
  );
}
