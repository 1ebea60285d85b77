// Amounts travel as JSON numbers with at most two decimals (DESIGN §2); sums are
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
