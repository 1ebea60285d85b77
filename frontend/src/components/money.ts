// Amounts travel as JSON numbers with at most two decimals; sums are
// done in integer cents so 0.1 + 0.2 stays 0.30.

/** Cents of an amount as the API sends it (a number, or a numeric string from an input). */
export function toCents(amount: number | string | null | undefined): number {
  if (amount === null || amount === undefined || amount === '') return 0;
  const value = typeof amount === 'number' ? amount : Number(amount);
  return Number.isFinite(value) ? Math.round(value * 100) : 0;
}

/** The wire number for `cents` (exact for every amount below 2^53 cents). */
export const fromCents = (cents: number): number => cents / 100;

export function sumCents(amounts: (number | string | null | undefined)[]): number {
  return amounts.reduce<number>((total, amount) => total + toCents(amount), 0);
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** '$1,234.50'; negative amounts as '-$5.00'. */
export const formatCents = (cents: number): string => usd.format(cents / 100);
export const formatMoney = (amount: number | string | null | undefined): string => formatCents(toCents(amount));

/** What a typed amount means: cents, or why it is refused. Nothing is ever rounded away. */
export type MoneyParse = { cents: number; error?: undefined } | { cents?: undefined; error: string };

/**
 * Reads an amount as typed ("$1,234.50", "1234.5", "12"): thousands commas and a leading
 * "$" are allowed; a minus sign, a third decimal or anything else is refused with a reason,
 * never coerced (0.725 stays an error instead of becoming $0.72).
 */
export function parseMoneyInput(text: string, { allowNegative = false }: { allowNegative?: boolean } = {}): MoneyParse {
  const raw = text.trim().replace(/^\$/, '').trim();
  if (raw === '') return { error: 'Enter an amount' };
  const negative = raw.startsWith('-');
  const body = negative ? raw.slice(1).replace(/^\$/, '') : raw;
  if (!/^(\d{1,3}(,\d{3})+|\d+)(\.\d*)?$|^\.\d+$/.test(body)) return { error: 'Enter an amount like 1,234.56' };
  const [whole = '', fraction = ''] = body.replace(/,/g, '').split('.');
  if (fraction.length > 2) return { error: 'At most two decimals (whole cents)' };
  if (negative && !allowNegative) return { error: 'Must not be negative' };
  if (whole.length > 13) return { error: 'The amount is too large' };
  const cents = Number(whole || '0') * 100 + Number(fraction.padEnd(2, '0') || '0');
  return { cents: negative ? -cents : cents };
}

/** The text a money input starts from: "1234.50" (no "$" or commas, so editing is plain). */
export const centsToInput = (cents: number | null | undefined): string =>
  cents === null || cents === undefined ? '' : (cents / 100).toFixed(2);
