/**
 * Kept for the screens that still import API types from here; new code imports them from '@lamella/contracts'.
 * (The former claim that the contracts' language union did not survive Static<> was false: `Me['language']`
 * is 'en' | 'de'.)
 */
export type {
  Address,
  AccessKey,
  CreatedAccessKey,
  AvailableModel,
  ModelNavItem,
  VersionInfo,
  UpdateProfileBody,
  Role,
  Me,
  Account,
  StatusOk,
} from '@lamella/contracts';
export type Language = import('@lamella/contracts').Me['language'];
