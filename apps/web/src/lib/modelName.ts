/**
 * The one place that names a model for the reader (issue 14 item 4): in German, the German name staff stored
 * (`displayNameDe`) when there is one; else a built-in model whose display name staff left as shipped reads in
 * the UI language from `resultText.models.<internal name>`; a name staff changed, or a model we do not ship, is
 * shown as stored. The server applies the same rule to the jobs it presents
 * (apps/server/src/modules/jobs/localise.ts), so a job's model name and the model lists agree.
 */
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';

export interface NamedModel {
  /** The internal name (`grain-size`); some answers call it `internalName`. */
  name?: string | null;
  internalName?: string | null;
  displayName?: string | null;
  /** The German name staff set (null or absent: none). */
  displayNameDe?: string | null;
}

/** The model's name in `language` (the UI language). */
export function modelName(t: TFunction, model: NamedModel, language?: string): string {
  if (language?.startsWith('de') && model.displayNameDe) return model.displayNameDe;
  const stored = model.displayName ?? '';
  const internal = model.name ?? model.internalName;
  if (!internal) return stored;
  const key = `resultText.models.${internal}`;
  const shipped = t(key, { lng: 'en', defaultValue: '' });
  if (!shipped || (stored && shipped !== stored)) return stored || internal;
  return t(key, { defaultValue: stored });
}

/** `modelName` bound to the current UI language. */
export function useModelName(): (model: NamedModel) => string {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  return useCallback((model: NamedModel) => modelName(t as TFunction, model, language), [t, language]);
}
