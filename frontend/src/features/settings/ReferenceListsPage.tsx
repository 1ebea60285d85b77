import { Badge, Button, Group, MultiSelect, Select, Stack, Table, Tabs, Text, TextInput } from '@mantine/core';
import { ScrollWhenNarrow } from '../../components/TableScroll';
import { UnseenHeader } from '../../components/TableHead';
import { EmptyRow } from '../../components/EmptyRow';
import { notifications } from '@mantine/notifications';
import { useMemo, useState, type FormEvent } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router';
import { selectPermissions } from '../../api/authSlice';
import { useAppSelector } from '../../lib/hooks';
import { openConfirm } from '../../components/confirmDialogs';
import { askAndCancel, SaveError } from '../../components/EditorActions';
import { fieldErrors, unshownErrors } from '../../components/fieldErrors';
import { PageCard } from '../../components/PageCard';
import { QueryStatus } from '../../components/QueryStatus';
import { RowActions, RowButton } from '../../components/RowActions';
import { MountedModal } from '../../components/MountedModal';
import {
  REFERENCE_LISTS,
  sortEntries,
  useCreateRefEntryMutation,
  useSettingsFormTypesQuery,
  useSettingsProgramCollegesQuery,
  useSettingsRefListQuery,
  useUpdateRefEntryMutation,
  type RefEntry,
  type RefListSpec,
} from './referenceLists';
import { clearable } from '../../lib/clearable';

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** New or edited entry: name, code (new only), colleges for programs, form type for codes. */
function EntryModal({ list, entry, onClose }: { list: RefListSpec; entry?: RefEntry; onClose: () => void }) {
  const editing = entry !== undefined;
  const current = useSettingsProgramCollegesQuery(entry?.id ?? null, { skip: !list.colleges || !editing });
  const allColleges = useSettingsProgramCollegesQuery(null, { skip: !list.colleges });
  const formTypes = useSettingsFormTypesQuery(undefined, { skip: !list.formType });
  const [name, setName] = useState(entry?.name ?? '');
  const [code, setCode] = useState('');
  const [formType, setFormType] = useState<string | null>(null);
  const [colleges, setColleges] = useState<string[] | null>(null);
  const shownColleges = colleges ?? (current.data ?? []).map((c) => String(c.id));
  const [create, created] = useCreateRefEntryMutation();
  const [update, updated] = useUpdateRefEntryMutation();
  const error = created.error ?? updated.error;
  const errors = fieldErrors(error);
  const dirty = name !== (entry?.name ?? '') || code !== '' || formType !== null || colleges !== null;
  const close = () => void askAndCancel(dirty, onClose);
  const [checked, setChecked] = useState(false);
  // Checked here first, so the server is only asked about what cannot be known here.
  const local: Record<string, string> = {};
  if (checked && !name.trim()) local.name = 'Enter a name';
  if (checked && !editing && !code.trim()) local.code = 'Enter a code';
  if (checked && !editing && /\s/.test(code.trim())) local.code = 'A code has no spaces';
  if (checked && list.formType && !editing && !formType) local.paymentRequestType = 'Pick the form type the code is for';

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    const problems = !name.trim() || (!editing && (!code.trim() || /\s/.test(code.trim()) || (list.formType && !formType)));
    if (problems) return;
    const collegeIds = list.colleges ? shownColleges.map(Number) : undefined;
    const result = editing
      ? await update({ slug: list.slug, id: entry.id, body: { name: name.trim(), ...(colleges !== null ? { collegeIds } : {}) } })
      : await create({
          slug: list.slug,
          body: { name: name.trim(), code: code.trim(), ...(list.colleges ? { collegeIds } : {}), ...(list.formType ? { paymentRequestType: formType! } : {}) },
        });
    if (result.data) {
      notifications.show({ color: 'green', title: editing ? 'Saved' : `${capital(list.noun)} created`, message: `${result.data.name} (${result.data.code ?? ''}) is saved.` });
      onClose();
    }
  };

  const title = editing ? `Edit ${list.noun}` : `New ${list.noun}`;
  return (
    <MountedModal onClose={close} title={title} centered size="lg">
      <form onSubmit={onSubmit} noValidate aria-label={title}>
        <Stack gap="md">
          <SaveError error={error} unshown={unshownErrors(errors, (f) => ['name', 'code', 'collegeIds', 'paymentRequestType'].includes(f))} />
          <TextInput label="Name" required data-autofocus value={name} error={local.name ?? errors.name} onChange={(e) => setName(e.currentTarget.value)} />
          {editing ? (
            <Text size="sm">
              Code <b>{entry.code}</b> <Text span c="dimmed" size="xs">(codes never change: requests, budgets and exports name them)</Text>
            </Text>
          ) : (
            <TextInput label="Code" required description="Unique in this list, no spaces (e.g. GF, 5210)" value={code} error={local.code ?? errors.code} onChange={(e) => setCode(e.currentTarget.value)} />
          )}
          {list.formType && !editing && (
            <Select
              label="Form type"
              required
              searchable
              data={(formTypes.data ?? []).map((t) => ({ value: t.code ?? '', label: `${t.code} – ${t.name}` }))}
              value={formType}
              error={local.paymentRequestType ?? errors.paymentRequestType}
              onChange={setFormType}
            />
          )}
          {list.colleges && (
            <MultiSelect
              label="Colleges"
              description="The community colleges this program works with"
              searchable
              {...clearable('Colleges')}
              data={(allColleges.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
              value={shownColleges}
              error={errors.collegeIds}
              onChange={setColleges}
              maxDropdownHeight={240}
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {dirty ? 'Cancel Changes' : 'Close'}
            </Button>
            <Button type="submit" loading={created.isLoading || updated.isLoading}>
              {editing ? 'Save Changes' : `Create ${list.noun}`}
            </Button>
          </Group>
        </Stack>
      </form>
    </MountedModal>
  );
}

function ListPanel({ list, canCreate }: { list: RefListSpec; canCreate: boolean }) {
  const [formType, setFormType] = useState<string | null>(null);
  const query = useSettingsRefListQuery({ slug: list.slug, paymentRequestType: list.formType ? formType : null });
  const formTypes = useSettingsFormTypesQuery(undefined, { skip: !list.formType });
  const [update] = useUpdateRefEntryMutation();
  const [editing, setEditing] = useState<RefEntry | 'new' | null>(null);
  const rows = useMemo(() => sortEntries(query.data ?? []), [query.data]);
  const typeName = (code?: string) => formTypes.data?.find((t) => t.code === code)?.name ?? '';

  const toggle = async (e: RefEntry) => {
    const off = e.isActive;
    const yes = await openConfirm({
      title: off ? `Deactivate ${list.noun}` : `Reactivate ${list.noun}`,
      text: off
        ? `${e.name} (${e.code}) will no longer be offered for new requests, approvals and budget lines. Requests and budgets that already use it keep it.`
        : `${e.name} (${e.code}) will be offered again.`,
      confirmLabel: off ? 'Deactivate' : 'Reactivate',
      cancelLabel: 'Keep as it is',
      danger: off,
    });
    if (!yes) return;
    const result = await update({ slug: list.slug, id: e.id, body: { isActive: !off } });
    if (result.data) notifications.show({ color: 'green', title: off ? 'Deactivated' : 'Reactivated', message: `${e.name} is ${off ? 'inactive' : 'active'}.` });
    else notifications.show({ color: 'red', title: 'Not changed', message: `${e.name} could not be changed. Please try again.` });
  };

  return (
    <Stack gap="md" pt="md">
      <Group justify="space-between" align="flex-end">
        {list.formType ? (
          <Select
            label="Form type"
            placeholder="All form types"
            {...clearable('Form type')}
            w={360}
            data={(formTypes.data ?? []).map((t) => ({ value: t.code ?? '', label: `${t.code} – ${t.name}` }))}
            value={formType}
            onChange={setFormType}
          />
        ) : (
          <Text size="sm" c="dimmed">
            Inactive entries stay listed: requests and budgets that use them keep showing them.
          </Text>
        )}
        {canCreate && <Button onClick={() => setEditing('new')}>New {list.noun}</Button>}
      </Group>
      <QueryStatus isLoading={query.isLoading} error={query.error}>
        <ScrollWhenNarrow label={list.title} minWidth={560}>
        <Table striped highlightOnHover withTableBorder layout="fixed" data-testid={`${list.slug}-table`} opacity={query.isFetching ? 0.6 : 1}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th w={130}>Code</Table.Th>
              {list.formType && <Table.Th w={260}>Form type</Table.Th>}
              <Table.Th w={100}>Status</Table.Th>
              {canCreate && <UnseenHeader w={220}>Actions</UnseenHeader>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.length === 0 && (
              <EmptyRow columns={5}>{formType ? 'No approval codes for this form type yet.' : `No ${list.title.toLowerCase()} yet.`}</EmptyRow>
            )}
            {rows.map((e) => (
              <Table.Tr key={e.id} data-entry={e.code}>
                <Table.Td c={e.isActive ? undefined : 'dimmed'}>{e.name}</Table.Td>
                <Table.Td ff="monospace">{e.code}</Table.Td>
                {list.formType && (
                  <Table.Td>
                    {e.paymentRequestType} – {typeName(e.paymentRequestType)}
                  </Table.Td>
                )}
                <Table.Td>
                  <Badge variant="light" color={e.isActive ? 'green' : 'gray'}>
                    {e.isActive ? 'Active' : 'Inactive'}
                  </Badge>
                </Table.Td>
                {canCreate && (
                  <RowActions>
                    <RowButton rowName={e.name} onClick={() => setEditing(e)}>{list.colleges ? 'Edit' : 'Rename'}</RowButton>
                    <RowButton variant="subtle" color={e.isActive ? 'red' : 'green'} rowName={e.name} onClick={() => void toggle(e)}>
                      {e.isActive ? 'Deactivate' : 'Reactivate'}
                    </RowButton>
                  </RowActions>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        </ScrollWhenNarrow>
      </QueryStatus>
      {editing && <EntryModal list={list} entry={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} />}
    </Stack>
  );
}

/**
 * Settings → Reference lists: funds, expense accounts, mentor programs (with their colleges)
 * and approval codes per form type; list, create, rename, deactivate, each behind its permission.
 */
export default function ReferenceListsPage() {
  const permissions = useAppSelector(selectPermissions);
  const navigate = useNavigate();
  const visible = REFERENCE_LISTS.filter((l) => !l.read || permissions.includes(l.read));
  const slug = useParams().list;
  const list = visible.find((l) => l.slug === slug);
  if (!list) return visible[0] ? <Navigate to={`/settings/reference/${visible[0].slug}`} replace /> : <Text>You may not read any reference list.</Text>;
  return (
    <PageCard title="Reference lists">
      <Tabs value={list.slug} onChange={(v) => v && navigate(`/settings/reference/${v}`)} keepMounted={false}>
        <Tabs.List>
          {visible.map((l) => (
            <Tabs.Tab key={l.slug} value={l.slug}>
              {l.title}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value={list.slug}>
          <ListPanel key={list.slug} list={list} canCreate={permissions.includes(list.create)} />
        </Tabs.Panel>
      </Tabs>
    </PageCard>
  );
}
