/** Minimal baseline TIFF writer: uncompressed, little-endian, 1 strip, grey 8 or 16 bit. */
export function encodeGreyTiff(data: Uint8Array | Uint16Array, width: number, height: number): Buffer {
  const bps = data instanceof Uint16Array ? 16 : 8;
  const bytes = (width * height * bps) / 8;
  const entries: [number, number, number, number][] = [
    // tag, type (3 SHORT, 4 LONG), count, value
    [256, 4, 1, width],
    [257, 4, 1, height],
    [258, 3, 1, bps],
    [259, 3, 1, 1],
    [262, 3, 1, 1],
    [273, 4, 1, 0 /* strip offset, patched */],
    [277, 3, 1, 1],
    [278, 4, 1, height],
    [279, 4, 1, bytes],
  ];
  const ifdSize = 2 + entries.length * 12 + 4;
  const dataOffset = 8 + ifdSize;
  entries[5][3] = dataOffset;
  const buf = Buffer.alloc(dataOffset + bytes);
  buf.write('II', 0, 'latin1');
  buf.writeUInt16LE(42, 2);
  buf.writeUInt32LE(8, 4);
  buf.writeUInt16LE(entries.length, 8);
  entries.forEach(([tag, type, count, value], k) => {
    const o = 10 + k * 12;
    buf.writeUInt16LE(tag, o);
    buf.writeUInt16LE(type, o + 2);
    buf.writeUInt32LE(count, o + 4);
    if (type === 3) buf.writeUInt16LE(value, o + 8);
    else buf.writeUInt32LE(value, o + 8);
  });
  buf.writeUInt32LE(0, 10 + entries.length * 12);
  if (bps === 16) for (let i = 0; i < data.length; i++) buf.writeUInt16LE(data[i], dataOffset + 2 * i);
  else buf.set(data as Uint8Array, dataOffset);
  return buf;
}
