/** Customization groups calls (back-office.md §7 "Customization groups"), typed from the contracts (customizations.ts). */
import { customizationsApi as endpoints, type CustomizationGroup, type CustomizationGroupBody, type ValidateSettingsBody } from '@lamella/contracts';
import { call } from '../../../api/client';

export const custApi = {
  groups: () => call(endpoints.listGroups),
  create: (body: CustomizationGroupBody) => call(endpoints.createGroup, { body }),
  update: (groupId: string, body: CustomizationGroupBody) => call(endpoints.updateGroup, { params: { groupId }, body }),
  remove: (groupId: string) => call(endpoints.deleteGroup, { params: { groupId } }),
  clone: (groupId: string) => call(endpoints.cloneGroup, { params: { groupId } }),
  addMember: (groupId: string, userId: string) => call(endpoints.addMember, { params: { groupId }, body: { userId } }),
  removeMember: (groupId: string, userId: string) => call(endpoints.removeMember, { params: { groupId, userId } }),
  setParents: (groupId: string, body: { parents: { parentId: string; priority: number }[] }) =>
    call(endpoints.setParents, { params: { groupId }, body }),
  removeParent: (groupId: string, parentId: string) => call(endpoints.removeParent, { params: { groupId, parentId } }),
  /** The group's own settings. */
  settings: async (groupId: string) => (await call(endpoints.settings, { params: { groupId } })).settings,
  saveSettings: (groupId: string, settings: Record<string, unknown>) => call(endpoints.saveSettings, { params: { groupId }, body: { settings } }),
  /** Model defaults ← ancestors ← the group's own settings. */
  resolved: async (groupId: string) => (await call(endpoints.resolvedSettings, { params: { groupId } })).settings,
  /** The model's default settings and settings schema. */
  defaults: (modelId: string) => call(endpoints.modelDefaults, { params: { modelId } }),
  /** null when valid, else the schema errors. */
  validate: (body: ValidateSettingsBody) => call(endpoints.validate, { body }),
};

export const GROUPS_KEY = ['admin', 'customization-groups'] as const;
export const modelIdOf = (g: CustomizationGroup) => g.modelId;
