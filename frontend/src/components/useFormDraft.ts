import { useCallback, useEffect, useState } from 'react';
import { selectUserDetails } from '../api/authSlice';
import { useAppSelector } from '../lib/hooks';
import { clearDraft, readDraft, saveDraft, type StoredDraft } from './formDrafts';

/**
 * Keeps a form's unsaved values in this browser while they differ from what was loaded
 * (`dirty`), under the signed-in person and `form` (`request:F2:new`, `participant:12`; null:
 * nothing kept, as for a form shown read-only). A draft found when the form opens is offered
 * (`offer`) until it is restored or discarded, and is not overwritten meanwhile. `saved` is
 * called after a successful save.
 */
export function useFormDraft<T>(form: string | null, values: T, dirty: boolean) {
  const user = useAppSelector(selectUserDetails)?.email ?? null;
  const [offer, setOffer] = useState<StoredDraft<T> | null>(() => (user && form ? readDraft<T>(user, form) : null));
  useEffect(() => {
    if (!user || !form || offer) return;
    if (dirty) saveDraft(user, form, values);
    else clearDraft(user, form);
  }, [user, form, values, dirty, offer]);

  const discard = useCallback(() => {
    if (user && form) clearDraft(user, form);
    setOffer(null);
  }, [user, form]);
  /** The kept values, for the form to take; from now on the draft follows the form again. */
  const restore = useCallback((): T | null => {
    const values = offer?.values ?? null;
    setOffer(null);
    return values;
  }, [offer]);
  const saved = useCallback(() => {
    if (user && form) clearDraft(user, form);
  }, [user, form]);
  return { offer, restore, discard, saved };
}
