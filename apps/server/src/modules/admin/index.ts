import type { App, Ctx } from '../../app.ts';
import { customizationRoutes } from './customizations.ts';
import { jobRoutes } from './jobs.ts';
import { modelRoutes } from './models.ts';
import { nodeRoutes } from './nodes.ts';

/** The compute back-office (back-office.md: models registry, servers and launchers, jobs, customizations). */
export async function adminRoutes(app: App, ctx: Ctx): Promise<void> {
  await modelRoutes(app, ctx);
  await nodeRoutes(app, ctx);
  await jobRoutes(app, ctx);
  await customizationRoutes(app, ctx);
}
