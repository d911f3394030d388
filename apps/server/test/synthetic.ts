import sharp from 'sharp';

/**
 * A porosity micrograph with known truth: `count` dark round pores of radius `r` on a bright, slightly
 * textured matrix, placed on a grid so they never touch.
 */
export async function poresImage(opts: { width: number; height: number; count: number; r: number; seed?: number }) {
  const { width, height, count, r } = opts;
  const cols = Math.ceil(Math.sqrt((count * width) / height));
  const rows = Math.ceil(count / cols);
  const circles: string[] = [];
  let n = 0;
  for (let j = 0; j < rows && n < count; j++) {
    for (let i = 0; i < cols && n < count; i++, n++) {
      const cx = ((i + 0.5) * width) / cols;
      const cy = ((j + 0.5) * height) / rows;
      circles.push(`<circle cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="${r}" fill="rgb(25,25,25)"/>`);
    }
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="rgb(205,205,205)"/>${circles.join('')}</svg>`;
  const png = await sharp(Buffer.from(svg)).grayscale().png().toBuffer();
  return { png, truth: { poreCount: count, areaFractionPercent: (100 * count * Math.PI * r * r) / (width * height) } };
}
