import { describe, expect, it } from 'vitest';
import type { ApiError } from '../../api/errors';
import { PARTICIPANT_FIELDS } from './participantForm';
import { saveProblem, splitFieldErrors } from './saveErrors';

const err = (status: number, detail: string, errors?: Record<string, string[]>): ApiError => ({ status, title: 'x', detail, errors });

describe('save problems', () => {
  it('field errors go to the fields', () => {
    expect(saveProblem(err(400, 'Bad Request', { lastName: ['is required'] }), PARTICIPANT_FIELDS)).toEqual({
      kind: 'fields',
      byField: { lastName: 'Is required' },
      other: [],
    });
  });

  it('a stale version is a conflict; a taken e-mail lands on the e-mail field', () => {
    const stale = err(409, 'The participant was changed by someone else (version 3 now, yours 2); reload and try again.', { version: ['has changed since it was read'] });
    expect(saveProblem(stale, PARTICIPANT_FIELDS, 'email').kind).toBe('conflict');
    expect(saveProblem(err(409, 'Some other conflict.'), PARTICIPANT_FIELDS, 'email')).toEqual({ kind: 'other', detail: 'Some other conflict.' });
    const taken = err(409, 'A participant with this e-mail already exists.');
    expect(saveProblem(taken, PARTICIPANT_FIELDS, 'email')).toEqual({
      kind: 'fields',
      byField: { email: 'A participant with this e-mail already exists.' },
      other: [],
    });
  });

  it('anything else is shown as it is, with unplaced field errors', () => {
    expect(saveProblem(err(403, 'Outside your scope.'), PARTICIPANT_FIELDS)).toEqual({ kind: 'other', detail: 'Outside your scope.' });
    expect(saveProblem(err(422, 'Invalid.', { 'participations[0].x': ['bad'] }), PARTICIPANT_FIELDS)).toEqual({
      kind: 'other',
      detail: 'Invalid. participations[0].x: Bad',
    });
  });

  it('server field errors land on their fields; the rest is listed', () => {
    const { byField, other } = splitFieldErrors(
      { firstName: ['is required'], 'workplaceSettingIds[1]': ['unknown id 99'], Email: ['is taken'], version: ['is stale'] },
      PARTICIPANT_FIELDS,
    );
    expect(byField).toEqual({ firstName: 'Is required', workplaceSettingIds: 'Unknown id 99', email: 'Is taken' });
    expect(other).toEqual(['version: Is stale']);
    expect(splitFieldErrors(undefined, PARTICIPANT_FIELDS)).toEqual({ byField: {}, other: [] });
  });
});
