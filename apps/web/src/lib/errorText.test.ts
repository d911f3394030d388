import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client';
import { errorText, fieldErrors } from './errorText';

const texts: Record<string, string> = {
  'shared.error.generic': 'Something went wrong.',
  'common.serverUnavailable': 'The server cannot be reached right now.',
  'validation.required': 'Required',
};
const t = ((key: string, opts?: { defaultValue?: string; field?: string }) =>
  key in texts ? texts[key].replace('{{field}}', opts?.field ?? '') : (opts?.defaultValue ?? key)) as unknown as TFunction;

describe('the one error-to-text helper', () => {
  it('field details first (the server text, else the text of its key)', () => {
    const e = new ApiError(400, 'VALIDATION', 'Invalid input', [
      { field: '/name', message: 'Name fehlt', key: 'validation.required' },
      { field: '/surname', message: '', key: 'validation.required' },
      { field: '/address/phone', message: 'Telefonnummer ungültig' },
    ]);
    expect(errorText(t, e)).toBe('Name fehlt Required Telefonnummer ungültig');
    expect(fieldErrors(t, e)).toEqual({ name: 'Name fehlt', surname: 'Required', 'address.phone': 'Telefonnummer ungültig' });
  });

  it("the server's message, else the fallback; no answer at all reads as unreachable", () => {
    expect(errorText(t, new ApiError(409, 'TAKEN', 'This name is taken'))).toBe('This name is taken');
    expect(errorText(t, new ApiError(502, 'HTTP_502', 'Bad Gateway'))).toBe('Something went wrong.');
    expect(errorText(t, new ApiError(0, 'NETWORK_ERROR', 'fetch failed'))).toBe('The server cannot be reached right now.');
    expect(errorText(t, new Error('boom'))).toBe('Something went wrong.');
    expect(fieldErrors(t, new Error('boom'))).toEqual({});
  });
});
