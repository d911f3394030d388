import { feedbackApi as api } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { route, type RouteHost } from '../../platform/http/route.ts';
import * as feedback from './service.ts';

/** Rating of a result (one per user and job, replaced on re-rating) and issue reports (user-app.md §7). */
export async function feedbackRoutes(app: RouteHost, deps: { db: Db; jobs: feedback.FeedbackJobs }): Promise<void> {
  const { db, jobs } = deps;
  route(app, api.rate, { auth: 'user' }, (request) => feedback.rate(db, jobs, requireAuth(request).user.id, request.body));
  route(app, api.reportIssue, { auth: 'user' }, (request) => feedback.reportIssue(db, jobs, requireAuth(request).user.id, request.body));
}
