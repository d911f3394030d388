import { describe, expect, it } from 'vitest';
import { isJobFinished, isJobRunning, JOB_STATUS_COLOR, JOB_STATUSES, jobStatusColor } from './jobStatus';

describe('the one job-status colour map', () => {
  it('has a colour for every status of the contract', () => {
    expect(Object.keys(JOB_STATUS_COLOR).sort()).toEqual([...JOB_STATUSES].sort());
    expect(jobStatusColor('FAILED')).toBe('red');
    expect(jobStatusColor('SOMETHING_NEW')).toBe('gray');
  });

  it('running and finished', () => {
    expect(JOB_STATUSES.filter(isJobRunning)).toEqual(['NEW', 'PENDING']);
    expect(JOB_STATUSES.filter(isJobFinished).sort()).toEqual(['CACHED', 'FINISHED']);
  });
});
