import type { Participation } from './api';
import { describe, expect, it } from 'vitest';
import {
  EMPTY_PARTICIPATION,
  nestedParticipationErrors,
  participationBody,
  participationStarted,
  participationValues,
} from './participationForm';

describe('participation form', () => {
  it('round-trips a participation', () => {
    const p: Participation = { id: 1, participantId: 9, mentorProgramId: 2, fiscalYearId: 3, roleCode: 'Mentor', collegeId: null, startDate: '2026-07-01', endDate: null };
    const { id: _id, participantId: _participantId, ...body } = p;
    expect(participationBody(participationValues(p))).toEqual(body);
  });

  it('missing required values still go out, so the server names them', () => {
    expect(participationBody(EMPTY_PARTICIPATION)).toEqual({
      mentorProgramId: 0,
      fiscalYearId: 0,
      roleCode: '',
      collegeId: null,
      startDate: '',
      endDate: null,
    });
    expect(participationStarted(EMPTY_PARTICIPATION)).toBe(false);
    expect(participationStarted({ ...EMPTY_PARTICIPATION, roleCode: 'Mentor' })).toBe(true);
  });

  it('nested errors of POST /participants are unwrapped', () => {
    expect(nestedParticipationErrors({ 'participations[0].roleCode': ['bad'], email: ['x'] })).toEqual({ roleCode: ['bad'] });
    expect(nestedParticipationErrors({ email: ['x'] })).toBeUndefined();
  });
});
