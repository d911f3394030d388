import type { Db } from '../../platform/db/client.ts';

/**
 * Resolves the settings a user's jobs of a model run with (customization groups, issue 5); `customizationId`
 * asks for that group (the admin sandbox) when it belongs to the model. The jobs plugin receives one at
 * registration (app.ts passes the customizations module's); this file imports nothing from customizations,
 * so both sides can use the type without a cycle.
 */
export type SettingsResolver = (
  db: Db,
  userId: string,
  modelId: string,
  customizationId?: string | null,
) => Promise<{ customizationId: string | null; settings: Record<string, unknown> }>;

/** No customization: every job runs with the model's own defaults. */
export const noCustomization: SettingsResolver = async () => ({ customizationId: null, settings: {} });
