import { hash, verify } from '@node-rs/argon2';

/** argon2id (the library's default algorithm), OWASP-recommended cost. */
const options = { memoryCost: 19456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/**
 * A hash (same algorithm and cost) to verify against when the account does not exist, so timing does not
 * reveal it. Fixed, so no state is kept: it matches no password anyone is told.
 */
const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$6MFRSwxs5Z6MIWqxT6jJdw$YVP7N+BJObA2jYPbe3YgSBC2Ge5qM9OI/gvLX55kNdg';
export async function burnPasswordCheck(password: string): Promise<void> {
  await verifyPassword(DUMMY_HASH, password);
}
