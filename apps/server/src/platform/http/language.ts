import type { FastifyRequest } from 'fastify';
import { fallbackLanguage, isLanguage, type Language } from '@lamella/i18n';

/** The caller's language: the `lng` cookie, then the signed-in user's language, then Accept-Language, then en. */
export function requestLanguage(request: FastifyRequest): Language {
  const cookie = request.cookies?.lng;
  if (isLanguage(cookie)) return cookie;
  const userLng = request.auth?.user.language;
  if (isLanguage(userLng)) return userLng;
  const header = request.headers['accept-language'];
  if (typeof header === 'string') {
    for (const part of header.split(',')) {
      const tag = part.split(';')[0].trim().slice(0, 2).toLowerCase();
      if (isLanguage(tag)) return tag;
    }
  }
  return fallbackLanguage;
}
