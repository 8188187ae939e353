// Holiday typing by name (national, festival, else public), the shipped lunar-calendar table, closed days and merging.
import { describe, expect, it } from 'vitest';
import { INDIA_LUNAR_HOLIDAYS, holidayTypeOf, indiaLunarHolidays, isClosedHoliday, mergeHolidays } from './holidays.js';

describe('holidayTypeOf', () => {
  it('types republic day, independence day and gandhi jayanti as national, case-insensitively', () => {
    expect(holidayTypeOf('Republic Day')).toBe('national');
    expect(holidayTypeOf('INDEPENDENCE DAY')).toBe('national');
    expect(holidayTypeOf("Gandhi Jayanti (Mahatma Gandhi's Birthday)")).toBe('national');
  });
  it('types festivals by name', () => {
    for (const name of [
      'Diwali',
      'Holi',
      'Eid al-Fitr',
      'Eid al-Adha (Bakrid)',
      'Christmas Day',
      'Dussehra',
      'Guru Nanak Jayanti',
      'Janmashtami',
      'Raksha Bandhan',
      'Ganesh Chaturthi',
      'Maha Shivaratri',
    ]) {
      expect(holidayTypeOf(name), name).toBe('festival');
    }
  });
  it('types everything else as public, and does not take "Holiday" for Holi', () => {
    expect(holidayTypeOf('Ambedkar Jayanti')).toBe('public');
    expect(holidayTypeOf('Good Friday')).toBe('public');
    expect(holidayTypeOf('Bank Holiday')).toBe('public');
    expect(holidayTypeOf('Holika Dahan')).toBe('public');
  });
});

describe('the lunar-calendar table', () => {
  it('covers every festival for 2024 to 2030 with valid dates in its year', () => {
    for (const [name, byYear] of Object.entries(INDIA_LUNAR_HOLIDAYS)) {
      for (let y = 2024; y <= 2030; y += 1) {
        const md = byYear[y];
        expect(md, `${name} ${y}`).toMatch(/^\d{2}-\d{2}$/);
        const d = new Date(`${y}-${md}T00:00:00Z`);
        expect(d.toISOString().slice(0, 10), `${name} ${y}`).toBe(`${y}-${md}`);
      }
    }
  });
  it('has the gazetted dates of recent years', () => {
    const at = (y: number) => Object.fromEntries(indiaLunarHolidays(y).map((h) => [h.name, h.date]));
    expect(at(2024)).toMatchObject({
      Holi: '2024-03-25',
      Diwali: '2024-10-31',
      Dussehra: '2024-10-12',
      'Eid al-Fitr': '2024-04-11',
      'Guru Nanak Jayanti': '2024-11-15',
    });
    expect(at(2025)).toMatchObject({
      Holi: '2025-03-14',
      Diwali: '2025-10-20',
      Dussehra: '2025-10-02',
      'Eid al-Fitr': '2025-03-31',
      'Eid al-Adha (Bakrid)': '2025-06-07',
    });
    expect(at(2026)).toMatchObject({ Holi: '2026-03-04', Diwali: '2026-11-08', 'Eid al-Adha (Bakrid)': '2026-05-27' });
    expect(indiaLunarHolidays(2031)).toEqual([]);
    const y2026 = indiaLunarHolidays(2026);
    expect(y2026.map((h) => h.date)).toEqual([...y2026.map((h) => h.date)].sort());
  });
});

describe('closed holidays and merging', () => {
  it('closes the office on the gazetted compulsory holidays only', () => {
    for (const n of ['Republic Day', 'Diwali', 'Good Friday', 'Christmas Day', 'Eid al-Adha (Bakrid)', 'Muharram', 'Milad-un-Nabi'])
      expect(isClosedHoliday(n), n).toBe(true);
    for (const n of ['Holi', 'Raksha Bandhan', 'Janmashtami', 'Onam', 'Ambedkar Jayanti']) expect(isClosedHoliday(n), n).toBe(false);
  });
  it('keeps one entry per date and name, comparing names loosely, sorted by date', () => {
    const merged = mergeHolidays(
      [
        { date: '2026-11-08', name: 'Diwali', type: 'festival' },
        { date: '2026-01-26', name: 'Republic Day', type: 'national' },
      ],
      [
        { date: '2026-11-08', name: 'Diwali/Deepavali', type: 'festival' },
        { date: '2026-01-26', name: 'republic day', type: 'national' },
        { date: '2026-11-08', name: 'Bhai Dooj', type: 'public' },
      ],
    );
    expect(merged.map((h) => `${h.date} ${h.name}`)).toEqual(['2026-01-26 Republic Day', '2026-11-08 Bhai Dooj', '2026-11-08 Diwali']);
  });
});
