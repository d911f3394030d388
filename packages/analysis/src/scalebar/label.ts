// Reading a scale-bar label from OCR text: a number (decimal point or comma) followed by a length unit.
export type LengthUnit = 'nm' | 'µm' | 'mm';
export interface ParsedLabel {
  value: number;
  unit: LengthUnit;
}

/**
 * Unit tokens as OCR reads them. µ comes out as u, p, j, y, w, h, H, t, q, the Greek μ or the micro sign µ; m as
 * rn. A unit must be there: a bare number (a magnification, a voltage) is not a label.
 */
const MICRO = /^(?:[µupjyqwht]|mu|\/u)(?:m|rn)$/;

/**
 * Value and unit of a label, or null. `descender`: a glyph of the label runs below the baseline (µ has a tail;
 * n and m do not), which settles a µ that OCR read as n or m.
 */
export function parseLabelText(text: string, descender = false): ParsedLabel | null {
  const t = text
    .normalize('NFKC')
    .replace(/μ/g, 'µ')
    .replace(/[Oo](?=\d)|(?<=\d)[Oo]/g, '0')
    .replace(/(?<=\d)[lI|](?=\d)/g, '1')
    .replace(/(?<=\d)\s*[.,·]\s*(?=\d)/g, (m) => (m.includes(',') ? ',' : '.'))
    // a µ read as 1 or l after the number's space: "2 1m", "50 lm"
    .replace(/(?<=\d)\s+[1lI|](?=(?:m|rn)(?![A-Za-z]))/g, ' µ')
    // with a glyph's tail seen, any single character read before m after the number's space is the µ ("2 4m")
    .replace(descender ? /(?<=\d)\s+[0-9A-Za-z](?=(?:m|rn)(?![A-Za-z]))/g : /$^/g, ' µ');
  const re = /(\d+(?:[.,]\d+)?)\s*([A-Za-zµ/]{1,7})(?![A-Za-z])/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(t))) {
    const num = m[1];
    // a comma is a decimal comma, unless it groups thousands (1,000)
    const value = /^\d{1,3},\d{3}$/.test(num) ? Number(num.replace(',', '')) : Number(num.replace(',', '.'));
    if (!Number.isFinite(value) || value <= 0) continue;
    const raw = m[2];
    const u = raw.toLowerCase();
    let unit: LengthUnit | null = null;
    if (/^µ/.test(raw) || u === 'micron' || u === 'microns') unit = 'µm';
    else if (u === 'nm') unit = descender ? 'µm' : 'nm';
    else if (u === 'mm') unit = descender ? 'µm' : 'mm';
    else if (MICRO.test(u) || u === 'urn' || u === 'prn') unit = 'µm';
    else if (u === 'm' && descender) unit = 'µm';
    if (unit) return { value, unit };
  }
  return null;
}
