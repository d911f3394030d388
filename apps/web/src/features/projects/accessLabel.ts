import type { ProjectMember } from '@lamella/contracts';

/** The translation key of each access level (owner, or the role a project is shared as). */
export const ACCESS_LABEL = {
  OWNER: 'projects.access.OWNER',
  EDITOR: 'projects.access.EDITOR',
  VIEWER: 'projects.access.VIEWER',
} as const satisfies Record<ProjectMember['role'], string>;
