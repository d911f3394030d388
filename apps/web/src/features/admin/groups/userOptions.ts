/** Select data for the Admin and Members cells: label = full name; search matches name, e-mail, company or id. */
import type { ComboboxItem, ComboboxParsedItem, OptionsFilter } from '@mantine/core';
import type { GroupUserOption, UserGroup } from '@lamella/contracts';

export interface UserItem extends ComboboxItem {
  email: string;
  company: string;
  /** Name of the other group the user belongs to (members select only). */
  otherGroup: string | null;
}

/** Options for one group's selects; for members, users of another group are disabled and say which group. */
export function userItems(users: GroupUserOption[], groups: UserGroup[], group: UserGroup | null, forMembers: boolean): UserItem[] {
  const groupName = new Map(groups.map((g) => [g.id, g.name]));
  return users.map((u) => {
    const otherGroup = u.groupId && u.groupId !== group?.id ? (groupName.get(u.groupId) ?? null) : null;
    return { value: u.id, label: u.fullName, email: u.email, company: u.company, otherGroup, disabled: forMembers && otherGroup !== null };
  });
}

/** Matches every word of the search against name, e-mail, company and id (case-insensitive). */
export function matchesUser(item: Pick<UserItem, 'value' | 'label' | 'email' | 'company'>, search: string): boolean {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  const haystack = `${item.label} ${item.email} ${item.company} ${item.value}`.toLowerCase();
  return words.every((w) => haystack.includes(w));
}

/** A Mantine options filter over UserItem data (the items carry email and company). */
export function userFilter(items: UserItem[]): OptionsFilter {
  const byId = new Map(items.map((i) => [i.value, i]));
  return ({ options, search }) =>
    (options as ComboboxParsedItem[]).filter((o) => {
      if (!('value' in o)) return false;
      const item = byId.get(o.value);
      return item ? matchesUser(item, search) : false;
    });
}
