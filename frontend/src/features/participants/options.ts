import type { RefItem } from '../../api/wire';

export interface Option {
  value: string;
  label: string;
}

/**
 * Picker options of a reference list, by id. Inactive items are offered only
 * when already chosen (an old record keeps showing its value).
 */
export function idOptions(items: RefItem[] | undefined, chosen: readonly string[] = []): Option[] {
  return (items ?? [])
    .filter((item) => item.isActive !== false || chosen.includes(String(item.id)))
    .map((item) => ({ value: String(item.id), label: item.isActive === false ? `${item.name} (inactive)` : item.name }));
}

/** Options of a fixed enumeration: the wire value is the item's code. */
export function codeOptions(items: RefItem[] | undefined): Option[] {
  return (items ?? []).map((item) => ({ value: item.code ?? String(item.id), label: item.name }));
}

export function nameById(items: RefItem[] | undefined, id: number | null | undefined): string {
  if (id == null) return '';
  return items?.find((item) => item.id === id)?.name ?? `#${id}`;
}

export function nameByCode(items: RefItem[] | undefined, code: string | null | undefined): string {
  if (!code) return '';
  return items?.find((item) => item.code === code)?.name ?? code;
}
