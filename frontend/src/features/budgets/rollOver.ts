// What a roll-over will write, computed as the server does: each line's amount changed by
// the percentage and rounded to the cent half away from zero, the total the sum of the lines.

/** A percentage as typed ("3.5", "-10", ""): hundredths of a percent, or why it is refused. */
export function parsePercent(text: string): { hundredths: number; error?: undefined } | { hundredths?: undefined; error: string } {
  const raw = text.trim().replace(/%$/, '').trim();
  if (raw === '') return { hundredths: 0 };
  if (!/^-?\d+(\.\d{1,2})?$/.test(raw)) return { error: 'A number with at most two decimals, like 3.5' };
  const negative = raw.startsWith('-');
  const [whole = '0', fraction = ''] = raw.replace('-', '').split('.');
  const hundredths = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  const value = negative ? -hundredths : hundredths;
  if (value < -10000 || value > 100000) return { error: 'Between -100 and 1000' };
  return { hundredths: value };
}

/** `cents` changed by `hundredths` of a percent, rounded half away from zero. */
export function changedCents(cents: number, hundredths: number): number {
  const product = cents * (10000 + hundredths);
  const sign = product < 0 ? -1 : 1;
  return sign * Math.floor((Math.abs(product) + 5000) / 10000);
}

/** The totals before and after, from the source year's line amounts in cents. */
export function rollOverTotals(lines: number[], hundredths: number): { lines: number; before: number; after: number } {
  return {
    lines: lines.length,
    before: lines.reduce((sum, c) => sum + c, 0),
    after: lines.reduce((sum, c) => sum + changedCents(c, hundredths), 0),
  };
}

/** The year just before `startDate` among `years`: the usual source of a roll-over. */
export function previousYear<T extends { id: number; startDate: string }>(years: T[], startDate: string): T | undefined {
  return years.filter((y) => y.startDate < startDate).sort((a, b) => b.startDate.localeCompare(a.startDate))[0];
}
