import type { Schemas } from '../api/wire';

const ACTIVE: Schemas['ParticipantStatus'] = 'Active';

/**
 * The mark a picker puts after a participant who is not active ("Ina Lee · inactive"), so
 * nobody pays an inactive or pending participant unawares; '' for an active one.
 */
export const inactiveMark = (status: string | null | undefined): string => (status && status !== ACTIVE ? ` · ${status.toLowerCase()}` : '');
