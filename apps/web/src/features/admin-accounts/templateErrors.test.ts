import { describe, expect, it } from 'vitest';
import { defaultExpiry, templateErrors } from './rules';
import { formatAdminDateTime } from '../../lib/format';

describe('template form rules', () => {
  it('needs a trimmed name and settings that parse as a JSON object', () => {
    expect(templateErrors({ name: '  ', settings: '{}' })).toEqual({ name: 'nameRequired' });
    expect(templateErrors({ name: 'a', settings: ' ' })).toEqual({ settings: 'settingsRequired' });
    expect(templateErrors({ name: 'a', settings: '{"a":' })).toEqual({ settings: 'invalidJson' });
    expect(templateErrors({ name: 'a', settings: '[1]' })).toEqual({ settings: 'invalidJson' });
    expect(templateErrors({ name: 'a', settings: '{"a": 1}' })).toEqual({});
  });
});

describe('voucher helpers', () => {
  it('formats dates as DD/MM/YYYY HH:mm:ss and defaults expiry to 30 days ahead', () => {
    const d = new Date(2026, 0, 5, 7, 8, 9);
    expect(formatAdminDateTime(d.toISOString())).toBe('05/01/2026 07:08:09');
    expect(defaultExpiry(new Date('2026-01-01T12:00:00Z'))).toBe('2026-01-31');
  });
});
