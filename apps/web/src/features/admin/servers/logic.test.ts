import { describe, expect, it } from 'vitest';
import { cloudButtons, isBeta, isIPv4, launcherState, parseEnv, parseIdList, statusKey, toggleId, truncate } from './logic';

describe('launcher state', () => {
  it('derives stopped / updating / running', () => {
    expect(launcherState({ isEnabled: false, isUpdating: false })).toBe('stopped');
    expect(launcherState({ isEnabled: false, isUpdating: true })).toBe('stopped');
    expect(launcherState({ isEnabled: true, isUpdating: true })).toBe('updating');
    expect(launcherState({ isEnabled: true, isUpdating: false })).toBe('running');
  });
  it('marks beta versions', () => {
    expect(isBeta('2.1.0-beta.3')).toBe(true);
    expect(isBeta('2.1.0')).toBe(false);
    expect(isBeta(null)).toBe(false);
  });
});

describe('node rules', () => {
  it('validates IPv4', () => {
    expect(isIPv4('127.0.0.1')).toBe(true);
    expect(isIPv4('255.255.255.255')).toBe(true);
    expect(isIPv4('256.1.1.1')).toBe(false);
    expect(isIPv4('1.2.3')).toBe(false);
    expect(isIPv4('01.2.3.4')).toBe(false);
    expect(isIPv4('a.b.c.d')).toBe(false);
  });
  it('maps statuses', () => {
    expect(statusKey('ONLINE')).toBe('ONLINE');
    expect(statusKey('STARTING')).toBe('UNKNOWN');
    expect(statusKey(undefined)).toBe('UNKNOWN');
  });
  it('disables cloud start/stop per §4', () => {
    expect(cloudButtons('ONLINE', false)).toEqual({ startDisabled: true, stopDisabled: false });
    expect(cloudButtons('OFFLINE', false)).toEqual({ startDisabled: false, stopDisabled: true });
    expect(cloudButtons('UNKNOWN', true)).toEqual({ startDisabled: true, stopDisabled: true });
  });
  it('parses env variables', () => {
    expect(parseEnv('')).toEqual({});
    expect(parseEnv('{"A":"1"}')).toEqual({ A: '1' });
    expect(parseEnv('[1]')).toBeNull();
    expect(parseEnv('{oops')).toBeNull();
  });
  it('keeps expanded ids', () => {
    expect(parseIdList(null)).toEqual([]);
    expect(parseIdList('a,b')).toEqual(['a', 'b']);
    expect(toggleId(['a'], 'b')).toEqual(['a', 'b']);
    expect(toggleId(['a', 'b'], 'a')).toEqual(['b']);
  });
  it('truncates long descriptions over 50 characters', () => {
    expect(truncate('x'.repeat(50)).truncated).toBe(false);
    expect(truncate('x'.repeat(51))).toEqual({ text: 'x'.repeat(50) + '…', truncated: true });
  });
});
