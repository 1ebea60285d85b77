import dayjs from 'dayjs';

/** An RFC 3339 instant as the value of an `<input type="datetime-local">` (local time, minutes). */
export function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = dayjs(iso);
  return d.isValid() ? d.format('YYYY-MM-DDTHH:mm') : '';
}

/** A datetime-local value as a UTC instant; empty means no bound. */
export function fromLocalInput(local: string): string | null {
  if (!local) return null;
  const d = dayjs(local);
  return d.isValid() ? d.toISOString() : null;
}

export type BannerState = 'Showing' | 'Scheduled' | 'Ended' | 'Off';

/** Same rule as the server: on, and now within [startsAt, endsAt). */
export function bannerState(
  banner: { isActive: boolean; startsAt?: string | null; endsAt?: string | null },
  now: Date = new Date(),
): BannerState {
  if (!banner.isActive) return 'Off';
  const t = now.getTime();
  if (banner.startsAt && Date.parse(banner.startsAt) > t) return 'Scheduled';
  if (banner.endsAt && Date.parse(banner.endsAt) <= t) return 'Ended';
  return 'Showing';
}
