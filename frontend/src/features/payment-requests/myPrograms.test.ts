import { describe, expect, it } from 'vitest';
import { emptyScopeReason, pickablePrograms } from './myPrograms';

const programs = [
  { id: 1, name: 'A', isActive: true },
  { id: 2, name: 'B', isActive: true },
  { id: 3, name: 'Old', isActive: false },
];

describe('my programs', () => {
  it('offers an Administrator every active program and a Coordinator only its own', () => {
    expect(pickablePrograms(programs, { all: true, linkedToParticipant: false, mentorProgramIds: [] }).map((p) => p.id)).toEqual([1, 2]);
    expect(pickablePrograms(programs, { all: false, linkedToParticipant: true, mentorProgramIds: [2, 3] }).map((p) => p.id)).toEqual([2]);
  });

  it('says why a list is empty', () => {
    expect(emptyScopeReason({ all: false, linkedToParticipant: false, mentorProgramIds: [] })).toMatch(/not linked to a participant/);
    expect(emptyScopeReason({ all: false, linkedToParticipant: true, mentorProgramIds: [] })).toMatch(/not the Coordinator of any/);
    expect(emptyScopeReason({ all: false, linkedToParticipant: true, mentorProgramIds: [1] })).toBeNull();
    expect(emptyScopeReason({ all: true, linkedToParticipant: false, mentorProgramIds: [] })).toBeNull();
  });
});
