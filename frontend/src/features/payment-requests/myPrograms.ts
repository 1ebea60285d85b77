import { useReferenceListQuery } from '../../lib/referenceLists';
import { useMemo } from 'react';
import { useGetMyProgramsQuery, type MyPrograms } from './api';
import type { RefItem } from '../../api/wire';

/** The programs a caller may pick: all for an Administrator, its own for a Coordinator; active ones only. */
export function pickablePrograms(programs: RefItem[] | undefined, mine: MyPrograms | undefined): RefItem[] {
  const active = (programs ?? []).filter((p) => p.isActive);
  if (!mine || mine.all) return active;
  return active.filter((p) => mine.mentorProgramIds.includes(p.id));
}

/** Why a non-Administrator sees no requests, or null when it has programs. */
export function emptyScopeReason(mine: MyPrograms | undefined): string | null {
  if (!mine || mine.all || mine.mentorProgramIds.length > 0) return null;
  if (!mine.linkedToParticipant)
    return 'Your sign-in is not linked to a participant, so no mentor program is yours and the lists stay empty. Ask an Administrator to create your login from your participant record (Participant Management → the participant → Create login).';
  return 'You are not the Coordinator of any mentor program yet, so the lists stay empty. Ask an Administrator to add a Coordinator participation in your program to your participant record.';
}

export function usePickablePrograms(): RefItem[] | undefined {
  const programs = useReferenceListQuery('/mentor-programs');
  const mine = useGetMyProgramsQuery();
  return useMemo(() => (programs.data && !mine.isLoading ? pickablePrograms(programs.data, mine.data) : undefined), [programs.data, mine.data, mine.isLoading]);
}
