import { MoneyField } from '../../components/MoneyInput';
import { Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import type { PayeeOption } from './api';
import type { RefItem } from '../../api/wire';
import { payeeLabel } from './names';
import { isEntered, type FormRules, type Rates } from './formRules';
import type { RequestValues } from './forms';
import { GenericFields } from './GenericFields';
import type { FormLists } from './useFormRules';

interface Props {
  formType: string;
  rules: FormRules;
  values: RequestValues;
  onChange: (next: RequestValues) => void;
  errors: Record<string, string>;
  readOnly: boolean;
  lookups: { programs?: RefItem[]; payees?: PayeeOption[]; lists: FormLists; rates?: Rates };
}

/** The common fields and the form's typed details, with the server's field errors on each input. */
export function RequestFields({ formType, rules, values, onChange, errors, readOnly, lookups }: Props) {
  const set = (patch: Partial<RequestValues>) => onChange({ ...values, ...patch });
  const err = (key: string) => errors[key];

  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Select
          label="Mentor program"
          // The payee is chosen in it: a required choice, kept when taken again.
          required
          searchable
          readOnly={readOnly}
          data={(lookups.programs ?? []).map((p) => ({ value: String(p.id), label: p.name }))}
          value={values.mentorProgramId}
          onChange={(v) => set({ mentorProgramId: v, participationId: '' })}
          error={err('mentorProgramId')}
        />
        <Select
          label="Payee"
          required
          searchable
          readOnly={readOnly}
          placeholder={values.mentorProgramId ? undefined : 'Choose a mentor program first'}
          data={(lookups.payees ?? [])
            .filter((p) => !p.isDeleted || p.participationId === values.participationId)
            .map((p) => ({ value: String(p.participationId), label: payeeLabel(p, true) }))}
          value={values.participationId === '' ? null : String(values.participationId)}
          onChange={(v) => set({ participationId: v ? Number(v) : '' })}
          error={err('participationId')}
        />
        {isEntered(rules) && (
          <MoneyField
            label="Requested amount"
            required
            readOnly={readOnly}
            value={values.requestedAmount}
            onChange={(v) => set({ requestedAmount: v })}
            error={err('requestedAmount')}
          />
        )}
      </SimpleGrid>
      <TextInput
        label="Description"
        readOnly={readOnly}
        value={values.description}
        onChange={(e) => set({ description: e.currentTarget.value })}
        error={err('description')}
      />

      <GenericFields
        formType={formType}
        rules={rules}
        values={values.details}
        onChange={(details) => set({ details })}
        errors={errors}
        readOnly={readOnly}
        lists={lookups.lists}
        rates={lookups.rates}
      />
    </Stack>
  );
}
