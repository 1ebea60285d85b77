// How people read a request and a coded item, the same on every screen as in every file,
// packet and message the server writes (src/text.rs: `request_ref`, `coded`). Dates have
// theirs in components/dates.ts. Pure: labels.test.ts.

/** A payment request as people name it: "F2 #601". */
export const requestRef = (formType: string, id: number | string): string => `${formType} #${id}`;

/** A reference item with its code first ("5310 Travel and mileage"), the name alone without one. */
export function codedName(item: { code?: string | null; name: string }): string {
  const code = item.code?.trim();
  return code ? `${code} ${item.name}` : item.name;
}
