import { describe, expect, it } from 'vitest';
import { FORM_TYPES, servedRules } from '../../test/formTypes';
import { emptyGeneric, FORM_SPECS, genericDetails, genericValuesOf } from './genericForms';

describe('form layouts', () => {
  it('lay out every form the server serves, and nothing else', () => {
    expect(Object.keys(FORM_SPECS).sort()).toEqual(FORM_TYPES.map((t) => t.code).sort());
  });

  it('lay out every reference the rules name as a picker', () => {
    for (const t of FORM_TYPES) {
      const refs = FORM_SPECS[t.code!].fields.filter((f) => f.kind === 'ref').map((f) => f.key);
      expect(refs, t.code!).toEqual(t.form!.references.map((r) => r.field));
    }
  });

  it('round-trip F10 details (ids as the pickers hold them)', () => {
    const details = { jobCategoryId: 1, date: '2025-10-01', hours: 7.5, hourlyRate: 22.4 };
    const values = genericValuesOf('F10', details, servedRules('F10'));
    expect(values.jobCategoryId).toBe('1');
    expect(genericDetails('F10', values, servedRules('F10'))).toEqual(details);
  });

  it('send empty inputs as null and keep the receipts in the field the rules name', () => {
    const rules = servedRules('F2');
    const empty = emptyGeneric('F2', rules);
    expect(genericDetails('F2', empty, rules)).toEqual({ items: [{ date: null, description: null, amount: null }], fileIds: [] });
    const stored = genericValuesOf('F2', { items: [{ date: '2025-10-01', description: 'Books', amount: 12.34 }], fileIds: ['a'] }, rules);
    expect(genericDetails('F2', stored, rules).fileIds).toEqual(['a']);
    expect(genericDetails('F9', emptyGeneric('F9', servedRules('F9')), servedRules('F9'))).not.toHaveProperty('fileIds');
  });
});
