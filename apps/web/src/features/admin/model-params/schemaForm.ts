/**
 * The model-parameter form (back-office.md §9, /admin/model-params) is generated from the model's JSON Schema:
 * objects become sections, enums selects, numbers number inputs with the schema's bounds, booleans switches,
 * and `{r, g, b}` objects with 0–1 channels colour pickers. Pure functions, tested on their own.
 */
type Json = Record<string, unknown>;

interface Base {
  key: string;
  path: string[];
  description?: string;
}
export type Field =
  | (Base & { kind: 'group'; children: Field[] })
  | (Base & { kind: 'enum'; options: string[] })
  | (Base & { kind: 'number' | 'integer'; min?: number; max?: number; exclusiveMin?: number; exclusiveMax?: number })
  | (Base & { kind: 'string' })
  | (Base & { kind: 'boolean' })
  | (Base & { kind: 'colour' });

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

function isRgb(p: Json): boolean {
  const props = p.properties;
  if (p.type !== 'object' || !isObject(props)) return false;
  const keys = Object.keys(props).sort().join(',');
  return keys === 'b,g,r' && ['r', 'g', 'b'].every((c) => isObject(props[c]) && (props[c] as Json).type === 'number');
}

const num = (v: unknown) => (typeof v === 'number' ? v : undefined);

/** The form's fields, in the schema's property order. Unknown kinds (arrays, free objects) are left out. */
export function fieldsOf(schema: unknown, path: string[] = []): Field[] {
  if (!isObject(schema) || !isObject(schema.properties)) return [];
  const out: Field[] = [];
  for (const [key, raw] of Object.entries(schema.properties)) {
    if (!isObject(raw)) continue;
    const base = { key, path: [...path, key], description: typeof raw.description === 'string' ? raw.description : undefined };
    const type = Array.isArray(raw.type) ? raw.type.find((t) => t !== 'null') : raw.type;
    if (Array.isArray(raw.enum)) out.push({ ...base, kind: 'enum', options: raw.enum.map(String) });
    else if (isRgb(raw)) out.push({ ...base, kind: 'colour' });
    else if (type === 'object') {
      const children = fieldsOf(raw, base.path);
      if (children.length) out.push({ ...base, kind: 'group', children });
    } else if (type === 'number' || type === 'integer')
      out.push({
        ...base,
        kind: type,
        min: num(raw.minimum),
        max: num(raw.maximum),
        exclusiveMin: num(raw.exclusiveMinimum),
        exclusiveMax: num(raw.exclusiveMaximum),
      });
    else if (type === 'boolean') out.push({ ...base, kind: 'boolean' });
    else if (type === 'string') out.push({ ...base, kind: 'string' });
  }
  return out;
}

export function getAt(value: unknown, path: string[]): unknown {
  let cur = value;
  for (const k of path) {
    if (!isObject(cur)) return undefined;
    cur = cur[k];
  }
  return cur;
}

/** A copy of `value` with `path` set; `undefined` removes the key (and objects left empty). */
export function setAt(value: Json, path: string[], next: unknown): Json {
  const [head, ...rest] = path;
  const out: Json = { ...value };
  if (!rest.length) {
    if (next === undefined) delete out[head];
    else out[head] = next;
    return out;
  }
  const child = setAt(isObject(out[head]) ? (out[head] as Json) : {}, rest, next);
  if (Object.keys(child).length) out[head] = child;
  else delete out[head];
  return out;
}

const channel = (v: unknown) => Math.round(Math.min(1, Math.max(0, typeof v === 'number' ? v : 0)) * 255);

/** `{r, g, b}` with channels 0–1 → `#rrggbb`. */
export function rgbToHex(v: unknown): string {
  const c = isObject(v) ? v : {};
  return `#${[c.r, c.g, c.b].map((x) => channel(x).toString(16).padStart(2, '0')).join('')}`;
}

/** `#rrggbb` → `{r, g, b}` with channels 0–1 (3 decimals); null when it is not such a colour. */
export function hexToRgb(hex: string): { r: number; g: number; b: number } | null {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex.trim());
  if (!m) return null;
  const [r, g, b] = m.slice(1).map((h) => Math.round((parseInt(h, 16) / 255) * 1000) / 1000);
  return { r, g, b };
}

export type FieldProblem = { key: 'integer' | 'min' | 'max' | 'above' | 'below'; limit?: number };

/** The bounds of number fields, checked in the browser before the server validates the whole object. */
export function problemsOf(fields: Field[], value: unknown): Record<string, FieldProblem> {
  const out: Record<string, FieldProblem> = {};
  for (const f of fields) {
    if (f.kind === 'group') Object.assign(out, problemsOf(f.children, value));
    if (f.kind !== 'number' && f.kind !== 'integer') continue;
    const v = getAt(value, f.path);
    if (typeof v !== 'number') continue;
    const id = f.path.join('.');
    if (f.kind === 'integer' && !Number.isInteger(v)) out[id] = { key: 'integer' };
    else if (f.min !== undefined && v < f.min) out[id] = { key: 'min', limit: f.min };
    else if (f.max !== undefined && v > f.max) out[id] = { key: 'max', limit: f.max };
    else if (f.exclusiveMin !== undefined && v <= f.exclusiveMin) out[id] = { key: 'above', limit: f.exclusiveMin };
    else if (f.exclusiveMax !== undefined && v >= f.exclusiveMax) out[id] = { key: 'below', limit: f.exclusiveMax };
  }
  return out;
}

/** "maxIterations" → "Max iterations": the label when the translation files have none for a field. */
export function humanize(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
