export * from './users.ts';
export * from './models.ts';
export * from './compute.ts';
export * from './images.ts';
export * from './projects.ts';
export * from './customizations.ts';
export * from './jobs.ts';
export * from './audit.ts';
