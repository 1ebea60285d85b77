import { describe, expect, it } from 'vitest';
import { servedRules } from '../../test/formTypes';
import { detailsView } from './detailsView';

describe('read-only details', () => {
  it('names references, formats money and lists F3 trips with the recorded rate', () => {
    const view = detailsView(
      'F3',
      { travelPurposeId: 2, transitTypeId: 9, mileageRate: 0.7, trips: [{ date: '2026-10-01', from: 'Fresno', to: 'Clovis', miles: 12.5 }] },
      { travel_purposes: [{ id: 2, name: 'Site visit', isActive: true }], transit_types: [] },
      servedRules('F3'),
    );
    expect(view.lines).toEqual([
      { label: 'Travel purpose', value: 'Site visit' },
      // Not in the list (yet): the id, never a blank.
      { label: 'Transit type', value: '#9' },
      { label: 'Mileage rate (per mile)', value: '$0.70' },
    ]);
    expect(view.table).toEqual({ label: 'Trips', columns: ['Date', 'From', 'To', 'Miles'], rows: [['Oct 1, 2026', 'Fresno', 'Clovis', '12.5']] });
  });

  it('describes the forms from their layout, with empty values as a dash', () => {
    expect(detailsView('F2', { items: [{ date: '2026-10-01', description: 'Books', amount: 12.3 }], fileIds: ['x'] })).toEqual({
      lines: [],
      table: { label: 'Items', columns: ['Date', 'Description', 'Amount'], rows: [['Oct 1, 2026', 'Books', '$12.30']] },
    });
    expect(detailsView('F5', { seminarDate: '2026-10-01', topic: '', hours: 2 }).lines).toEqual([
      { label: 'Seminar date', value: 'Oct 1, 2026' },
      { label: 'Topic', value: '—' },
      { label: 'Hours', value: '2' },
    ]);
  });

  it('shows what the server recorded only when it is there (F11 nights, F12 meal rates)', () => {
    const f11 = detailsView('F11', { city: 'Sacramento', checkIn: '2026-10-01', checkOut: '2026-10-03', nightlyRate: 129.99 });
    expect(f11.lines.map((l) => l.label)).not.toContain('Nights');
    expect(detailsView('F11', { nights: 2 }).lines).toContainEqual({ label: 'Nights', value: '2' });
    const f12 = detailsView('F12', { days: [{ date: '2026-10-01', breakfast: true, lunch: false, dinner: true }], mealRates: { breakfast: 16, lunch: 19, dinner: 28 } });
    expect(f12.lines).toEqual([{ label: 'Meal rates', value: 'breakfast $16.00, lunch $19.00, dinner $28.00' }]);
    expect(f12.table?.rows).toEqual([['Oct 1, 2026', 'Yes', 'No', 'Yes']]);
    expect(detailsView('F99', {})).toEqual({ lines: [] });
  });
});
