/** A minimal uncompressed 16-bit grayscale TIFF, as microscopes write them (sharp writes 8-bit TIFF only). */
export function writeTiff16(width: number, height: number, pixels: Uint16Array): Buffer {
  const entries: Array<[number, number, number]> = [
    [256, 4, width],
    [257, 4, height],
    [258, 3, 16],
    [259, 3, 1],
    [262, 3, 1],
    [273, 4, 0], // strip offset, filled below
    [277, 3, 1],
    [278, 4, height],
    [279, 4, width * height * 2],
  ];
  const ifdSize = 2 + entries.length * 12 + 4;
  const dataOffset = 8 + ifdSize;
  const buf = Buffer.alloc(dataOffset + pixels.length * 2);
  buf.write('II', 0, 'latin1');
  buf.writeUInt16LE(42, 2);
  buf.writeUInt32LE(8, 4);
  buf.writeUInt16LE(entries.length, 8);
  entries.forEach(([tag, type, value], i) => {
    const o = 10 + i * 12;
    buf.writeUInt16LE(tag, o);
    buf.writeUInt16LE(type, o + 2);
    buf.writeUInt32LE(1, o + 4);
    const v = tag === 273 ? dataOffset : value;
    if (type === 3) buf.writeUInt16LE(v, o + 8);
    else buf.writeUInt32LE(v, o + 8);
  });
  buf.writeUInt32LE(0, 10 + entries.length * 12);
  for (let i = 0; i < pixels.length; i++) buf.writeUInt16LE(pixels[i], dataOffset + i * 2);
  return buf;
}
