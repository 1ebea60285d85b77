import { SaveError } from '../../components/EditorActions';
import { asApiError, ErrorDisplay } from '../../components/ErrorDisplay';

/**
 * A refused close, reopen or copy, inside its dialog. A 409 there is a rule of the year (closed
 * already, not closed, lines already in it), not someone else's edit: it is said in the server's
 * words, without the "reload" advice of an edit conflict.
 */
export function YearActionError({ error, unshown }: { error: unknown; unshown?: string[] }) {
  if (!error) return null;
  const problem = asApiError(error);
  if (problem.status === 409) return <ErrorDisplay error={problem} title="This cannot be done now" />;
  return <SaveError error={error} unshown={unshown} />;
}
