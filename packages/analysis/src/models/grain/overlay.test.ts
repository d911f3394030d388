import { beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { initCv } from '../../cv.js';
import { e112Intercept } from '../../measure/e112.js';
import { runModel } from '../../registry.js';
import { grainImage } from '../../synth/index.js';
import { markRadius, OVERLAY_COLOURS, overlayParts, plusOffsets } from './overlay.js';
import { interceptOf } from './report.js';

beforeAll(() => initCv());

/** Voronoi grains of random tints (no boundary lines), as a tint etching. */
async function tintImage(w: number, h: number, n: number, seed: number) {
  let a = seed;
  const rnd = () => (a = (Math.imul(a, 1103515245) + 12345) >>> 0) / 4294967296;
  const seeds = Array.from({ length: n }, () => ({ x: rnd() * w, y: rnd() * h, c: [60 + 150 * rnd(), 60 + 150 * rnd(), 60 + 150 * rnd()] }));
  const rgb = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let best = 0,
        bd = Infinity;
      seeds.forEach((s, k) => {
        const d = (s.x - x) ** 2 + (s.y - y) ** 2;
        if (d < bd) {
          bd = d;
          best = k;
        }
      });
      for (let ch = 0; ch < 3; ch++) rgb[3 * (y * w + x) + ch] = Math.round(seeds[best].c[ch]);
    }
  return {
    rgb,
    png: await sharp(rgb, { raw: { width: w, height: h, channels: 3 } })
      .png()
      .toBuffer(),
  };
}

const raw = async (png: Buffer) => sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });

describe('grain overlay parts (issue 24 item 4)', () => {
  it('draws a 3-px boundary band as a 1-px line and keeps a wide area of no grain apart as ignored', () => {
    const w = 60,
      h = 34;
    const L = new Int32Array(w * h);
    // grain 1 left, grain 2 right, a band of 0 at x = 19..21; a 16 × 16 hole of 0 inside grain 2
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) L[y * w + x] = x < 19 ? 1 : x > 21 ? 2 : 0;
    for (let y = 9; y < 25; y++) for (let x = 32; x < 48; x++) L[y * w + x] = 0;
    const valid = new Uint8Array(w * h).fill(1);
    const { lines, ignored, filled } = overlayParts(L, w, h, valid);
    for (const y of [2, 5, 30]) {
      let n = 0;
      for (let x = 0; x < w; x++) n += lines[y * w + x];
      expect(n).toBe(1); // one line pixel across the band
    }
    let hole = 0,
      band = 0;
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        if (ignored[y * w + x]) hole++;
        if (x >= 19 && x <= 21 && ignored[y * w + x]) band++;
      }
    expect(band).toBe(0);
    expect(hole).toBeGreaterThanOrEqual(240); // the opening rounds the square's corners
    expect(hole).toBeLessThanOrEqual(256);
    expect(filled[5 * w + 20]).toBeGreaterThan(0); // the band went to a grain
  });

  it('reports every counted intersection with its weight: the weights add up to P', async () => {
    const s = await grainImage({ width: 320, height: 240, grainPx: 30, pixelSizeUm: 0.5, noise: 2, seed: 3 });
    const { data, info } = await raw(s.png);
    // labels from the synthetic image's tone: connected bright regions, the dark lines as boundary (0)
    const { components } = await import('../../cvops.js');
    const inside = new Uint8Array(info.width * info.height);
    for (let i = 0; i < inside.length; i++) inside[i] = data[i * info.channels] > 110 ? 1 : 0;
    const cc = components(inside, info.width, info.height, 4);
    let sum = 0,
      marks = 0;
    const r = e112Intercept(cc.labels, info.width, info.height, null, 6, 3, (_, wgt) => {
      sum += wgt;
      marks++;
    });
    expect(r.intersections).toBeGreaterThan(50);
    expect(sum).toBe(r.intersections);
    expect(marks).toBeGreaterThan(r.intersections / 1.5);
    // without the listener the count is the same
    expect(e112Intercept(cc.labels, info.width, info.height, null, 6).intersections).toBe(r.intersections);
  });

  it("keeps the measurement's count for the test-line image: the same intersections, weights and lines, in order", async () => {
    // Voronoi grains, a zero-width partition as the learned versions give (junction events on)
    const w = 240,
      h = 180;
    let a = 11;
    const rnd = () => (a = (Math.imul(a, 1103515245) + 12345) >>> 0) / 4294967296;
    const seeds = Array.from({ length: 60 }, () => [rnd() * w, rnd() * h]);
    const L = new Int32Array(w * h);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        let best = 0;
        for (let k = 1; k < seeds.length; k++)
          if ((seeds[k][0] - x) ** 2 + (seeds[k][1] - y) ** 2 < (seeds[best][0] - x) ** 2 + (seeds[best][1] - y) ** 2) best = k;
        L[y * w + x] = best + 1;
      }
    const valid = new Uint8Array(w * h).fill(1);
    const counted = interceptOf(L, w, h, valid, 5, '20261203').counted!;
    const again: number[] = [];
    const r = e112Intercept(L, w, h, valid, 5, 3, (i, wgt, vertical) => again.push(i, wgt, vertical ? 1 : 0), true);
    expect(counted.hits.length).toBeGreaterThan(3 * 100);
    expect(counted.hits).toEqual(again);
    expect({ lines: counted.lines, marks: counted.marks, intersections: counted.intersections }).toEqual({
      lines: r.lines,
      marks: r.marks,
      intersections: r.intersections,
    });
    // the versions before E112's counting have no test-line image and keep no count
    expect(interceptOf(L, w, h, valid, 5, '20261122').counted).toBeUndefined();
  });
});

describe('grain-size overlays of a run', () => {
  it('draws 1-px lines on the colour image, not on a grey copy, and the E112 test-line image', async () => {
    const w = 360,
      h = 270;
    const { rgb, png } = await tintImage(w, h, 60, 777);
    const r = await runModel('grain-size', '20261125', png, {}, { pixelSizeUm: 1 });
    const names = r.files.map((f) => f.filename);
    expect(names).toContain('grain-boundaries.png');
    expect(names).toContain('e112-test-lines.png');
    expect(r.items.filter((i) => i.type === 'image').map((i) => (i as { filename: string }).filename)).toEqual([
      'grain-boundaries.png',
      'e112-test-lines.png',
    ]);
    const ov = await raw(r.files.find((f) => f.filename === 'grain-boundaries.png')!.data);
    let same = 0,
      boundary = 0,
      grey = 0;
    for (let i = 0; i < w * h; i++) {
      const [R, G, B] = [ov.data[3 * i], ov.data[3 * i + 1], ov.data[3 * i + 2]];
      if (R === rgb[3 * i] && G === rgb[3 * i + 1] && B === rgb[3 * i + 2]) same++;
      if (R === 255 && G === 26 && B === 26) boundary++;
      if (R === G && G === B) grey++;
    }
    // most pixels keep the image's own colour (inside grains, untinted); the lines are a small share (1 px wide)
    expect(same / (w * h)).toBeGreaterThan(0.4);
    expect(boundary / (w * h)).toBeLessThan(0.08);
    expect(boundary).toBeGreaterThan(0);
    expect(grey / (w * h)).toBeLessThan(0.02);
    // intersections are marked on the test-line image
    const tl = await raw(r.files.find((f) => f.filename === 'e112-test-lines.png')!.data);
    let marks = 0;
    const [mr, mg, mb] = OVERLAY_COLOURS.hit;
    for (let i = 0; i < w * h; i++) if (tl.data[3 * i] === mr && tl.data[3 * i + 1] === mg && tl.data[3 * i + 2] === mb) marks++;
    expect(marks).toBeGreaterThan(9 * 20);
    const legend = r.items.find((i) => i.type === 'message' && i.code === 'OVERLAY_LEGEND');
    expect(legend).toBeTruthy();
  }, 60_000);

  it('draws only every k-th test line (≥ 24 px apart) with its marks, not a cyan wash; the count and its caption use all lines', async () => {
    const w = 360,
      h = 270;
    const { rgb, png } = await tintImage(w, h, 60, 777);
    const r = await runModel('grain-size', undefined, png, {}, { pixelSizeUm: 1 });
    const tl = await raw(r.files.find((f) => f.filename === 'e112-test-lines.png')!.data);
    // a test-line pixel: the image's colour blended with cyan (red down, blue up)
    const cyan = (i: number) => tl.data[3 * i] < rgb[3 * i] - 10 && tl.data[3 * i + 2] > rgb[3 * i + 2] + 20;
    let tinted = 0;
    const rowShare = new Array<number>(h).fill(0),
      colShare = new Array<number>(w).fill(0);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++)
        if (cyan(y * w + x)) {
          tinted++;
          rowShare[y] += 1 / w;
          colShare[x] += 1 / h;
        }
    // the test lines every 4 px tinted 44 % of the picture; the drawn ones leave the image readable
    expect(tinted / (w * h)).toBeLessThan(0.1);
    const rows = rowShare.flatMap((v, y) => (v > 0.5 ? [y] : []));
    const cols = colShare.flatMap((v, x) => (v > 0.5 ? [x] : []));
    expect(rows.length).toBeGreaterThanOrEqual(6);
    expect(cols.length).toBeGreaterThanOrEqual(8);
    for (const at of [rows, cols]) for (let k = 1; k < at.length; k++) expect(at[k] - at[k - 1]).toBeGreaterThanOrEqual(24);
    // the measurement counts every line (spacing 4 px here), as before
    const spacing = 4;
    const legend = r.items.find((i) => i.type === 'message' && i.code === 'OVERLAY_LEGEND') as { content: string };
    const m =
      /shows 1 in (\d+) of the E112 intercept's (\d+) test lines \((\d+) lines in cyan, (\d+) px apart\) and the (\d+) counted intersections on them: .* The count uses all lines: P = ([\d.]+), the weighted count of (\d+) intersections\./.exec(
        legend.content,
      );
    expect(m, legend.content).not.toBeNull();
    const [step, allLines, shown, gap, marks, P, allMarks] = m!.slice(1).map(Number);
    expect(gap).toBe(step * spacing);
    expect(gap).toBe(rows[1] - rows[0]);
    expect(shown).toBe(rows.length + cols.length);
    expect(allLines).toBe(Math.ceil((h - 2) / spacing) + Math.ceil((w - 2) / spacing));
    expect(P).toBe(r.measurements.interceptCount);
    expect(marks).toBeGreaterThan(20);
    expect(marks).toBeLessThan(allMarks / 3);
    expect(allMarks).toBeLessThanOrEqual(P);
    // only the drawn lines carry marks: no mark lies off them
    const mark = OVERLAY_COLOURS.hit;
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const i = 3 * (y * w + x);
        if (tl.data[i] === mark[0] && tl.data[i + 1] === mark[1] && tl.data[i + 2] === mark[2])
          expect(rows.some((ry) => Math.abs(ry - y) <= 1) || cols.some((cx) => Math.abs(cx - x) <= 1), `mark at ${x},${y}`).toBe(true);
      }
  }, 60_000);

  it('says that P is the weighted count of the intersections the test-line image marks: method, table tooltip and legend agree (en, de)', async () => {
    const { png } = await tintImage(360, 270, 60, 777);
    for (const lang of ['en', 'de'] as const) {
      const r = await runModel('grain-size', undefined, png, {}, { pixelSizeUm: 1, lang });
      const P = Number(r.measurements.interceptCount);
      const msg = (code: string) => (r.items.find((i) => i.type === 'message' && i.code === code) as { content: string }).content;
      const method = (r.items.find((i) => i.type === 'message' && /^(Method|Verfahren)/.test(i.title)) as { content: string }).content;
      const legend = msg('OVERLAY_LEGEND');
      // the number of intersections P weighs: the legend's count over all lines
      const all = Number(
        (lang === 'en' ? /the weighted count of (\d+) intersections\.$/ : /die gewichtete Zahl von (\d+) Schnittpunkten\.$/).exec(
          legend.split(' The opacity')[0].split(' Mit dem Deckkraft')[0],
        )?.[1],
      );
      expect(all).toBeGreaterThan(100);
      expect(all).toBeLessThanOrEqual(P);
      const p = lang === 'de' ? String(P).replace('.', ',') : String(P);
      const said = lang === 'en' ? `P = ${p}, the weighted count of ${all} intersections` : `P = ${p}, die gewichtete Zahl von ${all} Schnittpunkten`;
      expect(method).toContain(`${said}: ${lang === 'en' ? 'a crossing counts 1, a triple point 1½' : 'ein Schnitt zählt 1, ein Tripelpunkt 1½'}`);
      expect(legend).toContain(said);
      const table = r.items.find((i) => i.type === 'data-table') as { rows: Array<{ label: string; labelTooltip?: string }> };
      const intercept = table.rows.find((row) => /Mean lineal intercept|Mittlere Sehnenlänge/.test(row.label));
      expect(intercept?.labelTooltip).toMatch(new RegExp(`^${said.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} (on horizontal|auf horizontalen)`));
    }
  }, 60_000);

  it('places the overlay of a crop on the whole image: the crop pixel for pixel, the rest hatched grey on all four sides', async () => {
    const w = 300,
      h = 220;
    const { rgb, png } = await tintImage(w, h, 40, 4242);
    const crop = { x: 60, y: 40, width: 170, height: 120 };
    const r = await runModel('grain-size', undefined, png, {}, { pixelSizeUm: 1, crop });
    const ov = await raw(r.files.find((f) => f.filename === 'grain-boundaries.png')!.data);
    expect([ov.info.width, ov.info.height]).toEqual([w, h]);
    const inside = (x: number, y: number) => x >= crop.x && x < crop.x + crop.width && y >= crop.y && y < crop.y + crop.height;
    let keptInside = 0,
      hatched = 0,
      outside = 0;
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const i = y * w + x;
        const [R, G, B] = [ov.data[3 * i], ov.data[3 * i + 1], ov.data[3 * i + 2]];
        if (inside(x, y)) keptInside += R === rgb[3 * i] && G === rgb[3 * i + 1] && B === rgb[3 * i + 2] ? 1 : 0;
        else {
          outside++;
          // the grey image blended with the grey hatch colour (110) at 0.45 or 0.8: grey, never darker than 0.45 × 110
          if (R === G && G === B && R >= Math.floor(0.45 * OVERLAY_COLOURS.excluded[0])) hatched++;
        }
      }
    // inside: the image's own colours except the 1-px lines and the amber tint of grains cut by the crop's border
    expect(keptInside / (crop.width * crop.height)).toBeGreaterThan(0.15);
    // outside (left, right, above and below the crop): every pixel hatched
    expect(outside).toBe(w * h - crop.width * crop.height);
    expect(hatched).toBe(outside);
  }, 60_000);

  it('marks the intersections with pluses that grow with the image: about 0.4 % of the shorter side, 3 px on a small one', async () => {
    expect(markRadius(360, 270)).toBe(1);
    expect(markRadius(1600, 1200)).toBe(5);
    expect(markRadius(4000, 3000)).toBe(12);
    expect(plusOffsets(1).length).toBe(5); // the 3-px plus of a small image, as before
    /** The median width of the green marks (4-connected pieces of the hit colour) in a run's test-line image. */
    const markWidth = async (w: number, h: number, grainPx: number) => {
      const s = await grainImage({ width: w, height: h, grainPx, pixelSizeUm: 0.5, noise: 2, seed: 8 });
      const r = await runModel('grain-size', '20261125', s.png, {}, { pixelSizeUm: 0.5 });
      const tl = await raw(r.files.find((f) => f.filename === 'e112-test-lines.png')!.data);
      expect([tl.info.width, tl.info.height]).toEqual([w, h]);
      const [mr, mg, mb] = OVERLAY_COLOURS.hit;
      const hit = new Uint8Array(w * h);
      for (let i = 0; i < w * h; i++) hit[i] = tl.data[3 * i] === mr && tl.data[3 * i + 1] === mg && tl.data[3 * i + 2] === mb ? 1 : 0;
      const { components } = await import('../../cvops.js');
      const cc = components(hit, w, h, 4);
      const x0 = new Int32Array(cc.count + 1).fill(w),
        x1 = new Int32Array(cc.count + 1).fill(-1);
      for (let i = 0; i < w * h; i++) {
        const l = cc.labels[i];
        if (!l) continue;
        const x = i % w;
        if (x < x0[l]) x0[l] = x;
        if (x > x1[l]) x1[l] = x;
      }
      const widths = Array.from({ length: cc.count }, (_, k) => x1[k + 1] - x0[k + 1] + 1).sort((a, b) => a - b);
      expect(widths.length).toBeGreaterThan(20);
      return widths[widths.length >> 1];
    };
    // a small image keeps its 3-px pluses; one of 1600 × 1200 px (shown about 800 px wide) gets 11-px ones, 3 px thick
    expect(await markWidth(360, 270, 30)).toBe(3);
    expect(await markWidth(1600, 1200, 120)).toBe(2 * markRadius(1600, 1200) + 1);
  }, 120_000);

  it('claims no length in the method text of an uncalibrated image, and writes German numbers with a comma', async () => {
    const s = await grainImage({ width: 320, height: 240, grainPx: 24, pixelSizeUm: 0.5, noise: 2, seed: 5 });
    const r = await runModel('grain-size', '20261127', s.png, {}, { settingsCalibration: false, lang: 'de' });
    const method = r.items.find((i) => i.type === 'message' && i.title.startsWith('Verfahren')) as { content: string };
    expect(method.content).not.toMatch(/\bmm\b/);
    expect(method.content).toMatch(/Gesamtlänge \d+ px/);
    expect(method.content).toContain('nicht kalibriert');
    expect(method.content).not.toMatch(/P = \d+\.\d/);
    const cal = await runModel('grain-size', '20261127', s.png, {}, { pixelSizeUm: 0.5, lang: 'en' });
    const m2 = cal.items.find((i) => i.type === 'message' && i.title.startsWith('Method')) as { content: string };
    expect(m2.content).toMatch(/total length [\d.]+ mm/);
  }, 60_000);
});
