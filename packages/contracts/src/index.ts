/** Request/response schemas (TypeBox → JSON Schema → OpenAPI) and rules shared by server and web app. */
export * from './endpoint.ts';
export * from './common.ts';
export * from './accounts.ts';
export * from './rules.ts';
export * from './admin.ts';
export * from './access-keys.ts';
