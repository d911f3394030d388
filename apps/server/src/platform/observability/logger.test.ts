import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { loggerOptions } from './logger.ts';

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const log = pino(loggerOptions('debug', 'server'), { write: (l: string) => void lines.push(JSON.parse(l)) });
  return { log, lines };
}

describe('log lines', () => {
  it('are JSON with the service, level name and ISO time, and keep ids as fields', () => {
    const { log, lines } = capture();
    log.child({ jobId: 'j-1', userId: 'u-1' }).info({ launcherId: 'l-1' }, 'job claimed');
    expect(lines[0]).toMatchObject({ level: 'info', service: 'server', jobId: 'j-1', userId: 'u-1', launcherId: 'l-1', msg: 'job claimed' });
    expect(String(lines[0].time)).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('carry no credentials, query strings or e-mail addresses', () => {
    const { log, lines } = capture();
    log.info(
      { req: { method: 'GET', url: '/api/users/me?token=secret-token', headers: { authorization: 'Bearer lam_x', cookie: 'lamella_session=abc' } } },
      'request',
    );
    log.info({ body: { password: 'Correct-Horse-9', token: 'tok' } }, 'body');
    log.warn('project invitation mail to ada.lovelace@example.com failed');
    const text = lines.map((l) => JSON.stringify(l)).join('\n');
    expect(text).not.toMatch(/secret-token|lam_x|lamella_session|Correct-Horse|"tok"|ada\.lovelace@example\.com/);
    expect(lines[0].req).toEqual({ method: 'GET', url: '/api/users/me' });
    expect(lines[2].msg).toBe('project invitation mail to [email] failed');
  });
});
