/** A field in error as the error summary names it: its element's id, label and message. */
export type InvalidField = { id: string; label: string; message: string };

/**
 * The fields marked invalid (`aria-invalid="true"`) inside `root`, in page order, each named by
 * its label (the required mark left out) or its accessible name, with the text of the message
 * tied to it by `aria-describedby`. Fields without an id are given one, so a link can reach them.
 */
export function invalidFields(root: ParentNode): InvalidField[] {
  const out: InvalidField[] = [];
  root.querySelectorAll<HTMLElement>('[aria-invalid="true"]').forEach((el, index) => {
    if (!el.id) el.id = `invalid-field-${index + 1}`;
    const labelled = el.getAttribute('aria-labelledby');
    const label =
      (el as HTMLInputElement).labels?.[0]?.textContent ??
      (labelled ? document.getElementById(labelled)?.textContent : null) ??
      el.getAttribute('aria-label') ??
      el.getAttribute('name') ??
      'Field';
    const message = (el.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .map((id) => (id ? document.getElementById(id) : null))
      .filter((m): m is HTMLElement => !!m && /error/i.test(m.id))
      .map((m) => m.textContent?.trim() ?? '')
      .filter(Boolean)
      .join('; ');
    out.push({ id: el.id, label: label.replace(/\s*\*\s*$/, '').trim(), message });
  });
  return out;
}

/** A message that names its field ("Choose the payee") stands alone; a fragment ("is required") follows its label. */
export const summaryLine = (f: InvalidField) =>
  !f.message ? f.label : f.message.toLowerCase().includes(f.label.toLowerCase()) ? f.message : `${f.label}: ${f.message}`;
