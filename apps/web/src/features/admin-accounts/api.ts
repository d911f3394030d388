/** Calls of the accounts-area admin pages: vouchers and project settings templates (accounts.md §7), typed from the contracts. */
import { templatesApi as templateEndpoints, vouchersApi as voucherEndpoints, type SettingsTemplateBody } from '@lamella/contracts';
import { call } from '../../api/client';

/** The vouchers page loads everything in one page (page size 1,000,000), oldest first. */
export const VOUCHER_PAGE_SIZE = 1_000_000;

export const vouchersApi = {
  list: () => call(voucherEndpoints.list, { query: { page: 1, pageSize: VOUCHER_PAGE_SIZE, sortBy: 'createdAt', sortOrder: 'asc' } }),
  create: (body: { count: number; executions: number; validUntil: string | null }) => call(voucherEndpoints.create, { body }),
  remove: (id: string) => call(voucherEndpoints.remove, { params: { id } }),
};

export const templatesApi = {
  list: () => call(templateEndpoints.list),
  create: (body: SettingsTemplateBody) => call(templateEndpoints.create, { body }),
  update: (id: string, body: SettingsTemplateBody) => call(templateEndpoints.update, { params: { id }, body }),
  remove: (id: string) => call(templateEndpoints.remove, { params: { id } }),
};
