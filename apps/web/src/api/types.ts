/** API types come from the shared contracts (TypeBox schemas → static types). */
import type { Account as ContractAccount, Me as ContractMe } from '@lamella/contracts';

export type { Address, AccessKey, CreatedAccessKey, AvailableModel, ModelNavItem, VersionInfo, UpdateProfileBody, Role } from '@lamella/contracts';

export type Language = 'en' | 'de';
export type StatusOk = { status: 'OK' };

// The contracts' LanguageSchema union does not survive Static<> as 'en' | 'de' here; pin it.
export type Me = Omit<ContractMe, 'language'> & { language: Language };
export type Account = Omit<ContractAccount, 'language'> & { language: Language };
