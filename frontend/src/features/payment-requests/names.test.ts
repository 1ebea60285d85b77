import { describe, expect, it } from 'vitest';
import type { PayeeOption } from './api';
import { payeeLabel, roleWords } from './names';

describe('payee labels', () => {
  const ina: Pick<PayeeOption, 'fullName' | 'roleCode' | 'email' | 'status'> = { fullName: 'Ina Lee', roleCode: 'DirectorMentor', email: 'ina@example.org', status: 'Inactive' };
  it('name the role in words and mark a payee who is not active', () => {
    expect(roleWords('DirectorMentor')).toBe('director mentor');
    expect(payeeLabel(ina)).toBe('Ina Lee (director mentor) · inactive');
    expect(payeeLabel({ ...ina, status: 'Pending' }, true)).toBe('Ina Lee (director mentor, ina@example.org) · pending');
    expect(payeeLabel({ ...ina, status: 'Active' }, true)).toBe('Ina Lee (director mentor, ina@example.org)');
  });
});
