import { Type, type Static } from 'typebox';
import { IdParams, LanguageSchema } from './common.ts';
import { endpoint } from './endpoint.ts';

/**
 * Insights (back-office.md §2 "Insights screen", §9 "Insights and news"): bilingual rich-text articles written by
 * ADMIN staff, shown to users on their dashboard in their language; a user may hide one until staff reset the
 * visibility for everyone.
 */

/** The entity of back-office.md §3, both languages (the back-office's table and edit modal). */
export const Insight = Type.Object(
  {
    id: Type.String(),
    titleEn: Type.String(),
    titleDe: Type.String(),
    contentEn: Type.String(),
    contentDe: Type.String(),
    createdAt: Type.String(),
  },
  { $id: 'Insight' },
);
export type Insight = Static<typeof Insight>;
export const InsightList = Type.Array(Insight, { $id: 'InsightList' });

/** Create and update: both titles and contents are required (checked by the server, naming each field). */
export const InsightBody = Type.Object(
  {
    titleEn: Type.Optional(Type.String({ maxLength: 500 })),
    titleDe: Type.Optional(Type.String({ maxLength: 500 })),
    /** Rich text (HTML), sanitised by the server. */
    contentEn: Type.Optional(Type.String({ maxLength: 2_000_000 })),
    contentDe: Type.Optional(Type.String({ maxLength: 2_000_000 })),
  },
  { $id: 'InsightBody' },
);
export type InsightBody = Static<typeof InsightBody>;

export const SavedInsight = Type.Object({ ...Insight.properties, message: Type.String() }, { $id: 'SavedInsight' });
export type SavedInsight = Static<typeof SavedInsight>;
export const InsightDeleted = Type.Object({ id: Type.String(), deleted: Type.Boolean(), message: Type.String() }, { $id: 'InsightDeleted' });
export type InsightDeleted = Static<typeof InsightDeleted>;
export const InsightsVisibilityReset = Type.Object({ message: Type.String() }, { $id: 'InsightsVisibilityReset' });
export type InsightsVisibilityReset = Static<typeof InsightsVisibilityReset>;

/** An insight as a user reads it: title and content in the caller's language (`content` absent with without-details). */
export const UserInsight = Type.Object(
  {
    id: Type.String(),
    language: LanguageSchema,
    title: Type.String(),
    content: Type.Optional(Type.String()),
    createdAt: Type.String(),
  },
  { $id: 'UserInsight' },
);
export type UserInsight = Static<typeof UserInsight>;
export const UserInsightList = Type.Array(UserInsight, { $id: 'UserInsightList' });
export const UserInsightsQuery = Type.Object(
  { 'without-details': Type.Optional(Type.Boolean({ description: 'true: titles only, no content' })) },
  { $id: 'UserInsightsQuery' },
);
export type UserInsightsQuery = Static<typeof UserInsightsQuery>;
export const InsightHidden = Type.Object({ id: Type.String(), hidden: Type.Boolean() }, { $id: 'InsightHidden' });
export type InsightHidden = Static<typeof InsightHidden>;

const tags = ['insights'] as const;
export const insightsApi = {
  adminList: endpoint({
    method: 'GET',
    path: '/admin/insights',
    operationId: 'listAdminInsights',
    tags,
    summary: 'Every insight, newest first, both languages (back-office table)',
    response: { 200: InsightList },
  }),
  create: endpoint({
    method: 'POST',
    path: '/admin/insights/',
    operationId: 'createInsight',
    tags,
    body: InsightBody,
    response: { 200: SavedInsight },
  }),
  update: endpoint({
    method: 'PUT',
    path: '/admin/insights/:id',
    operationId: 'updateInsight',
    tags,
    params: IdParams,
    body: InsightBody,
    response: { 200: SavedInsight },
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/admin/insights/:id',
    operationId: 'deleteInsight',
    tags,
    params: IdParams,
    response: { 200: InsightDeleted },
  }),
  resetVisibility: endpoint({
    method: 'PUT',
    path: '/admin/users/preferences/insights',
    operationId: 'resetInsightsVisibility',
    tags,
    summary: 'Shows every hidden insight again, for all users',
    response: { 200: InsightsVisibilityReset },
  }),
  list: endpoint({
    method: 'GET',
    path: '/insights',
    operationId: 'listInsights',
    tags,
    summary: "Insights the caller has not hidden, newest first, in the caller's language",
    querystring: UserInsightsQuery,
    response: { 200: UserInsightList },
  }),
  get: endpoint({
    method: 'GET',
    path: '/insights/:id',
    operationId: 'getInsight',
    tags,
    params: IdParams,
    response: { 200: UserInsight },
  }),
  hide: endpoint({
    method: 'POST',
    path: '/insights/:id/hide',
    operationId: 'hideInsight',
    tags,
    summary: 'Hides the insight for the caller until staff reset the visibility',
    params: IdParams,
    response: { 200: InsightHidden },
  }),
};
