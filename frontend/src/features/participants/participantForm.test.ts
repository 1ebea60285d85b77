import { describe, expect, it } from 'vitest';
import type { Participant } from './api';
import { bodyFromValues, checkParticipant, EMPTY_PARTICIPANT_VALUES, isDirty, valuesFromParticipant } from './participantForm';

const participant: Participant = {
  id: 7,
  firstName: 'Ana',
  lastName: 'Lopez',
  fullName: 'Ana Lopez',
  email: 'ana@example.org',
  phone: null,
  address: '1 Main St',
  status: 'Active',
  roleCode: 'Mentor',
  districtSetType: 'Assembly',
  districtId: 12,
  caucusRegionId: 3,
  workplaceSettingIds: [1, 2],
  languageIds: [4],
  educationLevelIds: [],
  permitLevelIds: [6],
  version: 5,
  participations: [],
  createdAt: '2026-01-05T10:00:00Z',
  updatedAt: '2026-01-06T10:00:00Z',
};

describe('participant form values', () => {
  it('round-trips a participant into a PUT body with its version', () => {
    const values = valuesFromParticipant(participant);
    expect(values.districtId).toBe('12');
    expect(values.caucusRegionId).toBe('3');
    expect(values.workplaceSettingIds).toEqual(['1', '2']);
    const { id: _id, fullName: _fullName, version: _version, participations: _p, createdAt: _c, updatedAt: _u, ...rest } = participant;
    expect(bodyFromValues(values, 5)).toEqual({ ...rest, version: 5 });
  });

  it('trims text, blanks become null, no version on create', () => {
    const body = bodyFromValues({ ...EMPTY_PARTICIPANT_VALUES, firstName: ' Bo ', phone: '  ', districtId: '9' });
    expect(body.firstName).toBe('Bo');
    expect(body.phone).toBeNull();
    expect(body.address).toBeNull();
    // A district number without its kind is dropped.
    expect(body.districtId).toBeNull();
    expect(body.status).toBe('');
    expect('version' in body).toBe(false);
  });

  it('dirty: text ignores outer spaces, id lists compare as sets', () => {
    const values = valuesFromParticipant(participant);
    expect(isDirty(values, { ...values, firstName: 'Ana ' })).toBe(false);
    expect(isDirty(values, { ...values, workplaceSettingIds: ['2', '1'] })).toBe(false);
    expect(isDirty(values, { ...values, workplaceSettingIds: ['2'] })).toBe(true);
    expect(isDirty(values, { ...values, status: 'Inactive' })).toBe(true);
    expect(isDirty(values, { ...values, caucusRegionId: null })).toBe(true);
  });

  it('finds every missing field before anything is sent, in words', () => {
    expect(checkParticipant(EMPTY_PARTICIPANT_VALUES)).toEqual({
      firstName: 'Enter the first name',
      lastName: 'Enter the last name',
      email: 'Enter the e-mail address',
      status: 'Choose the status',
      roleCode: 'Choose the role',
    });
    const filled = { ...EMPTY_PARTICIPANT_VALUES, firstName: 'Ann', lastName: 'Lee', email: 'ann@example', status: 'Active', roleCode: 'Mentor', districtSetType: 'Assembly' };
    expect(checkParticipant(filled)).toEqual({ email: 'Enter an e-mail address like name@example.org', districtId: 'Enter the district number' });
    expect(checkParticipant({ ...filled, email: 'ann@example.org', districtId: '7' })).toEqual({});
  });
});
