import { AppError } from '../../../platform/http/errors.ts';
import type { NodeProvider } from './types.ts';

export const OVH_SETTINGS = ['OVH_ENDPOINT', 'OVH_APPLICATION_KEY', 'OVH_APPLICATION_SECRET', 'OVH_CONSUMER_KEY', 'OVH_PROJECT_ID'] as const;

/**
 * OVH Public Cloud instances. This installation has no OVH credentials, so start and stop are refused with
 * 502 CLOUD_PROVIDER_UNAVAILABLE naming the missing settings; nothing in the database changes.
 */
export function ovhProvider(env: NodeJS.ProcessEnv = process.env): NodeProvider {
  const refuse = async (): Promise<never> => {
    const missing = OVH_SETTINGS.filter((k) => !env[k]);
    throw new AppError(502, 'CLOUD_PROVIDER_UNAVAILABLE', missing.length ? 'adminErrors.ovhMissingSettings' : 'adminErrors.ovhNotSupported', {
      missing: missing.join(', '),
    });
  };
  return { start: refuse, stop: refuse };
}
