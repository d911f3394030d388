import { Type, type Static, type TSchema } from 'typebox';
import { IdParams, LanguageSchema } from './common.ts';
import { endpoint } from './endpoint.ts';

/**
 * Model news (back-office.md §2 "News screen", §9 "Insights and news"): bilingual rich-text news written by ADMIN
 * staff, either general (no model: shown on the user dashboard) or about one model (shown on its results page).
 */
const Nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()]);

/** The entity of back-office.md §3, both languages (the back-office's table and edit modal). */
export const News = Type.Object(
  {
    id: Type.String(),
    titleEn: Type.String(),
    titleDe: Type.String(),
    contentEn: Type.String(),
    contentDe: Type.String(),
    /** null: general news. */
    modelId: Nullable(Type.String()),
    createdAt: Type.String(),
  },
  { $id: 'News' },
);
export type News = Static<typeof News>;
export const NewsList = Type.Array(News, { $id: 'NewsList' });

/** Create and update: both titles and contents are required; an empty or absent model means general news. */
export const NewsBody = Type.Object(
  {
    titleEn: Type.Optional(Type.String({ maxLength: 500 })),
    titleDe: Type.Optional(Type.String({ maxLength: 500 })),
    /** Rich text (HTML), sanitised by the server. */
    contentEn: Type.Optional(Type.String({ maxLength: 2_000_000 })),
    contentDe: Type.Optional(Type.String({ maxLength: 2_000_000 })),
    modelId: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
  },
  { $id: 'NewsBody' },
);
export type NewsBody = Static<typeof NewsBody>;

export const SavedNews = Type.Object({ ...News.properties, message: Type.String() }, { $id: 'SavedNews' });
export type SavedNews = Static<typeof SavedNews>;
export const NewsDeleted = Type.Object({ id: Type.String(), deleted: Type.Boolean(), message: Type.String() }, { $id: 'NewsDeleted' });
export type NewsDeleted = Static<typeof NewsDeleted>;

/** News as a user reads it: title and content in the caller's language. */
export const UserNews = Type.Object(
  {
    id: Type.String(),
    language: LanguageSchema,
    title: Type.String(),
    content: Type.String(),
    modelId: Nullable(Type.String()),
    createdAt: Type.String(),
  },
  { $id: 'UserNews' },
);
export type UserNews = Static<typeof UserNews>;
export const UserNewsList = Type.Array(UserNews, { $id: 'UserNewsList' });
export const UserNewsQuery = Type.Object(
  { modelId: Type.Optional(Type.String({ format: 'uuid', description: "A model's news; absent: general news" })) },
  { $id: 'UserNewsQuery' },
);
export type UserNewsQuery = Static<typeof UserNewsQuery>;

const tags = ['news'] as const;
export const newsApi = {
  list: endpoint({
    method: 'GET',
    path: '/admin/compute-models-news',
    operationId: 'listNews',
    tags,
    summary: 'Every news item, newest first, both languages',
    response: { 200: NewsList },
  }),
  create: endpoint({
    method: 'POST',
    path: '/admin/compute-models-news',
    operationId: 'createNews',
    tags,
    body: NewsBody,
    response: { 200: SavedNews },
  }),
  get: endpoint({
    method: 'GET',
    path: '/admin/compute-models-news/:id',
    operationId: 'getNews',
    tags,
    params: IdParams,
    response: { 200: News },
  }),
  update: endpoint({
    method: 'PUT',
    path: '/admin/compute-models-news/:id',
    operationId: 'updateNews',
    tags,
    params: IdParams,
    body: NewsBody,
    response: { 200: SavedNews },
  }),
  /** back-office.md §9 writes "POST … /admin/compute-models-news/{id}": answered as an update. */
  updateByPost: endpoint({
    method: 'POST',
    path: '/admin/compute-models-news/:id',
    operationId: 'updateNewsByPost',
    tags,
    summary: 'Same as PUT (the spec lists POST on the item path)',
    params: IdParams,
    body: NewsBody,
    response: { 200: SavedNews },
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/admin/compute-models-news/:id',
    operationId: 'deleteNews',
    tags,
    params: IdParams,
    response: { 200: NewsDeleted },
  }),
  userList: endpoint({
    method: 'GET',
    path: '/news',
    operationId: 'listUserNews',
    tags,
    summary: "General news, or one model's news the caller may use, newest first, in the caller's language",
    querystring: UserNewsQuery,
    response: { 200: UserNewsList },
  }),
};
