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

/**
 * A project jobs are added to, as the jobs module sees it: null when the user may not add jobs to it (unknown,
 * not theirs, shared read-only); else the settings of its applied project settings template (null: none) and
 * a way to put the jobs' images into the project.
 * Given by app.ts (the projects module's), so jobs and projects do not import each other.
 */
export type ProjectLookup = (
  db: Db,
  userId: string,
  projectId: string,
) => Promise<{ templateSettings: Record<string, unknown> | null; addImages: (imageIds: string[]) => Promise<void> } | null>;

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * The part of a project settings template for one model: the object under the model's internal name, else
 * the object under "*" (every model), else nothing. A template is written per model because the models'
 * settings differ (ARCHITECTURE.md "Projects").
 */
export function templatePartFor(templateSettings: Record<string, unknown> | null, modelName: string): Record<string, unknown> {
  if (!templateSettings) return {};
  const own = templateSettings[modelName];
  if (isObject(own)) return own;
  const all = templateSettings['*'];
  return isObject(all) ? all : {};
}
